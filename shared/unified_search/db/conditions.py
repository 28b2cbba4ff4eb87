"""Compile one DSL condition into SQL over columns the compiler has already resolved.

Every value is coerced to the column's type and bound as a parameter. The
permission filter comes from the caller's context and is ANDed around
everything the DSL says, so no ``or`` can escape it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import sqlalchemy as sa
from sqlalchemy.sql.elements import ColumnElement

from unified_search.db.dsl import FieldLike, Op, Overall, Where
from unified_search.db.schema import ColumnInfo, ModelSchema
from unified_search.db.values import coerce, coerce_text
from unified_search.errors import ErrorCode, SearchError

Condition = ColumnElement[bool]
#: A resolved field: the SQL expression and what it holds.
Resolved = tuple[sa.ColumnElement[Any], ColumnInfo]
Resolver = Callable[[FieldLike], Resolved]
#: Compiles the figure a ``than`` names, for the field it is compared with.
OverallFigure = Callable[[Overall, FieldLike], sa.ColumnElement[Any]]
#: Escape character of ``like`` patterns on every database (``\\%`` is a literal percent sign).
LIKE_ESCAPE = "\\"
_Builder = Callable[[sa.ColumnElement[Any], ColumnInfo, Any], Condition]


def where_clause(
    where: Where, resolve: Resolver, overall: OverallFigure | None = None
) -> Condition:
    """Compile one condition: its own test AND its nested wheres, OR its alternatives.

    ``overall`` compiles the figure a condition's ``than`` compares with; without it such a
    condition is refused (figures over all rows have no meaning after grouping).
    """
    parts: list[Condition] = []
    if where.field is not None:
        assert where.op is not None  # guaranteed by Where validation
        column, info = resolve(where.field)
        if where.than is None:
            parts.append(_BUILDERS[where.op](column, info, where.value))
        elif overall is None:
            raise SearchError(
                ErrorCode.INVALID_QUERY, "'than' compares rows before grouping: use it in wheres"
            )
        else:
            parts.append(_COMPARE[where.op](column, overall(where.than, where.field)))
    parts += [where_clause(w, resolve, overall) for w in where.wheres]
    own = sa.and_(*parts) if len(parts) > 1 else parts[0] if parts else None
    alternatives = [where_clause(w, resolve, overall) for w in where.or_]
    branches = ([own] if own is not None else []) + alternatives
    return sa.or_(*branches) if len(branches) > 1 else branches[0]


def permission_clauses(
    schema: ModelSchema, user: Mapping[str, Any], table: sa.FromClause | None = None
) -> list[Condition]:
    """Return ``column = user[key]`` for each permission pair; a missing value refuses the query."""
    source = schema.table if table is None else table
    clauses: list[Condition] = []
    for column_name, key in schema.settings.permission.items():
        value = user.get(key)
        if value is None:
            raise SearchError(
                ErrorCode.INVALID_QUERY,
                f"model {schema.name!r} requires {key!r} in the caller's context; nothing was queried",
            )
        info = schema.column(column_name)
        clauses.append(source.c[column_name] == coerce(info, value))
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


_COMPARE: dict[Op, Callable[[Any, Any], Condition]] = {
    Op.EQ: lambda c, v: c == v,
    Op.NE: lambda c, v: c != v,
    Op.GT: lambda c, v: c > v,
    Op.GE: lambda c, v: c >= v,
    Op.LT: lambda c, v: c < v,
    Op.LE: lambda c, v: c <= v,
}


def _compare(op: Callable[[Any, Any], Any]) -> _Builder:
    def build(column: sa.ColumnElement[Any], info: ColumnInfo, value: Any) -> Condition:
        result: Condition = op(column, coerce(info, value))
        return result

    return build


_BUILDERS: dict[Op, _Builder] = {
    **{op: _compare(compare) for op, compare in _COMPARE.items()},
    Op.LIKE: _like,
    Op.NOT_LIKE: _not_like,
    Op.IN: _in,
    Op.NOT_IN: _not_in,
    Op.IS_NULL: lambda c, i, v: c.is_(None),
    Op.IS_NOT_NULL: lambda c, i, v: c.is_not(None),
    Op.BETWEEN: _between,
}
