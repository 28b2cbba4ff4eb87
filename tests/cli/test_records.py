"""``unified-search records``: by request, by chat and by source."""

from __future__ import annotations

import json
from collections.abc import Callable
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
    assert run.code == 2 and "give a REQUEST_ID, --chat ID or --source SOURCE" in run.err
    bad = cli("records", "--source", "files")
    assert bad.code == 2 and "'files' is not one of" in bad.err
