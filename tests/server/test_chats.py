"""A request belongs to its chat; the HTTP API's defaults are the CLI's and the adapters';
an answer whose record was not stored says so."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from unified_search.contract.handler import SearchContext
from unified_search.engine.searcher import Searcher
from unified_search.policy.session import RunIds, SearchOptions, SearchSession
from unified_search.records.store import SearchStore
from unified_search.server.app import create_app
from unified_search.types import ResultItem, SearchRequest, SearchResult


class Named:
    """Answers every query with one item named after the query and the source."""

    async def asearch(self, request: SearchRequest, ctx: SearchContext) -> SearchResult:
        item = ResultItem(
            type=request.type,
            title=f"{request.type.value}: {request.query}",
            document_id=request.query,
            score=0.5,
        )
        return SearchResult(type=request.type, query=request.query, items=[item])


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SearchStore]:
    with SearchStore(f"sqlite:///{tmp_path / 'records.sqlite3'}") as opened:
        yield opened


@pytest.fixture
async def http(store: SearchStore) -> AsyncIterator[httpx.AsyncClient]:
    searcher = Searcher(handlers={"kb": Named(), "db": Named()}, store=store)
    transport = httpx.ASGITransport(app=create_app(searcher, store))
    async with httpx.AsyncClient(transport=transport, base_url="http://localhost") as client:
        yield client
    await searcher.aclose()


async def post(http: httpx.AsyncClient, **body: Any) -> httpx.Response:
    return await http.post("/api/search", json={"types": ["kb"], **body})


async def found(http: httpx.AsyncClient, **body: Any) -> dict[str, Any]:
    response = await post(http, **body)
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


# -- ownership ------------------------------------------------------------------------------


@pytest.mark.parametrize("own_request", ["own-scope", "chat-scope"])
async def test_another_chat_cannot_continue_a_request_and_so_cannot_read_it(
    http: httpx.AsyncClient, own_request: str
) -> None:
    """The attack: send chat A's request_id with chat B's chat_id, then read A's references."""
    body = {"request_id": "req-a"} if own_request == "own-scope" else {}
    if own_request == "own-scope":  # chat A's request continues its chat scope, then its own
        first = await found(http, query="alpha secret", chat_id="chat-a")
        body = {"request_id": first["request_id"]}
    victim = await found(http, query="alpha secret", chat_id="chat-a", **body)
    request_id = victim["request_id"]

    joined = await post(http, query="beta", chat_id="chat-b", request_id=request_id)
    assert joined.status_code == 404
    assert joined.json() == {"detail": f"request {request_id!r} not found in chat 'chat-b'"}
    for path in ("references", "reference/1"):
        read = await http.get(f"/api/chat/chat-b/request/{request_id}/{path}")
        assert read.status_code == 404, read.text
    # Chat A still sees exactly its own references, nothing of chat B's.
    own = await http.get(f"/api/chat/chat-a/request/{request_id}/references")
    assert [r["title"] for r in own.json()["references"]] == ["kb: alpha secret"]


@pytest.mark.parametrize("request_id", ["never-made", "chat-a-2", "ref_001"])
async def test_a_request_id_no_search_created_is_refused(
    http: httpx.AsyncClient, request_id: str
) -> None:
    await found(http, query="alpha", chat_id="chat-a")
    response = await post(http, query="beta", chat_id="chat-a", request_id=request_id)
    assert response.status_code == 404
    assert response.json() == {"detail": f"request {request_id!r} not found"}


async def test_continuing_needs_the_chat_that_created_the_request(http: httpx.AsyncClient) -> None:
    first = await found(http, query="alpha", chat_id="chat-a")
    response = await post(http, query="beta", request_id=first["request_id"])
    assert response.status_code == 422
    assert response.json()["detail"][0]["field"] == "chat_id"


async def test_a_chat_named_after_another_chats_request_cannot_continue_it(
    store: SearchStore, http: httpx.AsyncClient
) -> None:
    """A request made elsewhere (an adapter's own request_id in thread t1) is not chat r5's."""
    elsewhere = SearchStore(store.url)  # another process's store: closed with its searcher
    session = SearchSession(Searcher(handlers={"kb": Named()}, store=elsewhere))
    await session.asearch(
        "alpha", SearchOptions(types=["kb"]), run=RunIds(request_id="r5", thread_id="t1")
    )
    await session.searcher.aclose()
    joined = await post(http, query="beta", chat_id="r5", request_id="r5")
    assert joined.status_code == 404
    assert joined.json() == {"detail": "request 'r5' not found in chat 'r5'"}


async def test_the_creating_chat_continues_its_request(http: httpx.AsyncClient) -> None:
    first = await found(http, query="alpha", chat_id="chat-a")
    again = await found(http, query="beta", chat_id="chat-a", request_id=first["request_id"])
    assert [r["id"] for r in again["references"]] == ["ref_002"]


# -- defaults -------------------------------------------------------------------------------


async def test_a_search_without_a_chat_gets_one_that_reads_its_references(
    http: httpx.AsyncClient,
) -> None:
    answers = [await found(http, query=q) for q in ("alpha", "beta")]
    chats = [answer["chat_id"] for answer in answers]
    assert all(chats) and len(set(chats)) == 2  # a new, distinct chat each time
    for answer in answers:
        base = f"/api/chat/{answer['chat_id']}/request/{answer['request_id']}"
        listed = await http.get(f"{base}/references")
        assert listed.status_code == 200
        assert listed.json()["references"] == answer["references"]
        searches = await http.get(f"/api/chat/{answer['chat_id']}/searches")
        assert [s["query"] for s in searches.json()["searches"]] == [
            answer["references"][0]["document_id"]
        ]
    # ... and the chat it was given goes on numbering where it stopped.
    more = await found(http, query="gamma", chat_id=chats[0])
    assert [r["id"] for r in more["references"]] == ["ref_002"]


@pytest.mark.parametrize(
    ("body", "searched"),
    [
        ({"collections": ["help"]}, ["kb"]),
        ({"models": ["products"]}, ["db"]),
        ({"collections": ["help"], "models": ["products"]}, ["kb", "db"]),
    ],
)
async def test_without_types_the_named_sources_are_searched(
    http: httpx.AsyncClient, body: dict[str, Any], searched: list[str]
) -> None:
    """As on the command line (--collection, --model): naming a source's parts searches it."""
    response = await http.post("/api/search", json={"query": "returns", **body})
    assert response.status_code == 200, response.text
    assert sorted(r["type"] for r in response.json()["references"]) == sorted(searched)


# -- honest status --------------------------------------------------------------------------


async def test_a_record_that_was_not_stored_makes_the_answer_partial(tmp_path: Path) -> None:
    """The store loses its tables after opening: the answer comes, saying it was not kept."""
    store = SearchStore(f"sqlite:///{tmp_path / 'lost.sqlite3'}", timeout=0.5, wait=0.5)
    with store.engine.begin() as conn:
        conn.exec_driver_sql(f"DROP TABLE {store.references.name}")
        conn.exec_driver_sql(f"DROP TABLE {store.records.name}")
    searcher = Searcher(handlers={"kb": Named()}, store=store)
    transport = httpx.ASGITransport(app=create_app(searcher, store))
    async with httpx.AsyncClient(transport=transport, base_url="http://localhost") as client:
        answer = await found(client, query="alpha")
    await searcher.aclose()
    store.close()
    assert answer["status"] == "partial"
    assert [r["title"] for r in answer["references"]] == ["kb: alpha"]
    assert answer["errors"] == []
    warnings = answer["warnings"]
    assert {warning["provider"] for warning in warnings} == {"store"}
    assert any("could not store the search record" in w["message"] for w in warnings)
