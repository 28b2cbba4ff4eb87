"""``unified-search search --mode``: fast, deep and answer from the command line."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

Cli = Callable[..., Any]


def test_answer_mode_prints_the_answer_instructions(cli: Cli, shop_db: str) -> None:
    run = cli(
        "search",
        "monitors",
        "--type",
        "db",
        "--db",
        shop_db,
        "--model",
        "products",
        "--mode",
        "answer",
    )
    assert run.code == 0, run.err
    assert "intent:" in run.out and "sub-queries:" in run.out
    assert "Answer the question 'monitors' from the references." in run.out
    assert "Give the answer first" in run.out


def test_fast_mode_searches_the_query_as_typed(cli: Cli, shop_db: str) -> None:
    run = cli(
        "search",
        "monitors",
        "--type",
        "db",
        "--db",
        shop_db,
        "--model",
        "products",
        "--mode",
        "fast",
        "--format",
        "json",
    )
    assert run.code == 0, run.err
    response = json.loads(run.out)
    assert [row["query"] for row in response["trace"]] == ["monitors"]
    assert "Answer the question" not in response["prompt"]


def test_unknown_mode_is_bad_input(cli: Cli) -> None:
    run = cli("search", "monitors", "--mode", "thorough")
    assert run.code == 2
    assert "'thorough' is not one of 'fast', 'deep', 'answer'" in run.err


def test_web_without_provider_names_the_variables_to_set(cli: Cli) -> None:
    run = cli("search", "monitors", "--type", "web")
    assert run.code == 2
    for variable in ("TAVILY_API_KEY", "SERPER_API_KEY", "BRAVE_API_KEY", "SEARXNG_URL"):
        assert variable in run.err
