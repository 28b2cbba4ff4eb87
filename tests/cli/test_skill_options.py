"""The search-layer skill's options: ``--queries --intent --freshness --domain-boost --num``,
``--mode auto``, and which providers agreed on each result."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

Cli = Callable[..., Any]


def web(searx: Any) -> dict[str, str]:
    return {"SEARXNG_URL": searx.url}


def test_queries_are_searched_each_and_ranked_together(cli: Cli, searx: Any) -> None:
    run = cli(
        "search", "--queries", "rust async", "tokio runtime", "--type", "web",
        "--freshness", "pd", "--format", "json", env=web(searx),
    )  # fmt: skip
    assert run.code == 0, run.err
    assert sorted(p["q"] for p in searx.asked) == ["rust async", "tokio runtime"]
    assert {p.get("time_range") for p in searx.asked} == {"day"}
    response = json.loads(run.out)
    assert [row["query"] for row in response["trace"]] == ["rust async", "tokio runtime"]
    assert all(ref["metadata"]["providers"] == ["searxng"] for ref in response["references"])


def test_without_queries_the_words_are_one_query(cli: Cli, searx: Any) -> None:
    run = cli("search", "rust", "async", "--type", "web", "--format", "json", env=web(searx))
    assert run.code == 0, run.err
    assert [p["q"] for p in searx.asked] == ["rust async"]


def test_intent_and_domain_boost_rank_the_boosted_domain_first(cli: Cli, searx: Any) -> None:
    plain = cli("search", "rust async", "--type", "web", "--format", "json", env=web(searx))
    assert json.loads(plain.out)["references"][0]["url"] == "https://plain.example.com/a"
    boosted = cli(
        "search", "rust async", "--type", "web", "--intent", "tutorial",
        "--domain-boost", "boosted.example.org", "--format", "json", env=web(searx),
    )  # fmt: skip
    assert boosted.code == 0, boosted.err
    first = json.loads(boosted.out)["references"][0]
    assert first["url"] == "https://boosted.example.org/b"
    assert first["metadata"]["intent"] == "tutorial"


def test_num_caps_the_results_of_each_source(cli: Cli, shop_db: str) -> None:
    run = cli(
        "search", "headphones", "--type", "db", "--db", shop_db, "--model", "products",
        "--num", "1", "--format", "json",
    )  # fmt: skip
    assert run.code == 0, run.err
    assert len(json.loads(run.out)["references"]) == 1


def test_mode_auto_lets_the_intent_choose(cli: Cli, searx: Any) -> None:
    run = cli("search", "FastAPI github", "--type", "web", "--mode", "auto", env=web(searx))
    assert run.code == 0, run.err
    assert [p["q"] for p in searx.asked] == ["FastAPI github"]  # resource: fast, no expansion
    searx.asked.clear()
    answered = cli("search", "what is tokio", "--type", "web", "--mode", "auto", env=web(searx))
    assert answered.code == 0, answered.err
    assert len(searx.asked) > 1 and "Give the answer first" in answered.out
    assert "[searxng]" in answered.out  # each result line says which providers agreed


def test_bad_skill_options_are_bad_input(cli: Cli) -> None:
    for args in (["--freshness", "pz"], ["--intent", "gossip"], ["--num", "0"]):
        run = cli("search", "rust", *args)
        assert run.code == 2, (args, run.err)


def test_the_web_cache_survives_runs_and_has_stats_and_clear(cli: Cli, searx: Any) -> None:
    for _ in range(2):
        run = cli("search", "rust async", "--type", "web", "--format", "json", env=web(searx))
        assert run.code == 0, run.err
    assert len(searx.asked) == 1  # the second run was answered from the file
    stats = cli("cache", "stats", "--format", "json", env=web(searx))
    assert stats.code == 0, stats.err
    figures = json.loads(stats.out)
    assert (figures["backend"], figures["entries"], figures["hits"], figures["misses"]) == (
        "sqlite", 1, 1, 1,
    )  # fmt: skip
    assert "hit rate: 50%" in cli("cache", "stats").out
    cleared = cli("cache", "clear")
    assert cleared.code == 0 and "cleared 1 cached answer(s)" in cleared.out
    cli("search", "rust async", "--type", "web", "--format", "json", env=web(searx))
    assert len(searx.asked) == 2
