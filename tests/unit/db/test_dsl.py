"""The query DSL models: shapes accepted, shapes refused, JSON form."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from unified_search.db.dsl import (
    MAX_DEPTH,
    Aggregate,
    FieldRef,
    Join,
    Op,
    Order,
    QueryDSL,
    Where,
    field_name,
)


def test_design_doc_form_round_trips() -> None:
    """The documented JSON form validates and dumps back unchanged."""
    data = {
        "model": "products",
        "wheres": [
            {"field": "price", "op": "<", "value": 100},
            {
                "or": [
                    {"field": "brand", "op": "=", "value": "Sonora"},
                    {"field": "stock", "op": "is null"},
                ]
            },
            {"field": {"field": "rating", "table": "products"}, "op": ">=", "value": 4},
        ],
        "orders": [{"field": "price", "sort": "desc"}],
        "select": ["id", "name"],
        "limit": 5,
    }
    assert QueryDSL.model_validate(data).as_json() == data


def test_op_defaults_to_equals_when_a_field_is_given() -> None:
    assert Where.model_validate({"field": "status", "value": "active"}).op is Op.EQ


def test_op_spelling_is_normalised() -> None:
    """Case and spacing of an op do not matter."""
    assert Where(field="x", op="  NOT   Like ", value="%a%").op is Op.NOT_LIKE


def test_op_enum_holds_exactly_the_documented_ops() -> None:
    assert [op.value for op in Op] == [
        "=", "!=", ">", ">=", "<", "<=", "like", "not like", "in", "not in",
        "is null", "is not null", "between",
    ]  # fmt: skip


@pytest.mark.parametrize("op", ["==", "drop", "; DELETE", "<>", "regexp", 1, ""])
def test_unknown_op_is_refused_listing_valid_ops(op: object) -> None:
    with pytest.raises(ValidationError) as info:
        Where.model_validate({"field": "price", "op": op, "value": 1})
    assert "op" in str(info.value)
    if isinstance(op, str) and op:
        assert "valid ops: =, !=" in str(info.value)


@pytest.mark.parametrize(
    ("where", "message"),
    [
        ({"field": "a", "op": "in", "value": 3}, "non-empty list"),
        ({"field": "a", "op": "in", "value": []}, "non-empty list"),
        ({"field": "a", "op": "between", "value": [1]}, "two values"),
        ({"field": "a", "op": "is null", "value": 3}, "takes no value"),
        ({"field": "a", "op": ">"}, "needs a value"),
        ({"op": ">", "value": 3}, "need a field"),
        ({}, "needs a field"),
        ({"field": "a", "op": "=", "value": 1, "extra": 2}, "extra"),
    ],
)
def test_malformed_conditions_are_refused(where: dict[str, object], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        Where.model_validate(where)


def test_in_accepts_at_most_a_thousand_values() -> None:
    Where(field="a", op="in", value=list(range(1000)))
    with pytest.raises(ValidationError, match="at most 1000"):
        Where(field="a", op="in", value=list(range(1001)))


def test_nesting_depth_is_bounded() -> None:
    """A deeply nested DSL is refused before anything is compiled."""
    leaf: dict[str, object] = {"field": "a", "value": 1}
    for _ in range(MAX_DEPTH + 1):
        leaf = {"wheres": [leaf]}
    with pytest.raises(ValidationError, match="nest deeper"):
        QueryDSL.model_validate({"model": "m", "wheres": [leaf]})


def test_where_depth_counts_groups() -> None:
    nested = Where.model_validate({"or": [{"wheres": [{"field": "a", "value": 1}]}]})
    assert nested.depth() == 2


def test_order_sort_is_case_insensitive_and_checked() -> None:
    assert Order.model_validate({"field": "price", "sort": "DESC"}).sort == "desc"
    with pytest.raises(ValidationError, match="sort"):
        Order.model_validate({"field": "price", "sort": "sideways"})


def test_limit_and_model_are_validated() -> None:
    with pytest.raises(ValidationError, match="limit"):
        QueryDSL(model="m", limit=0)
    with pytest.raises(ValidationError, match="model"):
        QueryDSL(model="")


def test_field_ref_keeps_table() -> None:
    ref = Where.model_validate({"field": {"field": "price", "table": "products"}, "value": 1}).field
    assert ref == FieldRef(field="price", table="products")


def test_orders_accept_order_as_the_spelling_of_sort() -> None:
    """``{"field", "order"}`` (as agents often write it) means the same as ``{"field", "sort"}``."""
    written = QueryDSL.model_validate(
        {"model": "m", "orders": [{"field": "price", "order": "DESC"}, {"field": "name"}]}
    )
    assert [(o.field, o.sort) for o in written.orders] == [("price", "desc"), ("name", "asc")]
    assert written.as_json()["orders"] == [{"field": "price", "sort": "desc"}, {"field": "name"}]
    with pytest.raises(ValidationError, match="not both"):
        Order.model_validate({"field": "price", "order": "desc", "sort": "asc"})
    with pytest.raises(ValidationError, match="sort"):
        Order.model_validate({"field": "price", "order": "upwards"})


def test_joins_aggregates_and_grouping_round_trip() -> None:
    data = {
        "model": "orders",
        "joins": [
            {"model": "customers", "as": "buyer", "on": "orders.customer_id"},
            {"model": "products", "type": "exists"},
        ],
        "wheres": [{"field": "products.category", "op": "=", "value": "Books"}],
        "aggregates": [{"fn": "sum", "field": "total", "as": "spent"}, {"fn": "count"}],
        "group_by": ["buyer.city"],
        "having": [{"field": "spent", "op": ">", "value": 100}],
        "orders": [{"field": "spent", "sort": "desc"}],
        "limit": 3,
    }
    dsl = QueryDSL.model_validate(data)
    assert dsl.as_json() == data
    assert [j.alias for j in dsl.joins] == ["buyer", "products"]
    assert [a.name for a in dsl.aggregates] == ["spent", "count"]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"group_by": ["status"]}, "group_by and having need aggregates"),
        ({"aggregates": [{"fn": "count"}], "select": ["status"]}, "drop select"),
        ({"aggregates": [{"fn": "count"}, {"fn": "count"}]}, "distinct names"),
        ({"aggregates": [{"fn": "avg"}]}, "avg needs a field"),
        ({"aggregates": [{"fn": "median", "field": "x"}]}, "fn"),
        ({"joins": [{"model": "a"}, {"model": "a"}]}, "set 'as'"),
        ({"joins": [{"model": "m"}]}, "set 'as'"),
        ({"joins": [{"model": "a", "type": "outer"}]}, "type"),
        ({"joins": [{"model": f"t{i}"} for i in range(5)]}, "at most 4"),
    ],
)
def test_malformed_joins_and_figures_are_refused(data: dict[str, object], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        QueryDSL.model_validate({"model": "m", **data})


def test_figure_names_default_from_function_and_field() -> None:
    assert (
        Aggregate.model_validate({"fn": "AVG", "field": "customers.age"}).name
        == "avg_customers_age"
    )
    assert Aggregate.model_validate({"fn": "count"}).name == "count"
    assert Join.model_validate({"model": "x", "type": "NOT  Exists"}).type == "not exists"


def test_field_names_are_written_as_in_the_dsl() -> None:
    assert field_name("price") == "price"
    assert field_name(FieldRef(field="city", table="customers")) == "customers.city"
