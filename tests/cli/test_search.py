"""``search``, ``deep`` and ``records`` over the sample shop database, and their exit codes."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

Cli = Callable[..., Any]


def test_search_json_is_recorded_and_records_shows_it(cli: Cli, shop_db: str) -> None:
    run = cli(
        "search",
        "wireless headphones under $100",
        "--type",
        "db",
        "--db",
        shop_db,
        "--model",
        "products",
        "--chat-id",
        "chat-7",
        "--format",
        "json",
    )
    assert run.code == 0, run.err
    response = json.loads(run.out)
    assert response["status"] == "ok"
    assert response["chat_id"] == "chat-7"
    titles = [ref["title"] for ref in response["references"]]
    assert titles == ["Aurora Wireless Headphones"]  # the only wireless headphones under $100
    assert response["references"][0]["id"] == "ref_001"
    assert '<ref id="ref_001" type="db"' in response["xml"]
    assert [row["source"] for row in response["trace"]] == ["db"]

    shown = cli("records", response["request_id"])
    assert shown.code == 0, shown.err
    assert "wireless headphones under $100" in shown.out
    assert "Aurora Wireless Headphones" in shown.out
    assert "chat-7" in shown.out
    stored = json.loads(cli("records", response["request_id"], "--format", "json").out)
    assert stored[0]["references"][0]["record_id"] == response["references"][0]["record_id"]


def test_search_formats(cli: Cli, shop_db: str) -> None:
    args = ("search", "monitor", "--type", "db", "--db", shop_db, "--model", "products")
    xml = cli(*args, "--format", "xml")
    assert xml.code == 0, xml.err
    assert xml.out.startswith("<references>") and "Vista 27 Monitor" in xml.out
    markdown = cli(*args, "--format", "markdown", "--top-n", "1")
    assert markdown.out.startswith("1. **[ref_001] ")
    assert markdown.out.count("**[ref_") == 1
    table = cli(*args)
    assert "References" in table.out and "Trace" in table.out and "status: ok" in table.out


def test_deep_search_over_the_database(cli: Cli, shop_db: str) -> None:
    run = cli(
        "deep",
        "monitors",
        "--type",
        "db",
        "--db",
        shop_db,
        "--model",
        "products",
        "--format",
        "json",
    )
    assert run.code == 0, run.err
    response = json.loads(run.out)
    titles = {ref["title"] for ref in response["references"]}
    assert {"Vista 27 Monitor", "Vista 24 Monitor"} <= titles
    queries = [row["query"] for row in response["trace"]]
    # A database reads questions about its rows, not expansion's sub-queries ("monitors
    # ecosystem"): it gets the question asked.
    assert queries == ["monitors"]
    table = cli("deep", "monitors", "--type", "db", "--db", shop_db, "--model", "products")
    assert "intent: " in table.out and "sub-queries: monitors; " in table.out


def test_deep_labels_the_intent_and_orders_the_scores(cli: Cli, shop_db: str) -> None:
    args = ("--type", "db", "--db", shop_db, "--model", "products")
    compared = cli("deep", "compare the Aurora and Studio Pro headphones", *args)
    assert "intent: comparison" in compared.out, compared.out
    listed = cli("deep", "latest headphones", *args)
    assert "intent: status" in listed.out
    rows = [line.split("│") for line in listed.out.splitlines() if "│ ref_0" in line]
    scores = [float(row[5]) for row in rows]
    assert len(scores) >= 2 and scores == sorted(scores, reverse=True)


def test_partial_failure_exits_1_and_shows_the_failed_source(
    cli: Cli, shop_db: str, tmp_path: Path
) -> None:
    config = tmp_path / "search.yml"
    config.write_text("web:\n  retries: 0\n  timeout: 2\n")
    env = {"SEARXNG_URL": "http://127.0.0.1:9"}  # nothing listens on the discard port
    run = cli(
        "search",
        "headphones",
        "--type",
        "web,db",
        "--db",
        shop_db,
        "--model",
        "products",
        "--config",
        str(config),
        env=env,
    )
    assert run.code == 1, run.err
    assert "failed" in run.out and "NETWORK_ERROR" in run.out
    assert "Aurora Wireless Headphones" in run.out  # the database still answered
    assert "status: partial" in run.out


def test_unreachable_database_url_is_bad_input(cli: Cli) -> None:
    run = cli(
        "search",
        "headphones",
        "--type",
        "db",
        "--db",
        "postgresql+psycopg://nobody@127.0.0.1:9/shop",
    )
    assert run.code == 2
    [line] = run.err.strip().splitlines()
    assert line.startswith("unified-search: error: cannot connect to postgresql+psycopg://nobody@")


def test_bad_types_and_missing_sources_are_bad_input(cli: Cli) -> None:
    bogus = cli("search", "x", "--type", "kb,files")
    assert bogus.code == 2 and "files is not one of web, kb, db" in bogus.err
    web = cli("search", "x", "--type", "web")
    assert web.code == 2 and "no web provider configured" in web.err and "TAVILY_API_KEY" in web.err
    empty = cli("search", "x", "--type", "kb")
    assert empty.code == 2 and "the knowledge base is empty" in empty.err
    nothing = cli("search", "x")
    assert nothing.code == 2 and "nothing to search: pass --collection NAME" in nothing.err
    no_db = cli("search", "x", "--type", "db")
    assert no_db.code == 2 and "pass --db URL or set db.url" in no_db.err


def test_unknown_reranker_is_bad_input(cli: Cli, shop_db: str) -> None:
    run = cli("search", "monitor", "--type", "db", "--db", shop_db, "--rerank", "nonsense")
    assert run.code == 2
    assert "'uses.rerank': unknown value 'nonsense'; valid: builtin, cohere" in run.err
    assert len(run.err.strip().splitlines()) == 1


def test_records_of_an_unknown_request_is_bad_input(cli: Cli) -> None:
    run = cli("records", "no-such-request")
    assert run.code == 2
    assert run.err.strip() == (
        "unified-search: error: no stored search has request id 'no-such-request'"
    )
