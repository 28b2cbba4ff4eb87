"""``GET /api/store``: what the record store's writes are doing, read by the operator."""

from __future__ import annotations

from pathlib import Path

import httpx

from unified_search.contract.handler import SearchContext
from unified_search.engine.searcher import Searcher
from unified_search.records.store import SearchStore
from unified_search.server.app import create_app
from unified_search.types import ResultItem, SearchRequest, SearchResult


class Echo:
    async def asearch(self, request: SearchRequest, ctx: SearchContext) -> SearchResult:
        item = ResultItem(type="kb", title=request.query, document_id="d", collection="c")
        return SearchResult(type="kb", query=request.query, items=[item])


async def test_the_store_status_counts_dropped_searches_and_names_failures(
    tmp_path: Path,
) -> None:
    store = SearchStore(f"sqlite:///{tmp_path / 'records.sqlite3'}", wait=0.5)
    table = store.records.name
    with store.engine.begin() as conn:
        conn.exec_driver_sql(
            f"CREATE TRIGGER {table}_refuse BEFORE INSERT ON {table} "
            "WHEN instr(NEW.query, 'poison') > 0 BEGIN SELECT RAISE(ABORT, 'refused'); END"
        )
    searcher = Searcher(handlers={"kb": Echo()}, store=store)
    transport = httpx.ASGITransport(app=create_app(searcher, store))
    async with httpx.AsyncClient(transport=transport, base_url="http://localhost") as http:
        healthy = (await http.get("/api/store")).json()
        body = {"query": "poison", "types": ["kb"], "chat_id": "c1"}
        poisoned = (await http.post("/api/search", json=body)).json()
        assert poisoned["status"] == "partial"
        after = (await http.get("/api/store")).json()
    await searcher.aclose()
    assert healthy == {
        "queued": 0, "dropped": 0, "dropped_total": 0, "problem": None, "code": None
    }  # fmt: skip
    assert (after["dropped"], after["dropped_total"]) == (1, 1)
