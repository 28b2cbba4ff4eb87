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
    assert expand_query("React 和 Vue 区别", today=TODAY).sub_queries == [
        "React 和 Vue 区别",
        "React Vue differences",  # the English wording comes before the intent's sub-queries
        "React 优势",
        "Vue 优势",
    ]


def test_tutorial_adds_tutorial_and_guide_with_synonym() -> None:
    assert expand_query("k8s 教程", today=TODAY).sub_queries == [
        "k8s 教程",
        "Kubernetes 教程",
        "Kubernetes tutorial",
        "Kubernetes 指南",
    ]


@pytest.mark.parametrize("query", ["Rust news", "Rust 最新进展"])
def test_news_and_status_add_the_year(query: str) -> None:
    sub_queries = expand_query(query, today=TODAY).sub_queries
    assert sub_queries[0] == query
    assert "Rust 2026" in sub_queries


def test_exploratory_adds_angles() -> None:
    sub_queries = expand_query("quantum error correction", today=TODAY).sub_queries
    assert sub_queries[1:] == [
        "quantum error correction overview",
        "quantum error correction use cases",
        "quantum error correction challenges",
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
