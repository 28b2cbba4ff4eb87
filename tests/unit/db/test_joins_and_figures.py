"""Joins, exists joins, aggregates and distinct on real databases, checked against hand-written SQL.

Each test runs on SQLite and PostgreSQL (``shop_url`` is parametrised).
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest
import sqlalchemy as sa

from unified_search.config.db import ModelSettings
from unified_search.db.compiler import compile_dsl
from unified_search.db.dsl import QueryDSL
from unified_search.errors import ErrorCode, SearchError

IdsWhere = Callable[[str], list[int]]


def _rows(shop_url: str, sql: str) -> list[tuple[Any, ...]]:
    engine = sa.create_engine(shop_url)
    try:
        with engine.connect() as conn:
            return [tuple(_plain(v) for v in row) for row in conn.execute(sa.text(sql))]
    finally:
        engine.dispose()


def _plain(value: Any) -> Any:
    return round(float(value), 2) if isinstance(value, Decimal | float) else value


def _answers(rows: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [tuple(_plain(v) for v in row.values()) for row in rows]


async def test_many_to_one_join_filters_on_the_parent(run_dsl: Any, ids_where: IdsWhere) -> None:
    found = await run_dsl(
        {
            "model": "orders",
            "joins": [{"model": "customers"}],
            "wheres": [{"field": "customers.city", "value": "Paris"}],
        }
    )
    expected = ids_where(
        "SELECT o.id FROM orders o JOIN customers c ON c.id = o.customer_id"
        " WHERE c.city = 'Paris' ORDER BY o.id"
    )
    assert found == expected and expected


async def test_two_hop_exists_keeps_each_row_once(run_dsl: Any, ids_where: IdsWhere) -> None:
    """Customers who ordered a book: an exists join, so no customer repeats."""
    found = await run_dsl(
        {
            "model": "customers",
            "joins": [
                {"model": "orders", "type": "exists"},
                {"model": "products", "from": "orders"},
            ],
            "wheres": [{"field": "products.category", "value": "Books"}],
        }
    )
    expected = ids_where(
        "SELECT c.id FROM customers c WHERE EXISTS (SELECT 1 FROM orders o"
        " JOIN products p ON p.id = o.product_id WHERE o.customer_id = c.id"
        " AND p.category = 'Books') ORDER BY c.id"
    )
    assert found == expected and len(set(found)) == len(found) > 1


async def test_not_exists_and_left_join_find_rows_without_related_ones(
    run_dsl: Any, ids_where: IdsWhere
) -> None:
    expected = ids_where(
        "SELECT id FROM products WHERE id NOT IN (SELECT product_id FROM orders) ORDER BY id"
    )
    never = await run_dsl(
        {"model": "products", "joins": [{"model": "orders", "type": "not exists"}]}
    )
    left = await run_dsl(
        {
            "model": "products",
            "joins": [{"model": "orders", "type": "left"}],
            "wheres": [{"field": "orders.id", "op": "is null"}],
        }
    )
    assert never == left == expected and expected


async def test_counts_per_group_with_having_and_ranking(fetch_dsl: Any, shop_url: str) -> None:
    rows = await fetch_dsl(
        {
            "model": "orders",
            "joins": [{"model": "customers"}],
            "aggregates": [{"fn": "count", "as": "orders"}, {"fn": "sum", "field": "total"}],
            "group_by": ["customers.country"],
            "having": [{"field": "orders", "op": ">", "value": 5}],
            "orders": [{"field": "orders", "sort": "desc"}],
            "limit": 3,
        }
    )
    expected = _rows(
        shop_url,
        "SELECT c.country, COUNT(*) AS n, SUM(o.total) FROM orders o JOIN customers c"
        " ON c.id = o.customer_id GROUP BY c.country HAVING COUNT(*) > 5"
        " ORDER BY n DESC, c.country LIMIT 3",
    )
    assert _answers(rows) == expected and len(expected) == 3
    assert list(rows[0]) == ["customers.country", "orders", "sum_total"]


@pytest.mark.parametrize("fn", ["avg", "min", "max", "sum"])
async def test_each_figure_matches_sql(fetch_dsl: Any, shop_url: str, fn: str) -> None:
    rows = await fetch_dsl(
        {
            "model": "products",
            "wheres": [{"field": "category", "value": "Books"}],
            "aggregates": [{"fn": fn, "field": "price"}],
        }
    )
    expected = _rows(shop_url, f"SELECT {fn}(price) FROM products WHERE category = 'Books'")
    assert _answers(rows) == expected


async def test_count_distinct_and_distinct_values(fetch_dsl: Any, shop_url: str) -> None:
    buyers = await fetch_dsl(
        {
            "model": "orders",
            "aggregates": [{"fn": "count", "field": "customer_id", "distinct": True}],
        }
    )
    assert _answers(buyers) == _rows(shop_url, "SELECT COUNT(DISTINCT customer_id) FROM orders")
    cities = await fetch_dsl({"model": "customers", "select": ["city"], "distinct": True})
    assert _answers(cities) == _rows(shop_url, "SELECT DISTINCT city FROM customers ORDER BY city")


async def test_figures_are_answers_without_a_row_key(shop_models: Any) -> None:
    compiled = compile_dsl(
        QueryDSL(model="orders", aggregates=[{"fn": "count"}], group_by=["status"]),
        shop_models(),
        max_results=20,
        user={},
    )
    assert compiled.figures and compiled.keys == ("status", "count")


async def test_ordering_puts_empty_values_last_everywhere(run_dsl: Any) -> None:
    """PostgreSQL sorts NULL first when descending; answers must not depend on the database."""
    highest = await run_dsl({"model": "products", "orders": [{"field": "rating", "sort": "desc"}]})
    lowest = await run_dsl({"model": "products", "orders": [{"field": "rating"}]})
    unrated = 29  # the only product without a rating
    assert highest[-1] == lowest[-1] == unrated


async def test_permission_of_a_joined_model_applies_inside_the_join(
    run_dsl: Any, ids_where: IdsWhere
) -> None:
    settings = {"customers": ModelSettings(permission={"country": "country"})}
    found = await run_dsl(
        {"model": "products", "joins": [{"model": "orders", "type": "exists"},
                                        {"model": "customers", "from": "orders"}]},
        user={"country": "France"},
        settings=settings,
    )  # fmt: skip
    expected = ids_where(
        "SELECT p.id FROM products p WHERE EXISTS (SELECT 1 FROM orders o JOIN customers c"
        " ON c.id = o.customer_id WHERE o.product_id = p.id AND c.country = 'France') ORDER BY p.id"
    )
    assert found == expected
    with pytest.raises(SearchError, match="requires 'country'"):
        await run_dsl(
            {"model": "orders", "joins": [{"model": "customers"}]}, settings=settings, user={}
        )


@pytest.mark.parametrize(
    ("dsl", "message"),
    [
        (
            {"model": "orders", "joins": [{"model": "suppliers"}]},
            "model 'suppliers' cannot be joined; models reachable from 'orders': customers, products",
        ),
        (
            {"model": "orders", "joins": [{"model": "customers", "from": "products"}]},
            "starts from 'products', which is not joined before it",
        ),
        (
            {"model": "products", "wheres": [{"field": "customers.city", "value": "Paris"}]},
            "unknown field 'customers.city'",
        ),
        (
            {"model": "orders", "joins": [{"model": "customers"}],
             "wheres": [{"field": "customers.password", "value": "x"}]},
            "unknown field 'password' on model 'customers'; fields: id, name",
        ),
        (
            {"model": "customers", "joins": [{"model": "orders", "type": "exists"}],
             "select": ["orders.total"]},
            "belongs to an exists join",
        ),
        (
            {"model": "orders", "aggregates": [{"fn": "sum", "field": "status"}]},
            "sum needs a int or float field; 'status' is str",
        ),
        (
            {"model": "orders", "aggregates": [{"fn": "count"}], "group_by": ["status"],
             "orders": [{"field": "total"}]},
            "after grouping only figures and group_by fields",
        ),
        (
            {"model": "customers", "select": ["city"], "distinct": True,
             "orders": [{"field": "name"}]},
            "with distinct, order by answer fields only",
        ),
        (
            {"model": "customers", "joins": [{"model": "orders", "on": "orders.product_id"}]},
            "no foreign key links 'customers' and 'orders' as asked; set 'on' to one of: orders.customer_id",
        ),
    ],
)  # fmt: skip
async def test_refusals_name_what_is_allowed(
    shop_models: Any, dsl: dict[str, Any], message: str
) -> None:
    with pytest.raises(SearchError) as info:
        compile_dsl(QueryDSL.model_validate(dsl), shop_models(), max_results=5, user={})
    assert info.value.code is ErrorCode.INVALID_QUERY
    assert message in info.value.message


async def test_more_than_two_hops_is_refused(shop_models: Any) -> None:
    dsl = QueryDSL.model_validate(
        {
            "model": "customers",
            "joins": [
                {"model": "orders", "as": "o1"},
                {"model": "products", "from": "o1"},
                {"model": "orders", "from": "products", "as": "o2"},
            ],
        }
    )
    with pytest.raises(SearchError, match="3 hops from 'customers'; at most 2"):
        compile_dsl(dsl, shop_models(), max_results=5, user={})


def test_no_name_from_the_dsl_reaches_the_sql(shop_models: Any) -> None:
    """Aliases and figure names are the DSL's; the SQL uses its own (t0, c0 …)."""
    dsl = QueryDSL.model_validate(
        {
            "model": "orders",
            "joins": [{"model": "customers", "as": 'x"; DROP TABLE orders; --'}],
            "aggregates": [{"fn": "count", "as": "n') OR 1=1 --"}],
            "group_by": ['x"; DROP TABLE orders; --.city'],
        }
    )
    compiled = compile_dsl(dsl, shop_models(), max_results=5, user={})
    sql = str(compiled.statement.compile())
    assert "DROP" not in sql and "OR 1=1" not in sql
    assert compiled.keys == ('x"; DROP TABLE orders; --.city', "n') OR 1=1 --")
