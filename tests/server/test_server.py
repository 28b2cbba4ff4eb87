"""The HTTP API, in process through ``httpx.ASGITransport`` (no socket)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, ClassVar

import httpx
import pytest

from unified_search.contract.handler import SearchContext
from unified_search.engine.searcher import Searcher
from unified_search.errors import ErrorCode, SearchError
from unified_search.records.store import SearchStore
from unified_search.samples.shop import build_shop_database
from unified_search.server.app import SearchBody, create_app
from unified_search.types import ResultItem, SearchRequest, SearchResult


class Shelf:
    """A tiny knowledge base: one item per word of the query that it knows."""

    facts: ClassVar[dict[str, str]] = {
        "returns": "Returns are accepted within 30 days.",
        "shipping": "Standard shipping takes 3-5 working days.",
    }

    async def asearch(self, request: SearchRequest, ctx: SearchContext) -> SearchResult:
        items = [
            ResultItem(
                type="kb", title=word, content=text, document_id=word, collection="help", score=0.9
            )
            for word, text in self.facts.items()
            if word in request.query
        ]
        return SearchResult(type="kb", query=request.query, items=items)


class Broken:
    async def asearch(self, request: SearchRequest, ctx: SearchContext) -> SearchResult:
        raise SearchError(ErrorCode.NETWORK_ERROR, "database unreachable", provider="db")


@pytest.fixture
async def client(tmp_path: Path) -> AsyncIterator[httpx.AsyncClient]:
    store = SearchStore(f"sqlite:///{tmp_path / 'records.sqlite3'}")
    searcher = Searcher(handlers={"kb": Shelf(), "db": Broken()}, store=store)
    transport = httpx.ASGITransport(app=create_app(searcher, store))
    async with httpx.AsyncClient(transport=transport, base_url="http://localhost") as http:
        yield http
    await searcher.aclose()


async def search(client: httpx.AsyncClient, **body: Any) -> dict[str, Any]:
    response = await client.post("/api/search", json={"types": ["kb"], "chat_id": "c1", **body})
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


async def test_search_returns_cited_references_xml_and_prompt(client: httpx.AsyncClient) -> None:
    found = await search(client, query="returns and shipping")
    assert found["status"] == "ok"
    assert [r["id"] for r in found["references"]] == ["ref_001", "ref_002"]
    assert {r["title"] for r in found["references"]} == {"returns", "shipping"}
    assert '<ref id="ref_001"' in found["xml"]
    assert "#ref:" in found["prompt"]
    assert found["errors"] == [] and found["chat_id"] == "c1"


async def test_citation_click_through_from_the_store(client: httpx.AsyncClient) -> None:
    found = await search(client, query="returns and shipping")
    base = f"/api/chat/c1/request/{found['request_id']}"
    listed = await client.get(f"{base}/references")
    assert listed.status_code == 200
    assert listed.json()["references"] == found["references"]
    one = await client.get(f"{base}/reference/2")
    assert one.status_code == 200
    assert one.json() == found["references"][1]


async def test_continuing_a_request_numbers_citations_on(client: httpx.AsyncClient) -> None:
    first = await search(client, query="returns")
    second = await search(client, query="shipping", request_id=first["request_id"])
    assert [r["id"] for r in second["references"]] == ["ref_002"]
    listed = await client.get(f"/api/chat/c1/request/{first['request_id']}/references")
    assert [r["id"] for r in listed.json()["references"]] == ["ref_001", "ref_002"]


async def test_404s_say_what_was_not_found(client: httpx.AsyncClient) -> None:
    found = await search(client, query="returns")
    request_id = found["request_id"]
    missing_request = await client.get("/api/chat/c1/request/nope/references")
    assert missing_request.status_code == 404
    assert missing_request.json() == {"detail": "request 'nope' not found"}
    other_chat = await client.get(f"/api/chat/c2/request/{request_id}/reference/1")
    assert other_chat.status_code == 404
    assert other_chat.json() == {"detail": f"request {request_id!r} not found in chat 'c2'"}
    missing_ref = await client.get(f"/api/chat/c1/request/{request_id}/reference/9")
    assert missing_ref.status_code == 404
    assert missing_ref.json() == {"detail": f"reference 9 not found in request {request_id!r}"}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"types": ["kb"]}, "query"),
        ({"query": ""}, "query"),
        ({"query": "q", "types": ["files"]}, "types.0"),
        ({"query": "q", "types": []}, "types"),
        ({"query": "q", "top_n": 0}, "top_n"),
        ({"query": "q", "colections": ["help"]}, "colections"),
    ],
)
async def test_bad_search_bodies_are_422_naming_the_field(
    client: httpx.AsyncClient, body: dict[str, Any], field: str
) -> None:
    response = await client.post("/api/search", json=body)
    assert response.status_code == 422
    assert field in [problem["field"] for problem in response.json()["detail"]]


async def test_a_body_that_is_not_json_is_422(client: httpx.AsyncClient) -> None:
    response = await client.post(
        "/api/search", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert response.status_code == 422
    assert response.json()["detail"][0]["field"] == "body"


async def test_a_bad_reference_index_is_422(client: httpx.AsyncClient) -> None:
    for index in ("abc", "0"):
        response = await client.get(f"/api/chat/c1/request/r/reference/{index}")
        assert response.status_code == 422
        assert response.json()["detail"][0]["field"] == "index"


async def test_a_failed_source_is_reported_not_raised(client: httpx.AsyncClient) -> None:
    found = await search(client, query="returns", types=["kb", "db"])
    assert found["status"] == "partial"
    assert [r["title"] for r in found["references"]] == ["returns"]
    assert found["errors"] == [
        {
            "code": "NETWORK_ERROR",
            "message": "database unreachable",
            "provider": "db",
            "retryable": True,
        }
    ]


async def test_an_invalid_query_is_422(client: httpx.AsyncClient) -> None:
    response = await client.post("/api/search", json={"query": "   ", "types": ["kb"]})
    assert response.status_code == 422
    assert response.json()["detail"][0]["field"] == "query"


async def test_wrong_method_is_405(client: httpx.AsyncClient) -> None:
    assert (await client.get("/api/search")).status_code == 405


def test_body_defaults() -> None:
    body = SearchBody(query="q")
    assert body.types is None and body.top_n is None and body.collections == []


async def test_searches_of_one_chat_share_its_numbering_and_resolve(
    client: httpx.AsyncClient,
) -> None:
    """Without a request_id the chat is the scope: IDs go on and every one resolves."""
    first = await search(client, query="returns", chat_id="c9")
    second = await search(client, query="shipping", chat_id="c9")
    assert first["request_id"] == second["request_id"] == "c9"
    assert [r["id"] for r in first["references"] + second["references"]] == [
        "ref_001",
        "ref_002",
    ]
    for index, ref in enumerate(first["references"] + second["references"], start=1):
        shown = await client.get(f"/api/chat/c9/request/c9/reference/{index}")
        assert shown.status_code == 200 and shown.json() == ref


async def test_every_source_failing_is_502_with_the_code(client: httpx.AsyncClient) -> None:
    response = await client.post("/api/search", json={"query": "orders", "types": ["db"]})
    assert response.status_code == 502
    assert response.json() == {
        "detail": "NETWORK_ERROR [db]: database unreachable",
        "code": "NETWORK_ERROR",
    }


@pytest.mark.parametrize("value", ["x" * 256, "line\nbreak", "tab\there"])
async def test_a_bad_request_id_is_422_naming_it(client: httpx.AsyncClient, value: str) -> None:
    body = {"query": "returns", "types": ["kb"], "request_id": value}
    response = await client.post("/api/search", json=body)
    assert response.status_code == 422
    assert response.json()["detail"][0]["field"] == "request_id"


async def test_database_answers_say_how_the_question_was_understood(tmp_path: Path) -> None:
    """Answered or refused, a database question comes back with its "understood as" line."""
    shop = build_shop_database(tmp_path / "shop.db")
    store = SearchStore(f"sqlite:///{tmp_path / 'records.sqlite3'}")
    searcher = Searcher({"db": {"url": f"sqlite:///{shop}"}}, store=store)
    transport = httpx.ASGITransport(app=create_app(searcher, store))
    async with httpx.AsyncClient(transport=transport, base_url="http://localhost") as http:
        answered = await search(http, query="products under $50", types=["db"])
        refused = await http.post(
            "/api/search", json={"query": "products of wobbly zorblax", "types": ["db"]}
        )
    await searcher.aclose()
    [understood] = answered["understood"]
    assert understood["line"] == "understood as: products where price < 50"
    assert understood["generator"] == "builtin" and answered["references"]
    # The only source refused: the 422 names the words it could not read and what it read.
    assert refused.status_code == 422 and refused.json()["code"] == "INVALID_QUERY"
    assert "(understood as: products; not understood: wobbly, zorblax)" in refused.json()["detail"]
