"""The query DSL: a JSON-shaped description of a read-only query over one model.

A DSL never holds SQL. Field names are looked up in the model's reflected
columns by the compiler, operators come from a closed list, and values are
bound as parameters, so nothing written here can reach the database as code.

Semantics of one ``Where``: its own test (``field op value``) AND all of its
nested ``wheres``, OR any of the ``or`` alternatives. A ``Where`` without a
field is a pure group. ``QueryDSL.wheres`` are ANDed together.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

#: Deepest nesting of ``or``/``wheres`` groups accepted (keeps compilation cheap and bounded).
MAX_DEPTH = 8
#: Most values accepted by ``in``/``not in``.
MAX_IN_VALUES = 1000


class Op(StrEnum):
    """The operators a condition may use; anything else is rejected.

    Example:
        >>> Op.parse("NOT  LIKE")
        <Op.NOT_LIKE: 'not like'>
    """

    EQ = "="
    NE = "!="
    GT = ">"
    GE = ">="
    LT = "<"
    LE = "<="
    LIKE = "like"
    NOT_LIKE = "not like"
    IN = "in"
    NOT_IN = "not in"
    IS_NULL = "is null"
    IS_NOT_NULL = "is not null"
    BETWEEN = "between"

    @classmethod
    def parse(cls, value: object) -> Op:
        """Accept an ``Op`` or its spelling in any case and spacing; the error lists the valid ops."""
        if isinstance(value, Op):
            return value
        text = " ".join(value.lower().split()) if isinstance(value, str) else ""
        try:
            return cls(text)
        except ValueError:
            valid = ", ".join(op.value for op in cls)
            raise ValueError(f"unknown op {value!r}; valid ops: {valid}") from None


_NO_VALUE = frozenset({Op.IS_NULL, Op.IS_NOT_NULL})
_LIST_VALUE = frozenset({Op.IN, Op.NOT_IN})


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class FieldRef(_Model):
    """A column named with its table; the table must be the queried model (no joins).

    Example:
        >>> FieldRef.model_validate({"field": "price", "table": "products"}).field
        'price'
    """

    field: str = Field(min_length=1, max_length=128)
    table: str | None = Field(default=None, max_length=128)


FieldLike = str | FieldRef


def field_name(field: FieldLike) -> str:
    """Return the column name of a field reference."""
    return field if isinstance(field, str) else field.field


class Where(_Model):
    """One condition or group.

    Example:
        >>> Where.model_validate({"field": "price", "op": "<", "value": 100}).op
        <Op.LT: '<'>
    """

    field: FieldLike | None = None
    op: Op | None = None
    """Defaults to ``=`` when a field is given; ``None`` only on pure groups."""
    value: Any = None
    or_: list[Where] = Field(default_factory=list, alias="or")
    """Alternatives: the condition holds when this one or any of these holds."""
    wheres: list[Where] = Field(default_factory=list)
    """Nested conditions that must all hold together with this one."""

    @field_validator("op", mode="before")
    @classmethod
    def _parse_op(cls, value: object) -> Op | None:
        return None if value is None else Op.parse(value)

    @model_validator(mode="before")
    @classmethod
    def _default_op(cls, data: Any) -> Any:
        if isinstance(data, dict) and data.get("field") is not None and data.get("op") is None:
            return {**data, "op": Op.EQ}
        return data

    @model_validator(mode="after")
    def _consistent(self) -> Where:
        if self.field is None:
            if self.op is not None or self.value is not None:
                raise ValueError("op and value need a field")
            if not (self.or_ or self.wheres):
                raise ValueError("a where needs a field, or a group in 'or' or 'wheres'")
        elif self.op is not None:
            _check_value_shape(self.op, self.value)
        return self

    def depth(self) -> int:
        """Return how deeply groups nest below this condition (0 for a plain condition)."""
        children = [*self.or_, *self.wheres]
        return 1 + max(c.depth() for c in children) if children else 0


def _check_value_shape(op: Op, value: Any) -> None:
    if op in _NO_VALUE:
        if value is not None:
            raise ValueError(f"op {op.value!r} takes no value")
    elif op in _LIST_VALUE:
        if not isinstance(value, list) or not value:
            raise ValueError(f"op {op.value!r} needs a non-empty list value")
        if len(value) > MAX_IN_VALUES:
            raise ValueError(f"op {op.value!r} accepts at most {MAX_IN_VALUES} values")
    elif op is Op.BETWEEN:
        if not isinstance(value, list) or len(value) != 2:
            raise ValueError("op 'between' needs a list of two values [low, high]")
    elif value is None:
        raise ValueError(f"op {op.value!r} needs a value (use 'is null' to test for null)")


class Order(_Model):
    """One ordering key.

    Example:
        >>> Order.model_validate({"field": "price", "sort": "DESC"}).sort
        'desc'
    """

    field: FieldLike
    sort: Literal["asc", "desc"] = "asc"

    @field_validator("sort", mode="before")
    @classmethod
    def _lower(cls, value: object) -> object:
        return value.strip().lower() if isinstance(value, str) else value


class QueryDSL(_Model):
    """A whole query over one model.

    Example:
        >>> dsl = QueryDSL(model="products", wheres=[{"field": "price", "op": "<", "value": 100}])
        >>> dsl.as_json()["wheres"]
        [{'field': 'price', 'op': '<', 'value': 100}]
    """

    model: str = Field(min_length=1, max_length=128)
    wheres: list[Where] = Field(default_factory=list)
    orders: list[Order] = Field(default_factory=list)
    select: list[FieldLike] = Field(default_factory=list)
    """Columns to return; empty means all."""
    limit: int | None = Field(default=None, ge=1)

    @model_validator(mode="after")
    def _bounded(self) -> QueryDSL:
        if any(w.depth() > MAX_DEPTH for w in self.wheres):
            raise ValueError(f"wheres nest deeper than {MAX_DEPTH} levels")
        return self

    def as_json(self) -> dict[str, Any]:
        """Return the JSON form (``or`` spelled as in the design docs, defaults left out)."""
        return self.model_dump(mode="json", by_alias=True, exclude_defaults=True)
