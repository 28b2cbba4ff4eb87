"""Cross-language sub-queries: Chinese technical queries in English, and back in Chinese chats."""

from __future__ import annotations

import pytest

from unified_search.nlp.crosslingual import chinese_variant, english_variant, variants
from unified_search.nlp.expand import expand_query


@pytest.mark.parametrize(
    ("query", "english"),
    [
        ("Rust 异步编程", "Rust async programming"),
        ("向量数据库的原理", "vector database principles"),
        ("深度学习框架对比", "deep learning framework comparison"),
        ("如何学习机器学习", "learn machine learning"),
        ("Kubernetes 容器编排最佳实践", "Kubernetes container orchestration best practices"),
        ("PostgreSQL 性能优化", "PostgreSQL performance optimization"),
    ],
)
def test_chinese_technical_queries_get_an_english_wording(query: str, english: str) -> None:
    assert english_variant(query) == english
    assert english in expand_query(query).sub_queries


@pytest.mark.parametrize(
    "query",
    [
        "今天天气怎么样",  # nothing technical
        "张三李四王五的机器学习",  # mostly names the glossary cannot translate
        "Rust async programming",  # already English
        "的了吗",  # only particles
    ],
)
def test_no_english_wording_rather_than_a_wrong_one(query: str) -> None:
    assert english_variant(query) is None or query.isascii()
    assert variants(query) == []


@pytest.mark.parametrize(
    ("query", "chinese"),
    [
        ("Kubernetes tutorial", "Kubernetes 教程"),
        ("how to use Kubernetes for machine learning", "Kubernetes 机器学习"),
        ("Machine Learning best practices", "机器学习 最佳实践"),
        ("vector database vs relational database", "向量数据库 关系型数据库"),
    ],
)
def test_english_queries_get_a_chinese_wording_in_chinese_conversations(
    query: str, chinese: str
) -> None:
    assert chinese_variant(query) == chinese
    assert chinese in expand_query(query, language="zh").sub_queries
    assert chinese not in expand_query(query).sub_queries  # only where the user reads Chinese


def test_english_without_known_terms_gets_no_chinese_wording() -> None:
    assert variants("weather in Paris tomorrow", "zh") == []
