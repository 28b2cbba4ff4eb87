"""One exit-code rule and one length rule, whichever sources a question goes to."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from unified_search.types import MAX_QUERY_CHARS, SearchRequest, SearchType

Cli = Callable[..., Any]
LONG = "how many " + "very " * 1200 + "cheap headphones"


def test_a_question_the_only_source_refuses_is_bad_input(cli: Cli, shop_db: str) -> None:
    run = cli("search", "zorblax quux", "--type", "db", "--db", shop_db, "--model", "products")
    assert run.code == 2, run.err
    assert "refused" in run.out and "INVALID_QUERY" in run.out
    assert "every source refused the input" in run.out
    assert "every source failed" not in run.out


def test_a_source_refusing_while_another_answers_is_no_failure(
    cli: Cli, shop_db: str, searx: Any
) -> None:
    run = cli(
        "search", "how do I return opened earbuds?", "--type", "web,db", "--db", shop_db,
        "--model", "products", "--format", "json", env={"SEARXNG_URL": searx.url},
    )  # fmt: skip
    assert run.code == 0, run.err
    response = json.loads(run.out)
    assert response["references"] and [e["code"] for e in response["errors"]] == ["INVALID_QUERY"]


def test_a_failing_source_is_a_partial_failure(cli: Cli, shop_db: str) -> None:
    env = {"SEARXNG_URL": "http://127.0.0.1:9"}  # nothing listens on the discard port
    run = cli("search", "headphones", "--type", "web,db", "--db", shop_db, "--model", "products",
              "--config", "/dev/null", env=env)  # fmt: skip
    assert run.code == 1, run.err
    assert "failed" in run.out and "NETWORK_ERROR" in run.out


@pytest.mark.parametrize("kind", ["web", "kb", "db"])
def test_an_overlong_question_is_refused_the_same_way_by_every_source(
    cli: Cli, shop_db: str, kind: str
) -> None:
    run = cli("search", LONG, "--type", kind, "--db", shop_db, "--collection", "help",
              env={"SEARXNG_URL": "http://127.0.0.1:9"})  # fmt: skip
    assert run.code == 2
    expected = f"the query has {len(LONG)} characters; at most {MAX_QUERY_CHARS} are read"
    assert expected in run.err and len(run.err.strip().splitlines()) == 1


@pytest.mark.parametrize("kind", list(SearchType))
def test_every_source_reads_the_same_longest_query(kind: SearchType) -> None:
    assert SearchRequest(query="x" * MAX_QUERY_CHARS, type=kind).query
    with pytest.raises(ValueError, match=f"at most {MAX_QUERY_CHARS} are read"):
        SearchRequest(query="x" * (MAX_QUERY_CHARS + 1), type=kind)


def test_a_sqlite_file_path_is_a_database(cli: Cli, shop_db: str) -> None:
    path = shop_db.removeprefix("sqlite:///")
    run = cli("search", "monitors", "--db", path, "--model", "products", "--format", "json")
    assert run.code == 0, run.err
    assert json.loads(run.out)["references"]
