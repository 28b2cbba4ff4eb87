"""The builtin generator: which DSL each kind of phrase produces (no database query needed)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from unified_search.db.compiler import compile_dsl
from unified_search.db.config import ModelSettings
from unified_search.db.dates import find_dates
from unified_search.db.execute import create_readonly_engine
from unified_search.db.nl2dsl import generate
from unified_search.db.schema import ModelSchema, SchemaCatalog
from unified_search.errors import ErrorCode, SearchError

TODAY = dt.date(2025, 6, 15)  # a Sunday
SAMPLES = {
    "products": {
        "category": ["Books", "Electronics", "Home"],
        "brand": ["Cirrus", "Lumen", "Sonora"],
    },
    "orders": {"status": ["cancelled", "delivered", "pending", "shipped"]},
    "customers": {"status": ["active", "inactive"], "city": ["Berlin", "New York", "Paris"]},
}


@pytest.fixture(scope="module")
def schemas(shop_file: Path) -> Iterator[dict[str, ModelSchema]]:
    engine = create_readonly_engine(f"sqlite:///{shop_file}")
    catalog = SchemaCatalog(engine)
    yield {name: catalog.model(name, ModelSettings()) for name in SAMPLES}
    engine.dispose()


def dsl(schemas: dict[str, ModelSchema], question: str, model: str = "products") -> dict[str, Any]:
    generated = generate(question, schemas[model], SAMPLES[model], today=TODAY)
    return generated.dsl.as_json()


def cond(field: str, op: str, value: Any = None) -> dict[str, Any]:
    return {"field": field, "op": op} | ({} if value is None else {"value": value})


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("under $100", cond("price", "<", 100.0)),
        ("less than 50 dollars", cond("price", "<", 50.0)),
        ("more than 3 stars", cond("rating", ">", 3.0)),
        ("at least 4.5 stars", cond("rating", ">=", 4.5)),
        ("rated 4 stars or more", cond("rating", ">=", 4.0)),
        ("4+ stars", cond("rating", ">=", 4.0)),
        ("no more than $20", cond("price", "<=", 20.0)),
        ("between 10 and 20 dollars", cond("price", "between", [10.0, 20.0])),
        ("from $1k to $2k", cond("price", "between", [1000.0, 2000.0])),
        ("more than 100 units in stock", cond("stock", ">", 100)),
        ("stock of 0", cond("stock", "=", 0)),
        ("价格低于50元", cond("price", "<", 50.0)),
        ("100元以上", cond("price", ">=", 100.0)),
        ("价格在100到300元之间", cond("price", "between", [100.0, 300.0])),
    ],
)
def test_numeric_comparisons(schemas: Any, question: str, expected: dict[str, Any]) -> None:
    assert dsl(schemas, f"products {question}")["wheres"] == [expected]


def test_currency_goes_to_the_money_column_of_each_model(schemas: Any) -> None:
    assert dsl(schemas, "orders over $500", "orders")["wheres"] == [cond("total", ">", 500.0)]


def test_whole_number_columns_refuse_fractions(schemas: Any) -> None:
    """ "more than 2.5 units" cannot be an integer test, so it is left out rather than rounded."""
    assert "wheres" not in dsl(schemas, "orders with quantity over 2.5", "orders")


@pytest.mark.parametrize(
    ("phrase", "low", "high"),
    [
        ("last week", "2025-06-02", "2025-06-08"),
        ("last month", "2025-05-01", "2025-05-31"),
        ("last year", "2024-01-01", "2024-12-31"),
        ("in march 2025", "2025-03-01", "2025-03-31"),
        ("in 2024", "2024-01-01", "2024-12-31"),
        ("2025-03", "2025-03-01", "2025-03-31"),
        ("on june 1, 2025", "2025-06-01", "2025-06-01"),
        ("上个月", "2025-05-01", "2025-05-31"),
        ("2024年3月", "2024-03-01", "2024-03-31"),
        ("去年", "2024-01-01", "2024-12-31"),
        ("from 2024 to 2025", "2024-01-01", "2025-12-31"),
        ("between march and may 2025", "2025-03-01", "2025-05-31"),
    ],
)
def test_date_periods(schemas: Any, phrase: str, low: str, high: str) -> None:
    wheres = dsl(schemas, f"orders {phrase}", "orders")["wheres"]
    assert wheres == [cond("ordered_at", "between", [low, high])]


@pytest.mark.parametrize(
    ("phrase", "op", "value"),
    [
        ("since 2024", ">=", "2024-01-01"),
        ("since march 2025", ">=", "2025-03-01"),
        ("after 2024", ">=", "2025-01-01"),
        ("before february 2024", "<=", "2024-01-31"),
        ("this year", ">=", "2025-01-01"),
        ("this month", ">=", "2025-06-01"),
        ("in the past 30 days", ">=", "2025-05-16"),
        ("in the last week", ">=", "2025-06-08"),
        ("最近7天", ">=", "2025-06-08"),
        ("2024年以来", ">=", "2024-01-01"),
    ],
)
def test_date_bounds(schemas: Any, phrase: str, op: str, value: str) -> None:
    assert dsl(schemas, f"orders {phrase}", "orders")["wheres"] == [cond("ordered_at", op, value)]


def test_may_alone_is_not_a_month() -> None:
    assert find_dates("products that may break", TODAY) == []
    assert find_dates("under 2000 dollars", TODAY) == []


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("electronics", [cond("category", "=", "Electronics")]),
        ("books or electronics", [cond("category", "in", ["Electronics", "Books"])]),
        ("non-electronics", [cond("category", "!=", "Electronics")]),
        ("Sonora gear", [cond("brand", "=", "Sonora"), {"or": []}]),
    ],
)
def test_category_values(schemas: Any, question: str, expected: list[dict[str, Any]]) -> None:
    wheres = dsl(schemas, question)["wheres"]
    assert wheres[0] == expected[0]
    assert len(wheres) == len(expected)


def test_inactive_is_not_read_as_active(schemas: Any) -> None:
    wheres = dsl(schemas, "inactive customers", "customers")["wheres"]
    assert wheres == [cond("status", "=", "inactive")]


def test_multi_word_values(schemas: Any) -> None:
    wheres = dsl(schemas, "customers in new york", "customers")["wheres"]
    assert wheres == [cond("city", "=", "New York")]


@pytest.mark.parametrize(
    ("question", "orders", "limit"),
    [
        ("cheapest products", [{"field": "price"}], None),
        ("the cheapest laptop", [{"field": "price"}], 1),
        ("3 most expensive products", [{"field": "price", "sort": "desc"}], 3),
        ("newest 5 products", [{"field": "created_at", "sort": "desc"}], 5),
        ("top rated products", [{"field": "rating", "sort": "desc"}], None),
        ("products sorted by stock descending", [{"field": "stock", "sort": "desc"}], None),
        ("products with the lowest rating", [{"field": "rating"}], 1),
        ("products with lowest ratings", [{"field": "rating"}], None),
        ("评分最高的5个产品", [{"field": "rating", "sort": "desc"}], 5),
        ("最便宜的商品", [{"field": "price"}], None),
        ("top 4 products", None, 4),
    ],
)
def test_ordering_and_limits(
    schemas: Any, question: str, orders: list[dict[str, Any]] | None, limit: int | None
) -> None:
    out = dsl(schemas, question)
    assert out.get("orders") == orders
    assert out.get("limit") == limit


def test_numbers_stay_with_their_comparison_before_ordering(schemas: Any) -> None:
    out = dsl(schemas, "headphones under $100 cheapest first")
    assert out["wheres"][0] == cond("price", "<", 100.0)
    assert out["orders"] == [{"field": "price"}] and "limit" not in out


def test_overlong_questions_are_refused(schemas: Any) -> None:
    with pytest.raises(SearchError, match="at most 2000"):
        generate("cheap " * 500, schemas["products"], {}, today=TODAY)


def test_size_words_order_by_amount(schemas: Any) -> None:
    out = dsl(schemas, "the 5 largest orders", "orders")
    assert out["orders"] == [{"field": "total", "sort": "desc"}] and out["limit"] == 5


def test_missing_values(schemas: Any) -> None:
    assert dsl(schemas, "products with no rating")["wheres"] == [cond("rating", "is null")]


def test_stock_words(schemas: Any) -> None:
    assert dsl(schemas, "products in stock")["wheres"] == [cond("stock", ">", 0)]
    assert dsl(schemas, "products out of stock")["wheres"] == [cond("stock", "<=", 0)]


def test_keywords_become_like_over_searchable_columns(schemas: Any) -> None:
    generated = generate("wireless headphones", schemas["products"], {}, today=TODAY)
    assert generated.keywords == ("wireless", "headphone")
    first = generated.dsl.as_json()["wheres"][0]
    assert {w["field"] for w in first["or"]} == {"name", "category", "brand", "description"}
    assert all(w == cond(w["field"], "like", "%wireless%") for w in first["or"])
    assert generated.relaxed is not None
    assert len(generated.relaxed.wheres[0].or_) == 8


def test_searchable_setting_limits_keyword_columns(shop_file: Path) -> None:
    engine = create_readonly_engine(f"sqlite:///{shop_file}")
    schema = SchemaCatalog(engine).model("products", ModelSettings(searchable=["name"]))
    engine.dispose()
    wheres = generate("waterproof", schema, {}, today=TODAY).dsl.as_json()["wheres"]
    assert wheres == [cond("name", "like", "%waterproof%")]


def test_model_score_prefers_the_named_model(schemas: Any) -> None:
    scores = {
        name: generate("cancelled orders", schemas[name], SAMPLES[name], today=TODAY).score
        for name in SAMPLES
    }
    assert max(scores, key=scores.__getitem__) == "orders"
    assert scores["orders"] > scores["products"]


@pytest.mark.parametrize("question", ["???", "  ...  ", "\u200b\u200b", "--"])
def test_empty_questions_are_refused(schemas: Any, question: str) -> None:
    with pytest.raises(SearchError) as info:
        generate(question, schemas["products"], {}, today=TODAY)
    assert info.value.code is ErrorCode.INVALID_QUERY
    assert "empty" in info.value.message


def test_fullwidth_text_is_read_like_ascii(schemas: Any) -> None:
    assert dsl(schemas, "ｐｒｏｄｕｃｔｓ ｕｎｄｅｒ ＄１００")["wheres"] == [
        cond("price", "<", 100.0)
    ]


_WORDS = st.sampled_from(
    [
        "under",
        "over",
        "between",
        "and",
        "$",
        "5",
        "100",
        "2024",
        "march",
        "last",
        "week",
        "since",
        "cheapest",
        "top",
        "3",
        "the",
        "most",
        "expensive",
        "rated",
        "stars",
        "stock",
        "no",
        "electronics",
        "not",
        "books",
        "价格",
        "低于",
        "元",
        "最贵",
        "'",
        ";",
        "--",
        "DROP",
        "%",
        "_",
        "\\",
        "）",
        "５",
    ]
)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(words=st.lists(st.one_of(_WORDS, st.text(max_size=6)), min_size=1, max_size=12))
def test_any_text_gives_a_dsl_that_compiles(schemas: Any, words: list[str]) -> None:
    """Whatever the question, the generator answers with a valid DSL or a clear refusal."""
    question = " ".join(words)
    for name, schema in schemas.items():
        try:
            generated = generate(question, schema, SAMPLES[name], today=TODAY)
        except SearchError as exc:
            assert exc.code is ErrorCode.INVALID_QUERY
            continue
        for candidate in (generated.dsl, generated.relaxed):
            if candidate is not None:
                compile_dsl(candidate, schema, max_results=20, user={})
