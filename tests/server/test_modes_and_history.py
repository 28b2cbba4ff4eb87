"""The HTTP API: the ``mode`` field of a search and the list of a chat's stored searches."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from unified_search.contract.handler import SearchContext
from unified_search.engine.searcher import Searcher
from unified_search.records.store import SearchStore
from unified_search.server.app import create_app
from unified_search.types import ResultItem, SearchRequest, SearchResult


class Echo:
    """Answers every query with one item named after it; remembers the queries."""

    def __init__(self) -> None:
        self.queries: list[str] = []

    async def asearch(self, request: SearchRequest, ctx: SearchContext) -> SearchResult:
        self.queries.append(request.query)
        slug = request.query.replace(" ", "-")
        item = ResultItem(type=request.type, title=request.query, document_id=slug, score=0.8)
        return SearchResult(type=request.type, query=request.query, items=[item])


@pytest.fixture
async def api(tmp_path: Path) -> AsyncIterator[tuple[httpx.AsyncClient, Echo]]:
    store = SearchStore(f"sqlite:///{tmp_path / 'records.sqlite3'}")
    echo = Echo()
    searcher = Searcher(handlers={"kb": echo, "db": Echo()}, store=store)
    transport = httpx.ASGITransport(app=create_app(searcher, store))
    async with httpx.AsyncClient(transport=transport, base_url="http://localhost") as http:
        yield http, echo
    await searcher.aclose()


async def post(http: httpx.AsyncClient, **body: Any) -> httpx.Response:
    return await http.post("/api/search", json={"chat_id": "c1", **body})


async def test_answer_mode_over_http(api: tuple[httpx.AsyncClient, Echo]) -> None:
    http, echo = api
    answered = await post(http, query="what is a vector database", types=["kb"], mode="answer")
    assert answered.status_code == 200, answered.text
    assert echo.queries == [
        "what is a vector database",
        "vector database definition",
        "vector database explained",
    ]
    assert "Give the answer first" in answered.json()["prompt"]


async def test_unknown_mode_is_a_422_naming_the_field(api: tuple[httpx.AsyncClient, Echo]) -> None:
    http, _ = api
    refused = await post(http, query="q", types=["kb"], mode="thorough")
    assert refused.status_code == 422
    [problem] = refused.json()["detail"]
    assert problem["field"] == "mode" and "'fast', 'deep', 'answer' or 'auto'" in problem["message"]


async def test_a_chats_searches_by_source(api: tuple[httpx.AsyncClient, Echo]) -> None:
    http, _ = api
    first = (await post(http, query="returns", types=["kb", "db"])).json()["request_id"]
    await http.post("/api/search", json={"query": "elsewhere", "types": ["kb"], "chat_id": "c2"})
    listed = await http.get("/api/chat/c1/searches")
    assert listed.status_code == 200
    assert [(s["request_id"], s["type"]) for s in listed.json()["searches"]] == [
        (first, "kb"),
        (first, "db"),
    ]
    kb_only = await http.get("/api/chat/c1/searches", params={"source": "kb"})
    [record] = kb_only.json()["searches"]
    assert record["type"] == "kb" and record["references"][0]["title"] == "returns"
    by_who = await http.get("/api/chat/c1/searches", params={"source": "user", "limit": 1})
    assert [s["type"] for s in by_who.json()["searches"]] == ["db"]
    assert (await http.get("/api/chat/nobody/searches")).json() == {"searches": []}


@pytest.mark.parametrize(
    ("params", "field"),
    [({"source": "files"}, "source"), ({"limit": "0"}, "limit"), ({"limit": "many"}, "limit")],
)
async def test_bad_filters_are_422(
    api: tuple[httpx.AsyncClient, Echo], params: dict[str, str], field: str
) -> None:
    http, _ = api
    refused = await http.get("/api/chat/c1/searches", params=params)
    assert refused.status_code == 422 and refused.json()["detail"][0]["field"] == field


async def test_stored_searches_carry_their_choices_not_the_whole_configuration(
    api: tuple[httpx.AsyncClient, Echo],
) -> None:
    http, _ = api
    await post(http, query="returns", types=["kb", "db"])
    listed = await http.get("/api/chat/c1/searches")
    searches = listed.json()["searches"]
    assert len(searches) == 2
    assert all(set(s["config"]) == {"uses", "web", "kb", "db", "rerank"} for s in searches)
    assert "domain_tiers" not in listed.text and "max_body_bytes" not in listed.text
    assert len(listed.content) < 4_000  # was 14 KB for two searches with the whole configuration
