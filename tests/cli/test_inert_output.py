"""What the command line shows of stored text is inert: never markup, controls shown as escapes."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from unified_search.errors import ErrorCode, ErrorInfo
from unified_search.records.store import SearchRecord, SearchStore
from unified_search.types import Reference

Cli = Callable[..., Any]

#: Rich markup that does not parse, a screen clear, an OSC-8 link, a C1 CSI and a bidi override.
PLANTED = (
    "keys [/bold] [link=http://evil.example]x[/link] \x1b[2J"
    "\x1b]8;;http://evil.example\x07click\x1b]8;;\x07 \x9b31m \u202eevil"
)
#: Raw characters a terminal would act on: none may reach it.
ACTIVE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def plant(home: Path) -> None:
    """Two stored searches of source kb: a planted one (as an older writer stored it), a plain one."""
    home.mkdir(parents=True, exist_ok=True)
    reference = Reference(
        id="ref_001",
        index=1,
        type="kb",
        source="user",
        weight=1.0,
        score=0.5,
        title=PLANTED,
        content=PLANTED,
        document_id=PLANTED,
        collection="help",
    )
    error = ErrorInfo(code=ErrorCode.UNKNOWN, message=PLANTED, provider="kb")
    with SearchStore(f"sqlite:///{home / 'search.sqlite3'}") as store:
        store.save(
            [
                SearchRecord(
                    request_id="planted",
                    chat_id="c\x1b[2J",
                    query=PLANTED,
                    type="kb",
                    references=[reference],
                    error=error,
                ),
                SearchRecord(request_id="plain", chat_id="c2", query="battery life", type="kb"),
            ]
        )


def inert(out: str) -> None:
    assert ACTIVE.search(out) is None, repr(ACTIVE.search(out))
    assert "[/bold]" in out and "\\x1b[2J" in out and "\\u202eevil" in out


def test_a_planted_record_shows_as_text_beside_the_others(cli: Cli, tmp_path: Path) -> None:
    plant(tmp_path / "home")
    one = cli("records", "planted")
    assert one.code == 0, one.err
    inert(one.out)
    by_source = cli("records", "--source", "kb")
    assert by_source.code == 0, by_source.err
    inert(by_source.out)
    assert "battery life" in by_source.out  # one planted record hides nothing


def test_records_as_json_are_exact_and_inert(cli: Cli, tmp_path: Path) -> None:
    plant(tmp_path / "home")
    run = cli("records", "planted", "--format", "json")
    assert run.code == 0, run.err
    assert ACTIVE.search(run.out) is None
    [record] = json.loads(run.out)
    assert record["query"] == record["references"][0]["content"] == PLANTED
    assert record["error"]["message"] == PLANTED and record["chat_id"] == "c\x1b[2J"


def test_a_query_with_controls_is_searched_stored_and_shown_escaped(cli: Cli, shop_db: str) -> None:
    query = "headphones \x1b[2J [/bold]"
    run = cli("search", query, "--type", "db", "--db", shop_db, "--chat-id", "inert")
    assert run.code in (0, 2), run.err  # searched; the database may refuse the words it cannot read
    assert "request id: inert" in run.out
    assert ACTIVE.search(run.out) is None and "\\x1b[2J [/bold]" in run.out
    stored = cli("records", "--chat", "inert", "--format", "json")
    assert [r["query"] for r in json.loads(stored.out)] == ["headphones \\x1b[2J [/bold]"]


def test_invisible_queries_are_refused_and_fullwidth_ones_normalised(
    cli: Cli, shop_db: str
) -> None:
    refused = cli("search", "\u200b\ufeff", "--type", "db", "--db", shop_db)
    assert refused.code == 2
    assert "query: Value error, query must contain text (a visible character)" in refused.err
    found = {}
    for query in ("headphones", "ｈｅａｄｐｈｏｎｅｓ"):
        run = cli("search", query, "--type", "db", "--db", shop_db, "--format", "json")
        assert run.code == 0, run.err
        found[query] = [r["title"] for r in json.loads(run.out)["references"]]
    assert found["ｈｅａｄｐｈｏｎｅｓ"] == found["headphones"] != []


def test_file_names_and_titles_are_inert_in_index_and_kb_list(cli: Cli, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "evil\x1b[2J[bold].md").write_text(f"# {PLANTED}\n\nBody text.\n")
    (docs / "plain.md").write_text("# Plain\n\nAnother body.\n")
    indexed = cli("index", str(docs), "--collection", "inert", "-q")
    assert indexed.code == 0, indexed.err
    listed = cli("kb", "list", "inert")
    assert listed.code == 0, listed.err
    assert ACTIVE.search(listed.out) is None
    assert "evil\\x1b[2J[bold].md" in listed.out and "[/bold]" in listed.out
    assert "Plain" in listed.out
