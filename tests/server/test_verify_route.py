"""``POST /api/verify``: an answer's citations checked over HTTP, against given or stored references."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, ClassVar

import httpx
import pytest

from unified_search.contract.handler import SearchContext
from unified_search.engine.searcher import Searcher
from unified_search.records.store import SearchStore
from unified_search.server.app import create_app
from unified_search.types import ResultItem, SearchRequest, SearchResult

GLACIERS = "Glaciers in the Alps lost a tenth of their remaining ice volume in the summer of 2022."


class Shelf:
    facts: ClassVar[dict[str, str]] = {
        "returns": "Returns are accepted within 30 days of delivery with the receipt.",
        "shipping": "Standard shipping takes 3-5 working days within the country.",
    }

    async def asearch(self, request: SearchRequest, ctx: SearchContext) -> SearchResult:
        items = [
            ResultItem(type="kb", title=w, content=t, document_id=w, collection="help", score=0.9)
            for w, t in self.facts.items()
            if w in request.query
        ]
        return SearchResult(type="kb", query=request.query, items=items)


@pytest.fixture
async def setup(tmp_path: Path) -> AsyncIterator[tuple[httpx.AsyncClient, SearchStore]]:
    store = SearchStore(f"sqlite:///{tmp_path / 'records.sqlite3'}")
    searcher = Searcher(handlers={"kb": Shelf()}, store=store)
    transport = httpx.ASGITransport(app=create_app(searcher, store))
    async with httpx.AsyncClient(transport=transport, base_url="http://localhost") as http:
        yield http, store
    await searcher.aclose()


def reference(content: str) -> dict[str, Any]:
    return {
        "id": "ref_001",
        "index": 1,
        "type": "web",
        "source": "auto",
        "weight": 0.6,
        "score": 1.0,
        "content": content,
    }


async def test_an_answer_is_checked_against_the_references_given(setup: Any) -> None:
    client, _ = setup
    answer = (
        "Alpine glaciers lost a tenth of their ice in 2022 #ref:ref_001. Cats purr #ref:ref_002."
    )
    response = await client.post(
        "/api/verify", json={"answer": answer, "references": [reference(GLACIERS)]}
    )
    assert response.status_code == 200, response.text
    report = response.json()
    assert [s["verdict"] for s in report["sentences"]] == ["supported", "unknown_id"]
    span = report["sentences"][0]["span"]
    assert GLACIERS[span["start"] : span["end"]] == span["text"]


async def test_an_answer_is_checked_against_a_stored_search_and_the_check_is_kept(
    setup: Any,
) -> None:
    client, store = setup
    found = await client.post(
        "/api/search", json={"query": "returns and shipping", "types": ["kb"], "chat_id": "c1"}
    )
    request_id = found.json()["request_id"]
    answer = (
        "Returns are accepted within 30 days #ref:ref_001. Shipping is free worldwide #ref:ref_001."
    )
    response = await client.post(
        "/api/verify", json={"answer": answer, "chat_id": "c1", "request_id": request_id}
    )
    assert response.status_code == 200, response.text
    verdicts = [s["verdict"] for s in response.json()["sentences"]]
    assert verdicts == ["supported", "unsupported"]
    [kept] = await store.aget_checks(request_id)
    assert kept.chat_id == "c1" and kept.flagged == 1


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "answer"),
        ({"answer": 3}, "answer"),
        ({"answer": "x", "references": [{"id": "ref_001"}]}, "references.0.index"),
        ({"answer": "x", "request_id": "r1"}, "body"),
        (
            {"answer": "x", "references": [reference("y")], "chat_id": "c", "request_id": "r"},
            "body",
        ),
        ({"answer": "x", "extra": 1}, "extra"),
    ],
)
async def test_bad_bodies_are_422_naming_the_field(
    setup: Any, body: dict[str, Any], field: str
) -> None:
    client, _ = setup
    response = await client.post("/api/verify", json=body)
    assert response.status_code == 422
    assert any(p["field"] == field for p in response.json()["detail"])


async def test_a_request_of_another_chat_is_not_found(setup: Any) -> None:
    client, _ = setup
    found = await client.post(
        "/api/search", json={"query": "returns", "types": ["kb"], "chat_id": "c1"}
    )
    request_id = found.json()["request_id"]
    response = await client.post(
        "/api/verify", json={"answer": "x", "chat_id": "c2", "request_id": request_id}
    )
    assert response.status_code == 404


async def test_a_huge_answer_is_refused_by_size_or_checked_within_the_cap(tmp_path: Path) -> None:
    answer = ("Alpine glaciers lost a tenth of their ice #ref:ref_001. " * 2000)[:100_000]
    body = {"answer": answer, "references": [reference(GLACIERS)]}
    store = SearchStore(f"sqlite:///{tmp_path / 'records.sqlite3'}")
    for limit, status in ((None, 413), (1_000_000, 200)):
        config = {"server": {"max_body_bytes": limit}} if limit else None
        searcher = Searcher(config, handlers={"kb": Shelf()}, store=store)
        transport = httpx.ASGITransport(app=create_app(searcher, store))
        async with httpx.AsyncClient(transport=transport, base_url="http://localhost") as client:
            response = await client.post("/api/verify", json=body)
        assert response.status_code == status, response.text
    report = response.json()
    assert len(report["sentences"]) == 200 and "max_sentences" in report["limit"]
    store.close()


class PagedShelf:
    async def asearch(self, request: SearchRequest, ctx: SearchContext) -> SearchResult:
        meta = {"start": 120, "end": 180, "page": 3, "page_end": 4, "page_breaks": "41"}
        item = ResultItem(
            type="kb", content=GLACIERS, document_id="report.pdf", collection="c", metadata=meta
        )
        return SearchResult(type="kb", query=request.query, items=[item])


async def test_the_click_through_returns_the_span_and_pages(tmp_path: Path) -> None:
    store = SearchStore(f"sqlite:///{tmp_path / 'records.sqlite3'}")
    searcher = Searcher(handlers={"kb": PagedShelf()}, store=store)
    transport = httpx.ASGITransport(app=create_app(searcher, store))
    async with httpx.AsyncClient(transport=transport, base_url="http://localhost") as client:
        found = await client.post(
            "/api/search", json={"query": "ice", "types": ["kb"], "chat_id": "c1"}
        )
        assert 'page="3-4"' in found.json()["xml"]
        request_id = found.json()["request_id"]
        one = await client.get(f"/api/chat/c1/request/{request_id}/reference/1")
    await searcher.aclose()
    meta = one.json()["metadata"]
    assert (meta["start"], meta["end"], meta["page"], meta["page_end"]) == (120, 180, 3, 4)
