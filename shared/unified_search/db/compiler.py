"""Turn a validated DSL into one SQLAlchemy Core ``select``.

Only reflected columns of exposed models can appear: a field name is a
dictionary key, never text spliced into SQL, and every table gets an internal
alias (``t0``, ``t1`` …) and every answer column an internal label (``c0`` …),
so no name from a DSL reaches the SQL text. Joins follow foreign keys between
exposed models only, at most two hops from the queried model; each joined
model's permission filter is part of its join condition.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa

from unified_search.db.conditions import Condition, Resolved, permission_clauses, where_clause
from unified_search.db.dsl import (
    MAX_HOPS,
    Aggregate,
    FieldLike,
    Join,
    Overall,
    QueryDSL,
    field_name,
)
from unified_search.db.relations import Relations, Step
from unified_search.db.schema import ColumnInfo, ModelSchema
from unified_search.errors import ErrorCode, SearchError

Catalog = Mapping[str, ModelSchema]
_NUMBERS = ("int", "float")
_ORDERED = ("int", "float", "date", "datetime", "str")


@dataclass(frozen=True)
class Compiled:
    """A compiled query and how to read its answer rows.

    Example:
        Not run here: ``models`` is a catalog reflected from a database.

        >>> compiled = compile_dsl(QueryDSL(model="products"), models, max_results=5, user={})  # doctest: +SKIP
        >>> compiled.keys[:2]  # doctest: +SKIP
        ('id', 'name')
    """

    statement: sa.Select[Any]
    keys: tuple[str, ...]
    """Answer keys, in the statement's column order (``column``, ``alias.column``, figure names)."""
    hidden: frozenset[str] = frozenset()
    """Keys fetched only to cite the row (the primary key when ``select`` left it out)."""
    figures: bool = False
    """Answer rows are figures or distinct values, not rows of the queried model."""

    def named(self, row: Mapping[str, Any]) -> dict[str, Any]:
        """Return a fetched row keyed by answer keys instead of internal labels."""
        return {key: row[f"c{i}"] for i, key in enumerate(self.keys)}


@dataclass
class _Source:
    """One model in the query under its DSL name."""

    alias: str
    schema: ModelSchema
    table: sa.FromClause
    hops: int
    scope: int
    """0 for the rows' own scope; each ``exists`` join opens a numbered scope."""
    join: Join | None = None
    condition: list[Condition] = field(default_factory=list)


def compile_dsl(
    dsl: QueryDSL, models: Catalog, *, max_results: int, user: Mapping[str, Any]
) -> Compiled:
    """Build the ``select`` for ``dsl`` over the exposed ``models``; raise INVALID_QUERY otherwise.

    Example:
        Not run here: ``models`` is a catalog reflected from a database.

        >>> compile_dsl(QueryDSL(model="products"), models, max_results=20, user={})  # doctest: +SKIP
    """
    return _Query(dsl, models, user).compile(max_results)


class _Query:
    def __init__(self, dsl: QueryDSL, models: Catalog, user: Mapping[str, Any]) -> None:
        if dsl.model not in models:
            known = ", ".join(models) or "none"
            raise SearchError(
                ErrorCode.INVALID_QUERY, f"unknown model {dsl.model!r}; available models: {known}"
            )
        self.dsl = dsl
        self.models = models
        self.user = user
        self.relations = Relations(models)
        base = models[dsl.model]
        self.base = _Source(dsl.model, base, base.table.alias("t0"), 0, 0)
        self.sources = {dsl.model: self.base}
        self.scopes = 0
        self.overalls = 0
        for join in dsl.joins:
            self._add(join)
        self.figures = {a.name: self._figure(a) for a in dsl.aggregates}

    # -- joins ----------------------------------------------------------------------------

    def _add(self, join: Join) -> None:
        start = self.sources.get(join.from_ or self.dsl.model)
        if start is None:
            raise SearchError(
                ErrorCode.INVALID_QUERY,
                f"join {join.alias!r} starts from {join.from_!r}, which is not joined before it; "
                f"names so far: {', '.join(self.sources)}",
            )
        if join.model not in self.models:
            raise SearchError(
                ErrorCode.INVALID_QUERY,
                f"model {join.model!r} cannot be joined; models reachable from {start.schema.name!r}: "
                f"{', '.join(self._reachable(start.schema.name)) or 'none'}",
            )
        if start.hops + 1 > MAX_HOPS:
            raise SearchError(
                ErrorCode.INVALID_QUERY,
                f"join {join.alias!r} is {start.hops + 1} hops from {self.dsl.model!r}; "
                f"at most {MAX_HOPS} are allowed",
            )
        scope = self._scope(start, join)
        schema = self.models[join.model]
        table = schema.table.alias(f"t{len(self.sources)}")
        step = self._step(start, join)
        condition = [table.c[step.end_column] == start.table.c[step.start_column]]
        condition += permission_clauses(schema, self.user, table)
        self.sources[join.alias] = _Source(
            join.alias, schema, table, start.hops + 1, scope, join, condition
        )

    def _scope(self, start: _Source, join: Join) -> int:
        if start.scope:
            if join.type != "inner":
                raise SearchError(
                    ErrorCode.INVALID_QUERY,
                    f"join {join.alias!r} continues an exists join; it must be of type inner",
                )
            return start.scope
        if join.type in ("exists", "not exists"):
            self.scopes += 1
            return self.scopes
        return 0

    def _step(self, start: _Source, join: Join) -> Step:
        steps = [s for s in self.relations.steps_from(start.schema.name) if s.end == join.model]
        choices = {_on_name(s, start.alias, join.alias): s for s in steps}
        if join.on is not None:
            side, _, column = join.on.rpartition(".")
            chosen = [
                s
                for name, s in choices.items()
                if name == join.on or (not side and s.link.column == column)
            ]
            forward = [s for s in chosen if s.forward]  # a plain column: the from side first
            chosen = forward or chosen
        else:
            chosen = steps
        if len(chosen) != 1:
            listed = ", ".join(choices) or "none"
            problem = "no foreign key links" if not chosen else "several foreign keys link"
            raise SearchError(
                ErrorCode.INVALID_QUERY,
                f"{problem} {start.alias!r} and {join.model!r} as asked; "
                f"set 'on' to one of: {listed}",
            )
        return chosen[0]

    def _reachable(self, model: str) -> list[str]:
        return sorted({s.end for s in self.relations.steps_from(model)})

    # -- fields ---------------------------------------------------------------------------

    def resolve(self, ref: FieldLike, *, rows_only: bool = False) -> Resolved:
        """Return the SQL column a field names (and, with ``rows_only``, refuse exists joins)."""
        source, info = self._locate(ref)
        if rows_only and source.scope:
            raise SearchError(
                ErrorCode.INVALID_QUERY,
                f"field {field_name(ref)!r} belongs to an exists join; it can only be tested in wheres",
            )
        return source.table.c[info.name], info

    def _locate(self, ref: FieldLike) -> tuple[_Source, ColumnInfo]:
        if not isinstance(ref, str):
            source = self.sources.get(ref.table or self.dsl.model)
            if source is None:
                raise self._unjoined(field_name(ref), ref.table or "")
            return source, source.schema.column(ref.field)
        if ref in self.base.schema.columns:
            return self.base, self.base.schema.columns[ref]
        for alias in sorted(self.sources, key=len, reverse=True):  # model names may hold dots
            if ref.startswith(f"{alias}."):
                source = self.sources[alias]
                return source, source.schema.column(ref[len(alias) + 1 :])
        if "." in ref:
            raise self._unjoined(ref, ref.rpartition(".")[0])
        return self.base, self.base.schema.column(ref)

    def _unjoined(self, ref: str, alias: str) -> SearchError:
        return SearchError(
            ErrorCode.INVALID_QUERY,
            f"unknown field {ref!r}: {alias!r} is neither the queried model nor a join; "
            f"names: {', '.join(self.sources)}; joinable models from {self.dsl.model!r}: "
            f"{', '.join(self._reachable(self.dsl.model)) or 'none'}",
        )

    def _key(self, ref: FieldLike) -> str:
        source, info = self._locate(ref)
        return info.name if source is self.base else f"{source.alias}.{info.name}"

    def _figure(self, aggregate: Aggregate) -> Resolved:
        if aggregate.field is None:
            return sa.func.count(), _figure_info(aggregate.name, "int")
        column, info = self.resolve(aggregate.field, rows_only=True)
        _figure_kind(aggregate.fn, info)
        argument = column.distinct() if aggregate.distinct else column
        function = getattr(sa.func, aggregate.fn)
        kind = {"count": "int", "avg": "float"}.get(aggregate.fn, info.kind)
        return function(argument), _figure_info(aggregate.name, kind)

    def _overall(self, figure: Overall, compared: FieldLike) -> sa.ColumnElement[Any]:
        """A figure over every row of a model the caller may see, as a scalar subquery."""
        model = figure.model or self._locate(compared)[0].schema.name
        if model not in self.models:
            raise SearchError(
                ErrorCode.INVALID_QUERY,
                f"'than' names model {model!r}, which is not exposed; models: {', '.join(self.models)}",
            )
        schema = self.models[model]
        self.overalls += 1
        table = schema.table.alias(f"o{self.overalls}")
        info = schema.column(figure.field)
        _figure_kind(figure.fn, info)
        value = getattr(sa.func, figure.fn)(table.c[info.name])
        query = sa.select(value).select_from(table)
        return query.where(*permission_clauses(schema, self.user, table)).scalar_subquery()

    def _resolve_after_grouping(self, ref: FieldLike) -> Resolved:
        if isinstance(ref, str) and ref in self.figures:
            return self.figures[ref]
        key = self._key(ref)
        if key not in {self._key(g) for g in self.dsl.group_by}:
            names = [*self.figures, *(self._key(g) for g in self.dsl.group_by)]
            raise SearchError(
                ErrorCode.INVALID_QUERY,
                f"after grouping only figures and group_by fields can be used; {key!r} is neither "
                f"(use one of: {', '.join(names)})",
            )
        return self.resolve(ref, rows_only=True)

    # -- assembly -------------------------------------------------------------------------

    def compile(self, max_results: int) -> Compiled:
        columns, keys, hidden = self._columns()
        statement = sa.select(*(c.label(f"c{i}") for i, c in enumerate(columns)))
        statement = statement.select_from(self._from()).where(*self._conditions())
        if self.dsl.aggregates:
            groups = [self.resolve(g, rows_only=True)[0] for g in self.dsl.group_by]
            statement = statement.group_by(*groups).having(
                *(where_clause(w, self._resolve_after_grouping) for w in self.dsl.having)
            )
        elif self.dsl.distinct:
            statement = statement.distinct()
        statement = statement.order_by(*self._orders(columns, keys))
        statement = statement.limit(min(self.dsl.limit or max_results, max_results))
        figures = bool(self.dsl.aggregates) or (self.dsl.distinct and bool(self.dsl.select))
        return Compiled(statement, tuple(keys), frozenset(hidden), figures)

    def _columns(self) -> tuple[list[sa.ColumnElement[Any]], list[str], list[str]]:
        if self.dsl.aggregates:
            refs = list(self.dsl.group_by)
            columns = [self.resolve(r, rows_only=True)[0] for r in refs]
            keys = [self._key(r) for r in refs]
            columns += [expr for expr, _ in self.figures.values()]
            keys += list(self.figures)
            if len(set(keys)) != len(keys):
                raise SearchError(ErrorCode.INVALID_QUERY, f"answer names repeat: {keys}")
            return columns, keys, []
        refs = list(self.dsl.select) or list(self.base.schema.columns)
        keys = list(dict.fromkeys(self._key(r) for r in refs))
        hidden: list[str] = []
        if not (self.dsl.distinct and self.dsl.select):  # rows carry their key to be cited
            hidden = [k for k in self.base.schema.primary_key if k not in keys]
            keys += hidden
        columns = [self.resolve(k, rows_only=True)[0] for k in keys]
        return columns, keys, hidden

    def _from(self) -> sa.FromClause:
        joined: sa.FromClause = self.base.table
        for source in self.sources.values():
            if source.join is not None and source.scope == 0:
                joined = joined.join(
                    source.table, sa.and_(*source.condition), isouter=source.join.type == "left"
                )
        return joined

    def _conditions(self) -> list[Condition]:
        main = permission_clauses(self.base.schema, self.user, self.base.table)
        scoped: dict[int, list[Condition]] = {}
        for where in self.dsl.wheres:
            scopes = {self._locate(f)[0].scope for f in where.fields()} - {0}
            if len(scopes) > 1:
                raise SearchError(
                    ErrorCode.INVALID_QUERY,
                    "one where cannot test fields of two different exists joins; split it",
                )
            clause = where_clause(where, self.resolve, self._overall)
            (scoped.setdefault(scopes.pop(), []) if scopes else main).append(clause)
        return main + [self._exists(scope, scoped.get(scope, [])) for scope in self._scope_ids()]

    def _scope_ids(self) -> list[int]:
        return sorted({s.scope for s in self.sources.values() if s.scope})

    def _exists(self, scope: int, conditions: list[Condition]) -> Condition:
        members = [s for s in self.sources.values() if s.scope == scope]
        root, rest = members[0], members[1:]
        inside: sa.FromClause = root.table
        for source in rest:
            inside = inside.join(source.table, sa.and_(*source.condition))
        test = sa.exists(sa.select(sa.literal(1)).select_from(inside)).where(
            *root.condition, *conditions
        )
        assert root.join is not None
        return ~test if root.join.type == "not exists" else test

    def _orders(
        self, columns: list[sa.ColumnElement[Any]], keys: list[str]
    ) -> list[sa.ColumnElement[Any]]:
        clauses: list[sa.ColumnElement[Any]] = []
        for order in self.dsl.orders:
            if self.dsl.aggregates:
                column = self._resolve_after_grouping(order.field)[0]
            else:
                column = self.resolve(order.field, rows_only=True)[0]
                if self.dsl.distinct and self._key(order.field) not in keys:
                    raise SearchError(
                        ErrorCode.INVALID_QUERY,
                        f"with distinct, order by answer fields only ({', '.join(keys)})",
                    )
            # Empty values last on every database (PostgreSQL would put them first when descending).
            clauses.append((column.desc() if order.sort == "desc" else column.asc()).nulls_last())
        # A stable tie-break: the row key, else the answer's own columns.
        if self.dsl.aggregates:
            clauses += [self.resolve(g, rows_only=True)[0].asc() for g in self.dsl.group_by]
        elif self.dsl.distinct and self.dsl.select:
            clauses += [c.asc() for c in columns]
        else:
            clauses += [self.base.table.c[k].asc() for k in self.base.schema.primary_key]
        return clauses


def _on_name(step: Step, start: str, end: str) -> str:
    """How a join's ``on`` names this step: the foreign-key column on its own side."""
    return f"{start if step.forward else end}.{step.link.column}"


def _figure_kind(fn: str, info: ColumnInfo) -> None:
    """Refuse a figure its column cannot give: a sum of text, an average of dates."""
    allowed = _NUMBERS if fn in ("sum", "avg") else _ORDERED
    if fn != "count" and info.kind not in allowed:
        raise SearchError(
            ErrorCode.INVALID_QUERY,
            f"{fn} needs a {' or '.join(allowed)} field; {info.name!r} is {info.kind}",
        )


def _figure_info(name: str, kind: Any) -> ColumnInfo:
    return ColumnInfo(name, kind, kind, nullable=True, primary_key=False)
