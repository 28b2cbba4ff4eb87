"""The intent reranker: keyword match, freshness and authority, weighed by the query's intent."""

from __future__ import annotations

import math
from datetime import UTC, datetime

import pytest

from unified_search.config import SearchConfig
from unified_search.config.rerank import IntentRerankConfig
from unified_search.nlp.intent import Intent
from unified_search.rerank.intent import IntentReranker
from unified_search.rerank.signals import freshness, keyword_match, keyword_matches, parse_date
from unified_search.types import ResultItem

NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)


def reranker(config: IntentRerankConfig | None = None) -> IntentReranker:
    return IntentReranker(config, now=lambda: NOW)


def web(url: str, title: str = "", content: str = "", date: str | None = None) -> ResultItem:
    metadata = {"published_date": date} if date else {}
    return ResultItem(type="web", url=url, title=title, content=content, metadata=metadata)


async def test_resource_query_puts_github_first() -> None:
    """Same text everywhere: authority decides, and GitHub is tier 1 plus the resource boost."""
    items = [
        web("https://someblog.net/fastapi", "FastAPI"),
        web("https://medium.com/@x/fastapi", "FastAPI"),
        web("https://github.com/fastapi/fastapi", "FastAPI"),
    ]
    ranked = await reranker().arerank("FastAPI GitHub", items)
    assert [i.url for i in ranked] == [
        "https://github.com/fastapi/fastapi",
        "https://medium.com/@x/fastapi",
        "https://someblog.net/fastapi",
    ]
    assert ranked[0].metadata["intent"] == "resource"
    assert ranked[0].metadata["rerank_signals"]["authority"] == 1.0


async def test_news_query_prefers_the_recent_page() -> None:
    items = [
        web("https://reuters.com/old", "Rust compiler news", date="2024-01-01T00:00:00Z"),
        web("https://example.org/new", "Rust compiler news", date="2026-05-31T09:00:00Z"),
    ]
    ranked = await reranker().arerank("Rust compiler news", items)
    assert ranked[0].url == "https://example.org/new"


async def test_factual_query_prefers_keyword_coverage_over_recency() -> None:
    items = [
        web("https://example.org/a", "Tokio runtime", date="2026-05-31T00:00:00Z"),
        web("https://example.org/b", "What a vector database is", "vector database explained"),
    ]
    ranked = await reranker().arerank("what is a vector database", items)
    assert ranked[0].url == "https://example.org/b"
    assert ranked[0].metadata["rerank_signals"]["keyword"] == 1.0


async def test_hand_checked_score() -> None:
    """Factual weights 0.4/0.1/0.5; 'vector' found (df 1), 'database' not (df 0); undated; unknown domain."""
    item = web("https://unknown.example/x", "vector basics")
    ranked = await reranker().arerank("what is a vector database", [item])
    found, missing = math.log(1 + 1 / 2), math.log(1 + 1 / 1)
    keyword = found / (found + missing)
    assert ranked[0].metadata["rerank_signals"]["keyword"] == pytest.approx(keyword, abs=1e-6)
    assert ranked[0].metadata["rerank_score"] == pytest.approx(
        0.4 * keyword + 0.1 * 0.5 + 0.5 * 0.4
    )


def test_rare_terms_weigh_more_than_shared_ones() -> None:
    """Every item says 'raft'; only one says 'snapshot': that one wins despite equal raw coverage."""
    terms = [("raft",), ("snapshot",), ("election",)]
    items = [
        ResultItem(type="kb", content="raft snapshot"),
        ResultItem(type="kb", content="raft election"),
        ResultItem(type="kb", content="raft election"),
    ]
    scores = keyword_matches(terms, items)
    assert scores[0] > scores[1] == scores[2]


def test_inflections_of_longer_words_match() -> None:
    item = ResultItem(type="kb", content="Tumor mutation rates in breast cancers")
    assert keyword_match([("tumors",), ("mutations",), ("cancer",)], item) == 1.0
    assert keyword_match([("cat",)], ResultItem(type="kb", content="catalog")) == 0.0


async def test_configured_weights_override_the_intent() -> None:
    config = IntentRerankConfig(
        weights={Intent.FACTUAL: {"keyword": 0, "freshness": 0, "authority": 1}}
    )
    items = [web("https://someblog.net/v", "vector database"), web("https://github.com/v", "other")]
    ranked = await reranker(config).arerank("what is a vector database", items)
    assert ranked[0].url == "https://github.com/v"


async def test_configured_tiers_and_subdomains() -> None:
    config = SearchConfig.load(
        profile={"rerank": {"intent": {"domain_tiers": {"corp.example": 1}}}}
    )
    checker = IntentReranker.from_config(config)
    assert checker.authority(web("https://docs.corp.example/x"), Intent.EXPLORATORY) == 1.0
    assert (
        checker.authority(web("https://github.com/x"), Intent.EXPLORATORY) == 1.0
    )  # builtins kept
    assert checker.authority(web("https://corp.example.org/x"), Intent.EXPLORATORY) == 0.4
    assert checker.authority(ResultItem(type="kb", title="own"), Intent.EXPLORATORY) == 0.8


@pytest.mark.parametrize(
    ("url", "intent", "authority"),
    [
        ("https://www.stackoverflow.com/q/1", Intent.NEWS, 1.0),
        ("https://en.wikipedia.org/wiki/X", Intent.NEWS, 1.0),  # the design's tier 1
        ("https://docs.anything.example/guide", Intent.FACTUAL, 1.0),  # docs.*: tier 1
        ("https://news.ycombinator.com/item?id=1", Intent.NEWS, 0.8),  # Hacker News: tier 2
        ("https://dev.to/x", Intent.NEWS, 0.8),  # tier 2
        ("https://dev.to/x", Intent.TUTORIAL, 1.0),  # tier 2, boosted for tutorials
        ("https://realpython.com/x", Intent.TUTORIAL, pytest.approx(0.8)),  # tier 3 + boost
        ("https://www.baeldung.com/x", Intent.TUTORIAL, pytest.approx(0.8)),
        ("https://realpython.com/x", Intent.NEWS, 0.6),
        ("https://techcrunch.com/x", Intent.NEWS, pytest.approx(0.8)),  # tier 3 + news boost
        ("https://cs.stanford.edu/x", Intent.FACTUAL, 0.8),  # *.edu
        ("https://blog.cloudflare.com/x", Intent.FACTUAL, 0.8),  # listed before blog.*
        ("https://blog.example.com/x", Intent.FACTUAL, 0.6),  # blog.*
        ("https://notgithub.com/x", Intent.NEWS, 0.4),
    ],
)
def test_the_designs_tiers_and_boosts(url: str, intent: Intent, authority: float) -> None:
    assert reranker().authority(web(url), intent) == authority


def test_boosted_domains_whatever_the_intent() -> None:
    config = SearchConfig.load(profile={"rerank": {"intent": {"boost_domains": ["example.org"]}}})
    checker = IntentReranker.from_config(config)
    assert checker.authority(web("https://www.example.org/x"), Intent.FACTUAL) == pytest.approx(0.6)


async def test_synonyms_count_as_keyword_matches() -> None:
    ranked = await reranker().arerank("k8s ingress", [web("https://e.org/x", "Kubernetes ingress")])
    assert ranked[0].metadata["rerank_signals"]["keyword"] == 1.0


async def test_chinese_query_keyword_match() -> None:
    items = [web("https://e.org/a", "Python 入门"), web("https://e.org/b", "Kubernetes 部署 教程")]
    ranked = await reranker().arerank("Kubernetes 部署 教程", items)
    assert ranked[0].url == "https://e.org/b"


def test_keyword_match_counts_whole_words() -> None:
    item = ResultItem(type="kb", title="Graph databases", content="")
    assert keyword_match([("graph",), ("rag",)], item) == 0.5  # 'rag' inside 'graph' does not count
    assert keyword_match([], item) == 0.0


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2026-05-31T12:00:00Z", datetime(2026, 5, 31, 12, tzinfo=UTC)),
        ("2026-05-31", datetime(2026, 5, 31, tzinfo=UTC)),
        ("Mon, 06 Jan 2025 16:40:47 GMT", datetime(2025, 1, 6, 16, 40, 47, tzinfo=UTC)),
        ("3 days ago", datetime(2026, 5, 29, 12, tzinfo=UTC)),
        ("not a date", None),
        ("Jan 14, 2026", datetime(2026, 1, 14, tzinfo=UTC)),
    ],
)
def test_parse_date(value: str, expected: datetime | None) -> None:
    assert parse_date(value, NOW) == expected


def test_freshness_halves_per_half_life_and_undated_is_half() -> None:
    week_old = web("https://e.org", date="2026-05-25T12:00:00Z")
    assert freshness(week_old, "week", NOW) == pytest.approx(0.5)
    assert freshness(week_old, "day", NOW) == pytest.approx(0.5**7)
    assert freshness(web("https://e.org"), "week", NOW) == 0.5
    in_an_hour = web("https://e.org", date="2026-06-01T13:00:00Z")  # a clock or zone ahead
    assert freshness(in_an_hour, "week", NOW) == 1.0
    next_year = web("https://e.org", date="2027-01-01")  # no page is published then: undated
    assert freshness(next_year, "week", NOW) == 0.5


async def test_user_synonyms_reach_the_keyword_match() -> None:
    config = SearchConfig.load(profile={"keyword": {"synonyms": {"tfm": "Terraform"}}})
    item = web("https://e.org/x", "Terraform modules")
    ranked = await IntentReranker.from_config(config).arerank("tfm modules", [item])
    assert ranked[0].metadata["rerank_signals"]["keyword"] == 1.0
    plain = await reranker().arerank("tfm modules", [item])
    assert plain[0].metadata["rerank_signals"]["keyword"] < 1.0
