"""The query DSL models: shapes accepted, shapes refused, JSON form."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from unified_search.db.dsl import MAX_DEPTH, FieldRef, Op, Order, QueryDSL, Where


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
