"""The query DSL: a JSON-shaped description of a read-only query over one model and its relations.

A DSL never holds SQL. Field names are looked up in the reflected columns of
the queried and joined models by the compiler, operators and functions come
from closed lists, and values are bound as parameters, so nothing written here
can reach the database as code.

Semantics of one ``Where``: its own test (``field op value``) AND all of its
nested ``wheres``, OR any of the ``or`` alternatives. A ``Where`` without a
field is a pure group. ``QueryDSL.wheres`` are ANDed together.

Fields are named ``column`` (on the queried model) or ``alias.column`` (on a
joined model; the alias defaults to the joined model's name). Joins follow
foreign keys, declared or configured, at most two hops from the queried
model. A join of type ``exists`` / ``not exists`` does not add rows: it keeps
the rows that have (or have no) related row matching the wheres that name it.
With ``aggregates``, each answer row holds the ``group_by`` values and the
figures; ``having`` and ``orders`` may name a figure by its ``as`` name. A
``Where`` may compare its field with a figure over every row of a model
(``than``: the singers older than the average age) instead of a value.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from unified_search.types import Choice

#: Deepest nesting of ``or``/``wheres`` groups accepted (keeps compilation cheap and bounded).
MAX_DEPTH = 8
#: Most values accepted by ``in``/``not in``.
MAX_IN_VALUES = 1000
#: Most joins in one query, and the longest chain of joins from the queried model.
MAX_JOINS = 4
MAX_HOPS = 2
#: Most figures and grouping fields in one query.
MAX_AGGREGATES = 8


class Op(Choice):
    """The operators a condition may use; anything else is rejected.

    Example:
        >>> Op.from_str("NOT  LIKE")
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
    def _spelled(cls, value: object) -> str:
        """An operator is read in any case and spacing."""
        return " ".join(value.lower().split()) if isinstance(value, str) else ""


_NO_VALUE = frozenset({Op.IS_NULL, Op.IS_NOT_NULL})
_LIST_VALUE = frozenset({Op.IN, Op.NOT_IN})


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class FieldRef(_Model):
    """A column named with its table: the queried model, a joined model's alias, or a figure.

    Example:
        >>> FieldRef.model_validate({"field": "price", "table": "products"}).field
        'price'
    """

    field: str = Field(min_length=1, max_length=128)
    table: str | None = Field(default=None, max_length=128)


FieldLike = str | FieldRef


def field_name(field: FieldLike) -> str:
    """Return a field reference as written: ``column`` or ``alias.column``."""
    if isinstance(field, str):
        return field
    return f"{field.table}.{field.field}" if field.table else field.field


AggregateFn = Literal["count", "sum", "avg", "min", "max"]
_COMPARISONS = frozenset({Op.EQ, Op.NE, Op.GT, Op.GE, Op.LT, Op.LE})


class Overall(_Model):
    """A figure over every row of a model, compared with a field ("older than the average").

    Example:
        >>> Overall.model_validate({"fn": "avg", "field": "age"}).model is None
        True
    """

    fn: Literal["sum", "avg", "min", "max"]
    field: str = Field(min_length=1, max_length=128)
    """A column of ``model``."""
    model: str | None = Field(default=None, max_length=128)
    """The model the figure is computed over; ``None`` is the model of the compared field."""

    @field_validator("fn", mode="before")
    @classmethod
    def _lower(cls, value: object) -> object:
        return value.strip().lower() if isinstance(value, str) else value


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
    than: Overall | None = None
    """Compare with a figure over all rows instead of a value: ``{"fn": "avg", "field": "age"}``."""
    or_: list[Where] = Field(default_factory=list, alias="or")
    """Alternatives: the condition holds when this one or any of these holds."""
    wheres: list[Where] = Field(default_factory=list)
    """Nested conditions that must all hold together with this one."""

    @field_validator("op", mode="before")
    @classmethod
    def _parse_op(cls, value: object) -> Op | None:
        return None if value is None else Op.from_str(value)

    @model_validator(mode="before")
    @classmethod
    def _default_op(cls, data: Any) -> Any:
        if isinstance(data, dict) and data.get("field") is not None and data.get("op") is None:
            return {**data, "op": Op.EQ}
        return data

    @model_validator(mode="after")
    def _than(self) -> Where:
        if self.than is None:
            return self
        if self.field is None or self.op not in _COMPARISONS:
            raise ValueError("'than' needs a field and one of the ops =, !=, >, >=, <, <=")
        if self.value is not None:
            raise ValueError("give a value or 'than', not both")
        return self

    @model_validator(mode="after")
    def _consistent(self) -> Where:
        if self.field is None:
            if self.op is not None or self.value is not None:
                raise ValueError("op and value need a field")
            if not (self.or_ or self.wheres):
                raise ValueError("a where needs a field, or a group in 'or' or 'wheres'")
        elif self.op is not None and self.than is None:
            _check_value_shape(self.op, self.value)
        return self

    def depth(self) -> int:
        """Return how deeply groups nest below this condition (0 for a plain condition)."""
        children = [*self.or_, *self.wheres]
        return 1 + max(c.depth() for c in children) if children else 0

    def fields(self) -> list[FieldLike]:
        """Return every field this condition and its groups name."""
        own = [self.field] if self.field is not None else []
        return own + [f for child in (*self.or_, *self.wheres) for f in child.fields()]


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
    """One ordering key; ``{"field", "order"}`` is accepted as a spelling of ``{"field", "sort"}``.

    Example:
        >>> Order.model_validate({"field": "price", "order": "DESC"}).sort
        'desc'
    """

    field: FieldLike
    sort: Literal["asc", "desc"] = "asc"

    @model_validator(mode="before")
    @classmethod
    def _order_spelling(cls, data: Any) -> Any:
        if isinstance(data, dict) and "order" in data:
            if "sort" in data:
                raise ValueError("give the direction once: 'sort' or 'order', not both")
            data = {**{k: v for k, v in data.items() if k != "order"}, "sort": data["order"]}
        return data

    @field_validator("sort", mode="before")
    @classmethod
    def _lower(cls, value: object) -> object:
        return value.strip().lower() if isinstance(value, str) else value


JoinType = Literal["inner", "left", "exists", "not exists"]


class Join(_Model):
    """A related model reached along one foreign key.

    Example:
        >>> Join.model_validate({"model": "customers"}).alias
        'customers'
    """

    model: str = Field(min_length=1, max_length=128)
    from_: str | None = Field(default=None, alias="from", max_length=128)
    """Alias of the model this join starts from; ``None`` is the queried model."""
    on: str | None = Field(default=None, max_length=260)
    """The foreign-key column linking the two (``column`` looked up on the ``from`` side first,
    or ``alias.column``); ``None`` when exactly one foreign key links them."""
    as_: str | None = Field(default=None, alias="as", min_length=1, max_length=128)
    """Name the joined model goes by in fields; defaults to the model name."""
    type: JoinType = "inner"

    @field_validator("type", mode="before")
    @classmethod
    def _spelling(cls, value: object) -> object:
        return " ".join(value.lower().split()) if isinstance(value, str) else value

    @property
    def alias(self) -> str:
        """The name fields use for this join."""
        return self.as_ or self.model


class Aggregate(_Model):
    """One figure computed over the matching rows (per group with ``group_by``).

    Example:
        >>> Aggregate.model_validate({"fn": "avg", "field": "price"}).name
        'avg_price'
    """

    fn: AggregateFn
    field: FieldLike | None = None
    """Column aggregated; ``None`` only for ``count`` (count the rows)."""
    distinct: bool = False
    """Aggregate distinct values only (``count`` of distinct customers)."""
    as_: str | None = Field(default=None, alias="as", min_length=1, max_length=64)
    """Name of the figure in answers, ``having`` and ``orders``."""

    @field_validator("fn", mode="before")
    @classmethod
    def _lower(cls, value: object) -> object:
        return value.strip().lower() if isinstance(value, str) else value

    @model_validator(mode="after")
    def _needs_field(self) -> Aggregate:
        if self.field is None and self.fn != "count":
            raise ValueError(f"{self.fn} needs a field")
        return self

    @property
    def name(self) -> str:
        """The figure's name: ``as``, else ``fn_column`` (``count`` when counting rows)."""
        if self.as_:
            return self.as_
        if self.field is None:
            return self.fn
        return f"{self.fn}_{field_name(self.field).replace('.', '_')}"


class QueryDSL(_Model):
    """A whole query over one model.

    Example:
        >>> dsl = QueryDSL(model="products", wheres=[{"field": "price", "op": "<", "value": 100}])
        >>> dsl.as_json()["wheres"]
        [{'field': 'price', 'op': '<', 'value': 100}]
    """

    model: str = Field(min_length=1, max_length=128)
    joins: list[Join] = Field(default_factory=list, max_length=MAX_JOINS)
    wheres: list[Where] = Field(default_factory=list)
    orders: list[Order] = Field(default_factory=list)
    select: list[FieldLike] = Field(default_factory=list)
    """Columns to return; empty means all columns of the queried model."""
    aggregates: list[Aggregate] = Field(default_factory=list, max_length=MAX_AGGREGATES)
    group_by: list[FieldLike] = Field(default_factory=list, max_length=MAX_AGGREGATES)
    having: list[Where] = Field(default_factory=list)
    """Conditions on figures (by name) or grouping fields, tested after grouping."""
    distinct: bool = False
    """Drop duplicate answer rows (for example rows repeated by a join)."""
    limit: int | None = Field(default=None, ge=1)

    @model_validator(mode="after")
    def _bounded(self) -> QueryDSL:
        if any(w.depth() > MAX_DEPTH for w in [*self.wheres, *self.having]):
            raise ValueError(f"wheres nest deeper than {MAX_DEPTH} levels")
        if (self.group_by or self.having) and not self.aggregates:
            raise ValueError("group_by and having need aggregates")
        if self.aggregates and self.select:
            raise ValueError("with aggregates, answers hold group_by and the figures; drop select")
        names = [a.name for a in self.aggregates]
        if len(set(names)) != len(names):
            raise ValueError(f"figures need distinct names; got {', '.join(names)}")
        aliases = [j.alias for j in self.joins]
        if len(set(aliases)) != len(aliases) or self.model in aliases:
            raise ValueError("each join needs its own name: set 'as' when a model is joined twice")
        return self

    def as_json(self) -> dict[str, Any]:
        """Return the JSON form (``or``/``from``/``as`` spelled as in the docs, defaults left out)."""
        return self.model_dump(mode="json", by_alias=True, exclude_defaults=True)
