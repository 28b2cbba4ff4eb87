"""Intent classification in English and Chinese, and each intent's strategy."""

from __future__ import annotations

import pytest

from unified_search.nlp.intent import STRATEGIES, Intent, classify_intent, strip_signals

CASES = [
    ("what is a vector database", Intent.FACTUAL),
    ("Who was Alan Turing?", Intent.FACTUAL),
    ("什么是向量数据库", Intent.FACTUAL),
    ("RAG 是什么", Intent.FACTUAL),
    ("latest Rust release", Intent.STATUS),
    ("current state of WebGPU support", Intent.STATUS),
    ("Rust 最新进展", Intent.STATUS),
    ("Postgres vs MySQL", Intent.COMPARISON),
    ("difference between TCP and UDP", Intent.COMPARISON),
    ("React 和 Vue 区别", Intent.COMPARISON),
    ("how to deploy a Django app", Intent.TUTORIAL),
    ("pandas groupby tutorial", Intent.TUTORIAL),
    ("Kubernetes 教程", Intent.TUTORIAL),
    ("如何安装 Docker", Intent.TUTORIAL),
    ("OpenAI news", Intent.NEWS),
    ("本周 AI 动态", Intent.NEWS),
    ("FastAPI GitHub", Intent.RESOURCE),
    ("pydantic official documentation", Intent.RESOURCE),
    ("FastAPI 官网", Intent.RESOURCE),
    ("quantum error correction", Intent.EXPLORATORY),
    ("量子计算", Intent.EXPLORATORY),
]


@pytest.mark.parametrize(("query", "intent"), CASES)
def test_classify(query: str, intent: Intent) -> None:
    assert classify_intent(query) is intent


def test_every_intent_is_covered_in_both_languages() -> None:
    chinese = {i for q, i in CASES if any("\u4e00" <= c <= "\u9fff" for c in q)}
    english = {i for q, i in CASES if q.isascii()}
    assert chinese == english == set(Intent)


@pytest.mark.parametrize(
    "query",
    [
        "compare the Aurora and Studio Pro headphones",
        "Compare Postgres with MySQL",
        "comparing Rust and Go for web servers",
        "Kafka compared to RabbitMQ",
        "which is better, Vue or React",
        "which one is faster: uv or pip",
    ],
)
def test_comparisons_in_everyday_words(query: str) -> None:
    assert classify_intent(query) is Intent.COMPARISON


@pytest.mark.parametrize(
    ("query", "intent"),
    [
        ("latest news about Rust", Intent.NEWS),  # news is more specific than status
        ("what is the difference between git merge and rebase", Intent.COMPARISON),
        ("how to find the FastAPI GitHub repo", Intent.RESOURCE),
        ("latest Kubernetes tutorial", Intent.STATUS),  # the design: status before tutorial
        # The design's own examples of a query with two intents' signals:
        ("Deno 最新版本下载", Intent.RESOURCE),
        ("Bun vs Deno 最新对比", Intent.COMPARISON),
        ("Bun vs Deno github", Intent.RESOURCE),
    ],
)
def test_most_specific_intent_wins(query: str, intent: Intent) -> None:
    assert classify_intent(query) is intent


@pytest.mark.parametrize("query", ["", "   ", "???", "مرحبا بالعالم", "🙂"])
def test_odd_input_is_exploratory_without_error(query: str) -> None:
    assert classify_intent(query) is Intent.EXPLORATORY


def test_word_boundaries_avoid_false_signals() -> None:
    """'newsletter' is not news, 'docstring' is not docs, 'guidelines' is not a guide."""
    assert classify_intent("newsletter docstring guidelines") is Intent.EXPLORATORY


def test_strategies_map_freshness_to_time_range() -> None:
    assert STRATEGIES[Intent.NEWS].time_range == "week"
    assert STRATEGIES[Intent.STATUS].time_range == "month"
    assert STRATEGIES[Intent.FACTUAL].time_range is None
    assert set(STRATEGIES) == set(Intent)


@pytest.mark.parametrize(
    ("intent", "keyword", "freshness", "authority"),
    [
        (Intent.FACTUAL, 0.4, 0.1, 0.5),
        (Intent.STATUS, 0.3, 0.5, 0.2),
        (Intent.COMPARISON, 0.4, 0.2, 0.4),
        (Intent.TUTORIAL, 0.4, 0.1, 0.5),
        (Intent.EXPLORATORY, 0.3, 0.2, 0.5),
        (Intent.NEWS, 0.3, 0.6, 0.1),
        (Intent.RESOURCE, 0.5, 0.1, 0.4),
    ],
)
def test_intent_weights_are_the_design_table(
    intent: Intent, keyword: float, freshness: float, authority: float
) -> None:
    weights = STRATEGIES[intent].weights
    assert (weights.keyword, weights.freshness, weights.authority) == (
        keyword,
        freshness,
        authority,
    )


@pytest.mark.parametrize(
    ("query", "intent", "topic"),
    [
        ("what is a vector database?", Intent.FACTUAL, "vector database"),
        ("Kubernetes 教程", Intent.TUTORIAL, "Kubernetes"),
        ("latest Rust release", Intent.STATUS, "Rust release"),
    ],
)
def test_strip_signals_leaves_the_topic(query: str, intent: Intent, topic: str) -> None:
    assert strip_signals(query, intent) == topic
