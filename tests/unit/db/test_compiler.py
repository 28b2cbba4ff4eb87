"""DSL → SQL on real databases: every op, groups, ordering, limits, select, permissions.

Each test runs on SQLite and on PostgreSQL (``shop_url`` is parametrised) and
compares the ids found with hand-written SQL.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from unified_search.config.db import ModelSettings
from unified_search.db.compiler import compile_dsl
from unified_search.db.dsl import QueryDSL
from unified_search.db.execute import ReadOnlyExecutor
from unified_search.errors import ErrorCode, SearchError

IdsWhere = Callable[[str], list[int]]


def _products(*wheres: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"model": "products", "wheres": list(wheres), **extra}


OPS = [
    ({"field": "brand", "op": "=", "value": "Sonora"}, "brand = 'Sonora'"),
    ({"field": "category", "op": "!=", "value": "Books"}, "category <> 'Books'"),
    ({"field": "price", "op": ">", "value": 200}, "price > 200"),
    ({"field": "price", "op": ">=", "value": 199}, "price >= 199"),
    ({"field": "price", "op": "<", "value": 20}, "price < 20"),
    ({"field": "price", "op": "<=", "value": 19}, "price <= 19"),
    ({"field": "name", "op": "like", "value": "%HEADPHONES%"}, "lower(name) LIKE '%headphones%'"),
    ({"field": "name", "op": "not like", "value": "%e%"}, "lower(name) NOT LIKE '%e%'"),
    ({"field": "brand", "op": "in", "value": ["Lumen", "Cirrus"]}, "brand IN ('Lumen', 'Cirrus')"),
    ({"field": "category", "op": "not in", "value": ["Books", "Home"]}, "category NOT IN ('Books', 'Home')"),
    ({"field": "rating", "op": "is null"}, "rating IS NULL"),
    ({"field": "rating", "op": "is not null"}, "rating IS NOT NULL"),
    ({"field": "price", "op": "between", "value": [20, 50]}, "price BETWEEN 20 AND 50"),
    ({"field": "created_at", "op": ">=", "value": "2025-03-01"}, "created_at >= '2025-03-01'"),
    ({"field": "created_at", "op": "between", "value": ["2024-01-01", "2024-06-30"]}, "created_at BETWEEN '2024-01-01' AND '2024-06-30'"),
    ({"field": "stock", "op": "=", "value": "0"}, "stock = 0"),
]  # fmt: skip


@pytest.mark.parametrize(("where", "sql"), OPS, ids=[w["op"] for w, _ in OPS])
async def test_every_op_matches_hand_written_sql(
    run_dsl: Any, ids_where: IdsWhere, where: dict[str, Any], sql: str
) -> None:
    found = await run_dsl(_products(where))
    expected = ids_where(f"SELECT id FROM products WHERE {sql} ORDER BY id")
    assert found == expected
    assert expected, "the sample data should make every op select something"


async def test_or_group_and_nested_wheres(run_dsl: Any, ids_where: IdsWhere) -> None:
    """A where's own test AND its nested wheres, OR its alternatives."""
    where = {
        "field": "category",
        "op": "=",
        "value": "Books",
        "wheres": [{"field": "price", "op": "<", "value": 30}],
        "or": [
            {
                "wheres": [
                    {"field": "brand", "value": "Lumen"},
                    {"field": "stock", "op": ">", "value": 0},
                ]
            },
            {"field": "rating", "op": "is null"},
        ],
    }
    found = await run_dsl(_products(where))
    expected = ids_where(
        "SELECT id FROM products WHERE (category = 'Books' AND price < 30)"
        " OR (brand = 'Lumen' AND stock > 0) OR rating IS NULL ORDER BY id"
    )
    assert found == expected and len(expected) >= 4


async def test_top_level_wheres_are_anded(run_dsl: Any, ids_where: IdsWhere) -> None:
    found = await run_dsl(
        _products(
            {"field": "category", "value": "Electronics"},
            {"field": "price", "op": "<", "value": 100},
        )
    )
    assert found == ids_where(
        "SELECT id FROM products WHERE category = 'Electronics' AND price < 100 ORDER BY id"
    )


async def test_pure_or_group(run_dsl: Any, ids_where: IdsWhere) -> None:
    where = {"or": [{"field": "brand", "value": "Glowlab"}, {"field": "brand", "value": "Sunward"}]}
    found = await run_dsl(_products(where))
    assert found == ids_where(
        "SELECT id FROM products WHERE brand IN ('Glowlab', 'Sunward') ORDER BY id"
    )


async def test_ordering_with_primary_key_tie_break(run_dsl: Any, ids_where: IdsWhere) -> None:
    found = await run_dsl(
        {"model": "orders", "orders": [{"field": "total", "sort": "desc"}, {"field": "ordered_at"}]}
    )
    assert found == ids_where("SELECT id FROM orders ORDER BY total DESC, ordered_at ASC, id ASC")


async def test_limit_and_cap(run_dsl: Any) -> None:
    """The DSL's limit applies, but never beyond max_results."""
    ordered = {"orders": [{"field": "price"}]}
    assert len(await run_dsl(_products(**ordered, limit=3))) == 3
    assert len(await run_dsl(_products(**ordered, limit=500), max_results=7)) == 7
    assert len(await run_dsl(_products(), max_results=10)) == 10


async def test_select_keeps_the_primary_key_but_hides_it(engine: Any, shop_models: Any) -> None:
    """Rows need their key to be cited; the answer keys say which columns were asked for."""
    compiled = compile_dsl(
        QueryDSL(model="products", select=["name"], limit=2), shop_models(), max_results=5, user={}
    )
    rows = await ReadOnlyExecutor(engine, timeout=5).fetch(compiled.statement)
    assert compiled.keys == ("name", "id") and compiled.hidden == {"id"}
    assert [sorted(compiled.named(r)) for r in rows] == [["id", "name"], ["id", "name"]]
    assert not compiled.figures


async def test_permission_filter_is_anded_around_or_groups(
    run_dsl: Any, ids_where: IdsWhere
) -> None:
    """An ``or`` in the DSL cannot widen the permission filter."""
    settings = ModelSettings(permission={"customer_id": "customer"})
    escape = {
        "or": [{"field": "id", "op": ">", "value": 0}, {"field": "status", "value": "pending"}]
    }
    found = await run_dsl(
        {"model": "orders", "wheres": [escape]}, user={"customer": 3}, settings={"orders": settings}
    )
    assert found == ids_where("SELECT id FROM orders WHERE customer_id = 3 ORDER BY id")
    assert found


async def test_missing_permission_value_refuses(run_dsl: Any) -> None:
    settings = ModelSettings(permission={"customer_id": "customer"})
    with pytest.raises(SearchError) as info:
        await run_dsl({"model": "orders"}, user={"other": 1}, settings={"orders": settings})
    assert info.value.code is ErrorCode.INVALID_QUERY
    assert "'customer'" in info.value.message


@pytest.mark.parametrize(
    ("where", "named"),
    [
        ({"field": "colour", "value": "red"}, "colour"),
        ({"field": "price", "op": ">", "value": "cheap"}, "price"),
        ({"field": "price", "op": "=", "value": True}, "price"),
        ({"field": "stock", "op": "=", "value": 2.5}, "stock"),
        ({"field": "created_at", "op": ">", "value": "last tuesday"}, "created_at"),
        ({"field": "price", "op": "in", "value": [1, {"x": 1}]}, "price"),
        ({"field": "price", "op": "like", "value": "%1%"}, "price"),
        ({"field": "name", "op": "=", "value": ["a"]}, "name"),
        ({"field": "price", "op": ">", "value": "NaN"}, "price"),
        ({"field": {"field": "total", "table": "orders"}, "value": 1}, "orders.total"),
        ({"field": "orders.total", "value": 1}, "orders.total"),
    ],
)
async def test_bad_fields_and_values_name_the_field(
    run_dsl: Any, where: dict[str, Any], named: str
) -> None:
    with pytest.raises(SearchError) as info:
        await run_dsl(_products(where))
    assert info.value.code is ErrorCode.INVALID_QUERY
    assert repr(named) in info.value.message


async def test_unknown_order_and_select_fields_are_refused(run_dsl: Any) -> None:
    for dsl in (_products(orders=[{"field": "popularity"}]), _products(select=["password"])):
        with pytest.raises(SearchError, match="unknown field"):
            await run_dsl(dsl)


async def test_unexposed_model_is_refused_listing_the_exposed_ones(shop_models: Any) -> None:
    models = shop_models()
    del models["orders"]
    with pytest.raises(SearchError, match="unknown model 'orders'; available models: products"):
        compile_dsl(QueryDSL(model="orders"), models, max_results=5, user={})
