"""Query expansion: synonym table and intent-driven sub-queries."""

from __future__ import annotations

from datetime import date

import pytest

from unified_search.config.keyword import KeywordConfig
from unified_search.nlp.expand import apply_synonyms, expand_query, synonym_table, synonyms_in
from unified_search.nlp.intent import Intent

TODAY = date(2026, 3, 1)


@pytest.mark.parametrize(
    ("abbreviation", "full"),
    [
        ("k8s", "Kubernetes"),
        ("JS", "JavaScript"),
        ("Postgres", "PostgreSQL"),
        ("llm", "large language model"),
    ],
)
def test_builtin_synonyms(abbreviation: str, full: str) -> None:
    table = synonym_table()
    found = synonyms_in(f"deploy {abbreviation} today", table)
    assert apply_synonyms(f"deploy {abbreviation} today", found) == f"deploy {full} today"


def test_synonyms_match_whole_words_only() -> None:
    """'js' inside 'json' or 'node.js' is not the abbreviation."""
    assert synonyms_in("parse json in node.js", synonym_table()) == {}


def test_users_extend_and_override_the_table() -> None:
    table = synonym_table({"TF": "Terraform", "nx": "Nx monorepo"})
    assert table["tf"] == "Terraform"
    assert table["nx"] == "Nx monorepo"
    assert table["k8s"] == "Kubernetes"


def test_factual_adds_definition_and_explained() -> None:
    expansion = expand_query("what is a vector database", today=TODAY)
    assert expansion.intent is Intent.FACTUAL
    assert expansion.sub_queries == [
        "what is a vector database",
        "vector database definition",
        "vector database explained",
    ]


def test_comparison_splits_both_sides() -> None:
    assert expand_query("Postgres vs MySQL", today=TODAY).sub_queries == [
        "Postgres vs MySQL",
        "PostgreSQL vs MySQL",
        "PostgreSQL advantages",
        "MySQL advantages",
    ]


def test_chinese_comparison_splits_both_sides() -> None:
    assert expand_query("Flask 和 Django 区别", today=TODAY).sub_queries == [
        "Flask 和 Django 区别",
        "Flask Django differences",  # the English wording comes before the intent's sub-queries
        "Flask 优势",
        "Django 优势",
    ]


@pytest.mark.parametrize(
    ("query", "expanded"),
    [
        ("Go generics", "Golang generics"),
        ("React hooks", "React.js hooks"),
        ("vue router", "Vue.js router"),
        ("torch tensors", "PyTorch tensors"),
        ("TS enums", "TypeScript enums"),
        ("Mongo indexes", "MongoDB indexes"),
    ],
)
def test_the_designs_technical_synonyms(query: str, expanded: str) -> None:
    assert apply_synonyms(query, synonyms_in(query, synonym_table())) == expanded


@pytest.mark.parametrize("query", ["how to go home", "GO TEAM", "how do plants react to light"])
def test_names_that_are_common_words_expand_only_as_written(query: str) -> None:
    assert synonyms_in(query, synonym_table()) == {}


def test_tutorial_adds_tutorial_and_guide_with_synonym() -> None:
    assert expand_query("k8s 教程", today=TODAY).sub_queries == [
        "k8s 教程",
        "Kubernetes 教程",
        "Kubernetes tutorial",
        "Kubernetes 指南 步骤",
    ]
    assert expand_query("Rust CLI tutorial", today=TODAY).sub_queries[1:] == [
        "Rust CLI guide step by step"
    ]


@pytest.mark.parametrize(
    ("query", "added"),
    [
        ("Rust news", ["Rust news this week 2026", "Rust announcement latest"]),
        ("Rust news today", ["Rust news today 2026", "Rust announcement latest"]),
        ("latest Deno release", ["Deno release latest 2026", "Deno release update release"]),
        ("Rust 最新进展", ["Rust 最新 2026", "Rust 更新 发布"]),
    ],
)
def test_news_and_status_use_the_designs_terms_and_the_year(query: str, added: list[str]) -> None:
    sub_queries = expand_query(query, today=TODAY).sub_queries
    assert sub_queries[0] == query
    assert sub_queries[-2:] == added


def test_exploratory_adds_the_designs_angles() -> None:
    sub_queries = expand_query("quantum error correction", today=TODAY).sub_queries
    assert sub_queries[1:] == [
        "quantum error correction overview",
        "quantum error correction ecosystem",
        "quantum error correction use cases",
    ]


def test_resource_adds_official_docs_and_github() -> None:
    assert expand_query("FastAPI 官网", today=TODAY).sub_queries == [
        "FastAPI 官网",
        "FastAPI 官方文档",
        "FastAPI GitHub",
    ]


def test_max_sub_queries_and_no_duplicates() -> None:
    expansion = expand_query(
        "Postgres vs MySQL", config=KeywordConfig(max_sub_queries=2), today=TODAY
    )
    assert expansion.sub_queries == ["Postgres vs MySQL", "PostgreSQL vs MySQL"]
    assert expansion.synonyms == {"Postgres": "PostgreSQL"}


def test_unsupported_language_is_best_effort() -> None:
    expansion = expand_query("Что такое кластер", today=TODAY)
    assert expansion.intent is Intent.EXPLORATORY
    assert expansion.sub_queries[0] == "Что такое кластер"
    assert len(expansion.sub_queries) == 4
