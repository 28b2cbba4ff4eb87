"""Turn a validated DSL into a SQLAlchemy Core ``select`` over one model.

Only reflected columns can appear: a field name is a dictionary key, never
text spliced into SQL. Every value is coerced to the column's type and bound
as a parameter. The permission filter comes from the caller's context and is
ANDed around everything the DSL says, so no ``or`` can escape it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import sqlalchemy as sa
from sqlalchemy.sql.elements import ColumnElement

from unified_search.db.dsl import FieldLike, Op, QueryDSL, Where
from unified_search.db.schema import ColumnInfo, ModelSchema
from unified_search.db.values import coerce, coerce_text
from unified_search.errors import ErrorCode, SearchError

Condition = ColumnElement[bool]
#: Escape character of ``like`` patterns on every database (``\\%`` is a literal percent sign).
LIKE_ESCAPE = "\\"
_Builder = Callable[[sa.ColumnElement[Any], ColumnInfo, Any], Condition]


def compile_dsl(
    dsl: QueryDSL, schema: ModelSchema, *, max_results: int, user: Mapping[str, Any]
) -> sa.Select[Any]:
    """Build the ``select`` for ``dsl``; raise INVALID_QUERY for anything not allowed.

    Example:
        >>> compile_dsl(QueryDSL(model="products"), schema, max_results=20, user={})  # doctest: +SKIP
    """
    if dsl.model != schema.name:
        raise SearchError(
            ErrorCode.INVALID_QUERY, f"DSL is for model {dsl.model!r}, not {schema.name!r}"
        )
    conditions = [where_clause(w, schema) for w in dsl.wheres]
    conditions += permission_clauses(schema, user)
    query = sa.select(*select_columns(dsl, schema)).where(*conditions)
    query = query.order_by(*order_clauses(dsl, schema))
    return query.limit(min(dsl.limit or max_results, max_results))


def resolve(field: FieldLike, schema: ModelSchema) -> ColumnInfo:
    """Return the column a field names; a foreign table is refused (no joins)."""
    if not isinstance(field, str) and field.table not in (None, schema.name):
        raise SearchError(
            ErrorCode.INVALID_QUERY,
            f"field {field.field!r} names table {field.table!r}; only {schema.name!r} can be queried",
        )
    return schema.column(field if isinstance(field, str) else field.field)


def select_columns(dsl: QueryDSL, schema: ModelSchema) -> list[sa.ColumnElement[Any]]:
    """Return the asked-for columns plus the primary key (rows need an ID to be cited)."""
    names = [resolve(f, schema).name for f in dsl.select] or list(schema.columns)
    wanted = list(dict.fromkeys([*names, *schema.primary_key]))
    return [schema.table.c[name] for name in wanted]


def order_clauses(dsl: QueryDSL, schema: ModelSchema) -> list[sa.ColumnElement[Any]]:
    """Return the ordering, ending with the primary key so results are stable."""
    clauses: list[sa.ColumnElement[Any]] = []
    for order in dsl.orders:
        column = schema.table.c[resolve(order.field, schema).name]
        clauses.append(column.desc() if order.sort == "desc" else column.asc())
    clauses += [schema.table.c[name].asc() for name in schema.primary_key]
    return clauses


def where_clause(where: Where, schema: ModelSchema) -> Condition:
    """Compile one condition: its own test AND its nested wheres, OR its alternatives."""
    parts: list[Condition] = []
    if where.field is not None:
        parts.append(_test(where, schema))
    parts += [where_clause(w, schema) for w in where.wheres]
    own = sa.and_(*parts) if len(parts) > 1 else parts[0] if parts else None
    alternatives = [where_clause(w, schema) for w in where.or_]
    branches = ([own] if own is not None else []) + alternatives
    return sa.or_(*branches) if len(branches) > 1 else branches[0]


def _test(where: Where, schema: ModelSchema) -> Condition:
    assert where.field is not None and where.op is not None  # guaranteed by Where validation
    info = resolve(where.field, schema)
    return _BUILDERS[where.op](schema.table.c[info.name], info, where.value)


def permission_clauses(schema: ModelSchema, user: Mapping[str, Any]) -> list[Condition]:
    """Return ``column = user[key]`` for each permission pair; a missing value refuses the query."""
    clauses: list[Condition] = []
    for column_name, key in schema.settings.permission.items():
        value = user.get(key)
        if value is None:
            raise SearchError(
                ErrorCode.INVALID_QUERY,
                f"model {schema.name!r} requires {key!r} in the caller's context; nothing was queried",
            )
        info = schema.column(column_name)
        clauses.append(schema.table.c[column_name] == coerce(info, value))
    return clauses


def _like(column: sa.ColumnElement[Any], info: ColumnInfo, value: Any) -> Condition:
    _text_only(info)
    return column.ilike(coerce_text(info, value), escape=LIKE_ESCAPE)


def _not_like(column: sa.ColumnElement[Any], info: ColumnInfo, value: Any) -> Condition:
    _text_only(info)
    return sa.not_(column.ilike(coerce_text(info, value), escape=LIKE_ESCAPE))


def _text_only(info: ColumnInfo) -> None:
    if info.kind != "str":
        raise SearchError(
            ErrorCode.INVALID_QUERY, f"like needs a text field; {info.name!r} is {info.kind}"
        )


def _between(column: sa.ColumnElement[Any], info: ColumnInfo, value: Any) -> Condition:
    low, high = (coerce(info, v) for v in value)
    return column.between(low, high)


def _in(column: sa.ColumnElement[Any], info: ColumnInfo, value: Any) -> Condition:
    return column.in_([coerce(info, v) for v in value])


def _not_in(column: sa.ColumnElement[Any], info: ColumnInfo, value: Any) -> Condition:
    return column.not_in([coerce(info, v) for v in value])


def _compare(op: Callable[[Any, Any], Any]) -> _Builder:
    def build(column: sa.ColumnElement[Any], info: ColumnInfo, value: Any) -> Condition:
        result: Condition = op(column, coerce(info, value))
        return result

    return build


_BUILDERS: dict[Op, _Builder] = {
    Op.EQ: _compare(lambda c, v: c == v),
    Op.NE: _compare(lambda c, v: c != v),
    Op.GT: _compare(lambda c, v: c > v),
    Op.GE: _compare(lambda c, v: c >= v),
    Op.LT: _compare(lambda c, v: c < v),
    Op.LE: _compare(lambda c, v: c <= v),
    Op.LIKE: _like,
    Op.NOT_LIKE: _not_like,
    Op.IN: _in,
    Op.NOT_IN: _not_in,
    Op.IS_NULL: lambda c, i, v: c.is_(None),
    Op.IS_NOT_NULL: lambda c, i, v: c.is_not(None),
    Op.BETWEEN: _between,
}
