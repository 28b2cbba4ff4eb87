"""Attached rows, documents and MCP resources: references of their own, recorded and counted."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError

from unified_search.contract.handler import SearchContext
from unified_search.engine.attachments import DataSource, DBRow, KBDocument, MCPResource
from unified_search.engine.searcher import Searcher
from unified_search.errors import ErrorCode
from unified_search.policy.session import SearchOptions, SearchSession
from unified_search.records.store import SearchStore
from unified_search.types import ResultItem, SearchRequest, SearchResult

MCP_SERVER = Path(__file__).parents[1] / "mcp" / "search_server.py"


class Orders:
    """A database source that finds order 42 (the row the user attached) and order 7."""

    def __init__(self, delay: float = 0.0) -> None:
        self.delay = delay
        self.asked: list[SearchRequest] = []

    async def asearch(self, request: SearchRequest, ctx: SearchContext) -> SearchResult:
        self.asked.append(request)
        await asyncio.sleep(self.delay)
        items = [
            ResultItem(type="db", title=f"order {n}", model="orders", record_id=str(n), score=0.9)
            for n in (42, 7)
        ]
        return SearchResult(type="db", query=request.query, items=items)


ROW = DBRow(model="orders", record_id="42", data={"status": "late", "total": 99.5})
DOC = KBDocument(
    title="Returns", content="Returns within 30 days.", collection="help", document_id="returns"
)


async def test_attachments_are_cited_first_and_recorded() -> None:
    store = SearchStore("sqlite:///:memory:")
    async with Searcher(handlers={"db": Orders()}, store=store) as searcher:
        response = await searcher.asearch(
            {"query": "why is my order late?", "type": "db"}, attachments=[ROW, DOC], chat_id="c1"
        )
        stored = store.find_searches(chat_id="c1", source="user")
    titles = [(ref.id, ref.title, ref.source.value, ref.weight) for ref in response.references]
    assert titles[:2] == [
        ("ref_001", "orders 42", "user", 1.0),
        ("ref_002", "Returns", "user", 1.0),
    ]
    assert [ref.title for ref in response.references] == ["orders 42", "Returns", "order 7"]
    row = response.references[0]
    assert (
        row.data == {"status": "late", "total": 99.5} and row.content == "status: late\ntotal: 99.5"
    )
    assert len(response.results) == 3 and response.status == "ok"
    assert {r.type.value for r in stored} == {"db", "kb"}
    assert sorted(ref.id for r in stored for ref in r.references) == [
        "ref_001",
        "ref_002",
        "ref_003",
    ]


async def test_attachments_count_toward_the_skip_threshold() -> None:
    orders = Orders()
    async with Searcher({"options": {"skip_threshold": 2}}, handlers={"db": orders}) as searcher:
        response = await searcher.asearch(
            {"query": "late orders", "type": "db", "source": "auto"}, attachments=[ROW, DOC]
        )
    assert orders.asked == [] and [r.title for r in response.references] == ["orders 42", "Returns"]


async def test_attachments_never_end_an_any_or_race_wait() -> None:
    orders = Orders(delay=0.05)
    async with Searcher(handlers={"db": orders}) as searcher:
        for mode in ("any", "race"):
            response = await searcher.arun(
                [{"query": "late orders", "type": "db"}], mode=mode, attachments=[DOC]
            )
            assert {r.title for r in response.references} == {"Returns", "order 42", "order 7"}


async def test_an_mcp_resource_is_read_and_cited() -> None:
    server = {"command": sys.executable, "args": [str(MCP_SERVER)], "timeout": 60}
    resource = MCPResource(server="notes", uri="notes://fridays")
    async with Searcher({"mcp": {"notes": server}}, handlers={"db": Orders()}) as searcher:
        session = SearchSession(searcher)
        response = await session.asearch(
            "when does the office close?", SearchOptions(types=["db"], attachments=[resource])
        )
    first = response.references[0]
    assert first.id == "ref_001" and first.title == "notes://fridays"
    assert first.content == "Note fridays: the office closes at 6 pm on Fridays."
    assert first.collection == "mcp:notes" and first.metadata["uri"] == "notes://fridays"


async def test_an_unreadable_resource_fails_alone() -> None:
    resource = MCPResource(server="missing", uri="notes://x")
    async with Searcher(handlers={"db": Orders()}) as searcher:
        response = await searcher.asearch(
            {"query": "late orders", "type": "db"}, attachments=[resource]
        )
    failed = response.results[0]  # attachments come first
    assert failed is not None and failed.error is not None
    assert failed.error.code is ErrorCode.UNSUPPORTED and "missing" in failed.error.message
    assert response.status == "partial"
    assert [r.title for r in response.references] == [
        "order 42",
        "order 7",
    ]


@pytest.mark.parametrize(
    "bad",
    [
        {"type": "db_row", "model": "orders"},  # no data
        {"type": "kb_document", "content": ""},
        {"type": "mcp_resource", "server": "notes"},  # no uri
        {"type": "pdf", "content": "x"},
        {"type": "db_row", "model": "o", "data": {}, "score": 5},  # unknown field
    ],
)
def test_bad_attachments_fail_naming_the_field(bad: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        TypeAdapter(DataSource).validate_python(bad)
    with pytest.raises(ValidationError, match="attachments"):
        SearchOptions(attachments=[bad])  # type: ignore[list-item]


def test_attachments_arrive_as_plain_dicts_too() -> None:
    options = SearchOptions(attachments=[{"type": "kb_document", "content": "x", "title": "t"}])  # type: ignore[list-item]
    assert isinstance(options.attachments[0], KBDocument)
