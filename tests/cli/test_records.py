"""``unified-search records``: by request, by chat and by source."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

Cli = Callable[..., Any]


def search(cli: Cli, shop_db: str, query: str, chat: str) -> str:
    run = cli(
        "search", query, "--type", "db", "--db", shop_db, "--chat-id", chat, "--format", "json"
    )
    assert run.code == 0, run.err
    request_id: str = json.loads(run.out)["request_id"]
    return request_id


def test_records_by_chat_and_source(cli: Cli, shop_db: str) -> None:
    first = search(cli, shop_db, "monitors", "support-1")
    second = search(cli, shop_db, "keyboards", "support-1")
    other = search(cli, shop_db, "headphones", "support-2")
    run = cli("records", "--chat", "support-1", "--format", "json")
    assert run.code == 0, run.err
    assert [r["request_id"] for r in json.loads(run.out)] == [first, second]
    by_source = cli("records", "--source", "db", "--chat", "support-2", "--format", "json")
    assert [r["request_id"] for r in json.loads(by_source.out)] == [other]
    table = cli("records", "--chat", "support-1")
    assert table.code == 0 and first[:8] in table.out and "References" in table.out
    assert cli("records", "--chat", "support-1", "--source", "web").code == 2


def test_records_needs_something_to_look_for(cli: Cli) -> None:
    run = cli("records")
    assert run.code == 2 and "give a REQUEST_ID, --chat ID, --source SOURCE or --dropped" in run.err
    bad = cli("records", "--source", "files")
    assert bad.code == 2 and "'files' is not one of" in bad.err


async def test_dropped_searches_are_listed_and_counted(cli: Cli, tmp_path: Path) -> None:
    from unified_search.contract.handler import SearchContext
    from unified_search.engine.searcher import Searcher
    from unified_search.records.store import SearchStore
    from unified_search.types import ResultItem, SearchRequest, SearchResult

    class Echo:
        async def asearch(self, request: SearchRequest, ctx: SearchContext) -> SearchResult:
            item = ResultItem(type="kb", title=request.query, document_id="d", collection="c")
            return SearchResult(type="kb", query=request.query, items=[item])

    home = tmp_path / "home"
    home.mkdir()
    store = SearchStore(f"sqlite:///{home / 'search.sqlite3'}")
    table = store.records.name
    with store.engine.begin() as conn:
        conn.exec_driver_sql(
            f"CREATE TRIGGER {table}_refuse BEFORE INSERT ON {table} "
            "WHEN instr(NEW.query, 'poison') > 0 BEGIN SELECT RAISE(ABORT, 'refused'); END"
        )
    searcher = Searcher(handlers={"kb": Echo()}, store=store)
    dropped = await searcher.asearch({"query": "poison", "type": "kb"})
    await searcher.aclose()
    table_run = cli("records", "--dropped")
    assert table_run.code == 0, table_run.err
    assert "Dropped searches: 1 in all" in table_run.out and dropped.request_id in table_run.out
    as_json = json.loads(cli("records", "--dropped", "--format", "json").out)
    assert as_json["dropped_total"] == 1
    [listed] = as_json["dropped"]
    assert listed["request_id"] == dropped.request_id and listed["code"] == "UNKNOWN"
    assert "refused" in listed["message"]
