"""Say in one line what a DSL asks, so a reader can check how their question was understood.

The line is built from the DSL alone, so it describes the query that ran,
whoever wrote it (the builtin generator, an agent or the caller).

Example:
    >>> from unified_search.db.dsl import QueryDSL
    >>> describe(QueryDSL(model="books", wheres=[{"field": "price", "op": "<", "value": 20}], limit=3))
    'books where price < 20, first 3'
"""

from __future__ import annotations

from typing import Any

from unified_search.db.dsl import Aggregate, Join, Op, QueryDSL, Where, field_name

_OPS = {
    Op.EQ: "=",
    Op.NE: "≠",
    Op.GT: ">",
    Op.GE: "≥",
    Op.LT: "<",
    Op.LE: "≤",
    Op.LIKE: "contains",
    Op.NOT_LIKE: "does not contain",
    Op.IN: "is one of",
    Op.NOT_IN: "is none of",
    Op.IS_NULL: "is empty",
    Op.IS_NOT_NULL: "is not empty",
    Op.BETWEEN: "between",
}
#: Selected fields named in the line; the rest of a whole row is "…".
_SHOWN = 3
_FN = {"count": "number of", "sum": "sum of", "avg": "average", "min": "lowest", "max": "highest"}


def describe(dsl: QueryDSL) -> str:
    """Return a one-line English reading of ``dsl``."""
    scoped = {j.alias: j for j in dsl.joins if j.type in ("exists", "not exists")}
    chained = {j.alias: _root(j, scoped, dsl) for j in dsl.joins}
    main = [w for w in dsl.wheres if not _scopes(w, chained)]
    head = _head(dsl)
    parts = [head]
    if dsl.group_by:
        parts.append("per " + ", ".join(_grouping(dsl)))
    conditions = [condition(w) for w in main]
    for alias, join in scoped.items():
        inner = [condition(w) for w in dsl.wheres if alias in _scopes(w, chained)]
        related = join.model.rpartition(".")[2]
        phrase = ("without" if join.type == "not exists" else "with") + f" {related}"
        conditions.append(phrase + (f" ({' and '.join(inner)})" if inner else ""))
    if conditions:
        parts.append("where " + " and ".join(conditions))
    if dsl.having:
        parts.append("keeping " + " and ".join(condition(w) for w in dsl.having))
    line = " ".join(parts)
    tail = [_ordering(dsl)] if dsl.orders else []
    if dsl.limit:
        tail.append(f"first {dsl.limit}")
    return ", ".join([line, *tail])


def condition(where: Where) -> str:
    """Return one condition in words (groups in parentheses)."""
    parts: list[str] = []
    if where.field is not None and where.op is not None and where.than is not None:
        figure = where.than
        over = f" of {figure.model}" if figure.model else ""
        parts.append(
            f"{field_name(where.field)} {_OPS[where.op]} {_FN[figure.fn]} {figure.field}{over}"
        )
    elif where.field is not None and where.op is not None:
        parts.append(_test(field_name(where.field), where.op, where.value))
    parts += [condition(w) for w in where.wheres]
    own = " and ".join(parts)
    alternatives = [condition(w) for w in where.or_]
    if own and alternatives:
        return "(" + " or ".join([f"({own})" if len(parts) > 1 else own, *alternatives]) + ")"
    if alternatives:
        return "(" + " or ".join(alternatives) + ")" if len(alternatives) > 1 else alternatives[0]
    return own


def _test(name: str, op: Op, value: Any) -> str:
    if op in (Op.IS_NULL, Op.IS_NOT_NULL):
        return f"{name} {_OPS[op]}"
    if op is Op.BETWEEN:
        return f"{name} between {_value(value[0])} and {_value(value[1])}"
    if op in (Op.LIKE, Op.NOT_LIKE):
        text = str(value)
        verb = _OPS[op]
        if op is Op.LIKE and not text.startswith("%"):
            verb = "starts with"
        elif op is Op.LIKE and not text.endswith("%"):
            verb = "ends with"
        shown = text.strip("%").replace("\\%", "%").replace("\\_", "_").replace("%", "…")
        return f"{name} {verb} {_value(shown)}"
    if isinstance(value, list):
        return f"{name} {_OPS[op]} " + ", ".join(_value(v) for v in value)
    return f"{name} {_OPS[op]} {_value(value)}"


def _value(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    text = str(value)
    return f'"{text}"' if isinstance(value, str) and " " in text else text


def _head(dsl: QueryDSL) -> str:
    model = dsl.model
    if not dsl.aggregates:
        if dsl.select:
            names = [field_name(f) for f in dsl.select]
            shown = ", ".join(names[:_SHOWN]) + (", …" if len(names) > _SHOWN else "")
            return f"{'distinct ' if dsl.distinct else ''}{shown} of {model}"
        return model
    return ", ".join(_figure(a, model) for a in dsl.aggregates)


def _figure(aggregate: Aggregate, model: str) -> str:
    if aggregate.field is None:
        return f"number of {model}"
    what = field_name(aggregate.field)
    distinct = "distinct " if aggregate.distinct else ""
    if aggregate.fn == "count":
        return f"number of {distinct}{what} of {model}"
    return f"{_FN[aggregate.fn]} {distinct}{what} of {model}"


def _grouping(dsl: QueryDSL) -> list[str]:
    names = [field_name(g) for g in dsl.group_by]
    by_alias: dict[str, list[str]] = {}
    for name in names:
        alias, _, column = name.rpartition(".")
        by_alias.setdefault(alias, []).append(column)
    shown = []
    for alias, columns in by_alias.items():
        keyed = [c for c in columns if c != "id"] or columns
        shown += [f"{alias}.{c}" if alias else c for c in keyed]
    return shown


def _ordering(dsl: QueryDSL) -> str:
    keys = [
        f"{field_name(o.field)} {'highest' if o.sort == 'desc' else 'lowest'} first"
        for o in dsl.orders
    ]
    return ", then ".join(keys)


def _root(join: Join, scoped: dict[str, Join], dsl: QueryDSL) -> str | None:
    """The exists join a join belongs to, if any (joins chain through ``from``)."""
    seen: set[str] = set()
    current: Join | None = join
    while current is not None and current.alias not in seen:
        if current.alias in scoped:
            return current.alias
        seen.add(current.alias)
        current = next((j for j in dsl.joins if j.alias == current.from_), None)
    return None


def _scopes(where: Where, chained: dict[str, str | None]) -> set[str]:
    scopes = set()
    for field in where.fields():
        alias = field_name(field).rpartition(".")[0]
        root = chained.get(alias)
        if root is not None:
            scopes.add(root)
    return scopes
