"""A field compared with a figure over all rows (``than``), on SQLite and PostgreSQL.

Each case compares the ids found with hand-written SQL holding the same subquery.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from unified_search.config.db import ModelSettings
from unified_search.db.dsl import QueryDSL
from unified_search.errors import ErrorCode, SearchError

IdsWhere = Callable[[str], list[int]]

CASES = [
    ("products", "price", ">", "avg", None, "price > (SELECT avg(price) FROM products)"),
    ("products", "price", "<=", "avg", None, "price <= (SELECT avg(price) FROM products)"),
    ("products", "rating", "=", "max", None, "rating = (SELECT max(rating) FROM products)"),
    ("products", "stock", "<", "avg", None, "stock < (SELECT avg(stock) FROM products)"),
    ("products", "created_at", ">", "min", None, "created_at > (SELECT min(created_at) FROM products)"),
    ("orders", "total", ">=", "avg", None, "total >= (SELECT avg(total) FROM orders)"),
    ("orders", "quantity", "!=", "max", None, "quantity <> (SELECT max(quantity) FROM orders)"),
    ("orders", "total", ">", "avg", "products", "total > (SELECT avg(price) FROM products)"),
]  # fmt: skip


@pytest.mark.parametrize(("model", "field", "op", "fn", "over", "sql"), CASES)
async def test_comparison_with_an_overall_figure(
    run_dsl: Any,
    ids_where: IdsWhere,
    model: str,
    field: str,
    op: str,
    fn: str,
    over: str | None,
    sql: str,
) -> None:
    than = {"fn": fn, "field": "price" if over else field, **({"model": over} if over else {})}
    found = await run_dsl({"model": model, "wheres": [{"field": field, "op": op, "than": than}]})
    expected = ids_where(f"SELECT id FROM {model} WHERE {sql} ORDER BY id")
    assert found == expected
    assert expected, "the sample data should make every case select something"


async def test_a_joined_field_is_compared_over_its_own_model(
    run_dsl: Any, ids_where: IdsWhere
) -> None:
    """Orders of products dearer than the average product: the figure is over products."""
    where = {"field": "products.price", "op": ">", "than": {"fn": "avg", "field": "price"}}
    found = await run_dsl({"model": "orders", "joins": [{"model": "products"}], "wheres": [where]})
    expected = ids_where(
        "SELECT o.id FROM orders o JOIN products p ON p.id = o.product_id "
        "WHERE p.price > (SELECT avg(price) FROM products) ORDER BY o.id"
    )
    assert found == expected


@pytest.mark.parametrize("customer", [1, 8, 15, 18])
async def test_the_figure_sees_only_the_callers_rows(
    run_dsl: Any, ids_where: IdsWhere, customer: int
) -> None:
    """With a permission filter, the average is over the caller's rows, not everyone's."""
    settings = {"orders": ModelSettings(permission={"customer_id": "customer"})}
    where = {"field": "total", "op": ">", "than": {"fn": "avg", "field": "total"}}
    found = await run_dsl(
        {"model": "orders", "wheres": [where]}, user={"customer": customer}, settings=settings
    )
    own = ids_where(
        f"SELECT id FROM orders WHERE customer_id = {customer} AND "
        f"total > (SELECT avg(total) FROM orders WHERE customer_id = {customer}) ORDER BY id"
    )
    everyone = ids_where(
        f"SELECT id FROM orders WHERE customer_id = {customer} AND "
        "total > (SELECT avg(total) FROM orders) ORDER BY id"
    )
    assert found == own
    assert own != everyone, "the sample data should tell the two averages apart"


@pytest.mark.parametrize(
    ("where", "words"),
    [
        ({"field": "name", "op": "like", "than": {"fn": "avg", "field": "price"}}, "ops"),
        (
            {"field": "price", "op": ">", "value": 3, "than": {"fn": "avg", "field": "price"}},
            "not both",
        ),
        ({"op": ">", "than": {"fn": "avg", "field": "price"}}, "needs a field"),
        ({"field": "price", "op": ">", "than": {"fn": "count", "field": "price"}}, "fn"),
        ({"field": "price", "op": ">", "than": {"fn": "avg; drop table", "field": "price"}}, "fn"),
    ],
)
def test_malformed_comparisons_are_rejected(where: dict[str, Any], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        QueryDSL.model_validate({"model": "products", "wheres": [where]})


@pytest.mark.parametrize(
    ("dsl", "words"),
    [
        (
            {"wheres": [{"field": "price", "op": ">", "than": {"fn": "avg", "field": "nope"}}]},
            "unknown field 'nope'",
        ),
        (
            {"wheres": [{"field": "price", "op": ">", "than": {"fn": "avg", "field": "name"}}]},
            "avg needs",
        ),
        (
            {
                "wheres": [
                    {
                        "field": "price",
                        "op": ">",
                        "than": {"fn": "max", "field": "id", "model": "users"},
                    }
                ]
            },
            "not exposed",
        ),
        (
            {
                "aggregates": [{"fn": "count"}],
                "group_by": ["category"],
                "having": [{"field": "count", "op": ">", "than": {"fn": "avg", "field": "stock"}}],
            },
            "before grouping",
        ),
    ],
)
async def test_comparisons_the_database_cannot_answer_are_refused(
    run_dsl: Any, dsl: dict[str, Any], words: str
) -> None:
    with pytest.raises(SearchError, match=words) as caught:
        await run_dsl({"model": "products", **dsl})
    assert caught.value.code is ErrorCode.INVALID_QUERY
