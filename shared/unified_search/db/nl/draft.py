"""A DSL being drafted for one subject, with the joins its conditions need.

A field of another model is reached along the shortest foreign-key path (at
most two hops, preferring models the question names). A condition across a
one-to-many link goes into an ``exists`` join: "customers who ordered a
cooking book" keeps the customers having such an order, once each; a negated
one becomes ``not exists``. Fields used for grouping or ordering are joined
plainly, and a count over a one-to-many join counts distinct rows.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from unified_search.db.dsl import Aggregate, Join, Op, Order, QueryDSL, Where
from unified_search.db.nl.lexicon import DIRECTION_WORDS
from unified_search.db.nl.text import name_words
from unified_search.db.nl.vocabulary import Domain
from unified_search.db.relations import Step
from unified_search.db.schema import ModelSchema

Placed = tuple[str, "Branch | None"]


@dataclass
class Branch:
    """Conditions on rows reached across a one-to-many link: one ``exists`` join."""

    key: str
    aliases: tuple[str, ...] = ()
    """The joins of the branch, from its ``exists`` root to the model the conditions test."""
    path: tuple[Step, ...] = ()
    negated: bool = False
    wheres: list[Where] = field(default_factory=list)


@dataclass
class Draft:
    """The parts of a DSL for ``subject``, filled in by the planner.

    Example:
        Not run here: ``domain`` is read from a reflected database.

        >>> draft = Draft(domain, "orders")  # doctest: +SKIP
        >>> draft.field("customers", "city")  # doctest: +SKIP
        ('customers.city', None)
    """

    domain: Domain
    subject: str
    wheres: list[Where] = field(default_factory=list)
    joins: dict[str, Join] = field(default_factory=dict)
    branches: dict[str, Branch] = field(default_factory=dict)
    orders: list[Order] = field(default_factory=list)
    aggregates: list[Aggregate] = field(default_factory=list)
    group_by: list[str] = field(default_factory=list)
    having: list[Where] = field(default_factory=list)
    select: list[str] = field(default_factory=list)
    shown: list[str] = field(default_factory=list)
    """Fields the question asks to see: they come first in each answer row."""
    distinct: bool = False
    limit: int | None = None
    keyword_wheres: list[Where] = field(default_factory=list)
    """Text tests of the subject's own keywords (every one must match)."""
    keyword_any: list[Where] = field(default_factory=list)
    """The same tests flattened, for the any-keyword retry."""
    named: frozenset[str] = frozenset()
    """Models the question names: a join path through them is preferred."""
    ambiguous: list[str] = field(default_factory=list)
    """Models reached by one of several foreign keys that nothing in the question chose."""

    @property
    def schema(self) -> ModelSchema:
        """The subject's schema."""
        return self.domain.models[self.subject]

    # -- reaching models ------------------------------------------------------------------

    def reachable(self, model: str) -> bool:
        """Tell whether ``model`` is the subject or at most two foreign keys away."""
        return model == self.subject or bool(self.domain.relations.paths(self.subject, model))

    def one_to_one(self, model: str) -> bool:
        """Tell whether each subject row reaches at most one row of ``model`` (forward links only)."""
        paths = self.domain.relations.paths(self.subject, model)
        return bool(paths) and all(s.forward for s in paths[0])

    def field(
        self, model: str, column: str, *, condition: bool = True, hint: str | None = None
    ) -> Placed | None:
        """Return how the DSL names ``model.column`` (joining as needed) and its exists branch."""
        if model == self.subject:
            return column, None
        paths = self.domain.relations.paths(self.subject, model)
        if not paths:
            return None
        path = self._preferred(paths, hint)
        if condition and not all(step.forward for step in path):
            alias, branch = self._branch(path)
            return f"{alias}.{column}", branch
        return f"{self._plain(path)}.{column}", None

    def joined(self, model: str) -> str | None:
        """Join ``model`` plainly and return its alias (for grouping by its rows)."""
        paths = self.domain.relations.paths(self.subject, model)
        return self._plain(self._preferred(paths)) if paths else None

    def alias_of(self, model: str) -> str | None:
        """The alias of a plain join already reaching ``model``, if any."""
        return next(
            (a for a, j in self.joins.items() if j.model == model and j.type == "inner"), None
        )

    def by_role(self, role: str, model: str, column: str) -> Placed:
        """Reach ``model`` through the subject's foreign key ``role`` ("manager_id" → "manager")."""
        words = [w for w in name_words(role) if w != "id"] or [model]
        alias = self._alias(words[0])
        link = f"{self.subject}.{role}"
        self.joins[alias] = Join.model_validate({"model": model, "on": link, "as": alias})
        return f"{alias}.{column}", None

    def regroup(self, subject: str, path: tuple[Step, ...]) -> None:
        """Make ``subject`` the subject, grouped by the rows of the former one (``path`` leads there)."""
        head = self.subject
        self.subject = subject
        alias = self._plain(path)
        self.group_by = [f"{alias}.{c}" for c in row_names(self.domain.models[head])]

    def add_where(self, where: Where, branch: Branch | None, negated: bool = False) -> None:
        """Add a condition to the rows (or, across a one-to-many link, to its exists branch).

        A branch holds conditions on one related row. A test of the other sign ("has a dog but
        not a cat"), or a second value of a column already tested ("has a dog and a cat"), asks
        about another related row: it opens a branch of its own along the same link.
        """
        if branch is None:
            self.wheres.append(where)
            return
        if branch.wheres and (branch.negated != negated or _same_test(branch.wheres, where)):
            branch, where = self._fork(branch, where)
        branch.wheres.append(where)
        branch.negated = branch.negated or negated

    def _fork(self, branch: Branch, where: Where) -> tuple[Branch, Where]:
        first, rest = branch.path[0], branch.path[1:]
        aliases = [self._join(first, self.subject, "exists")]
        for step in rest:
            aliases.append(self._join(step, aliases[-1], "inner"))
        fresh = Branch(f"{branch.key}#{len(self.branches)}", tuple(aliases), branch.path)
        self.branches[aliases[0]] = fresh
        return fresh, _renamed(where, dict(zip(branch.aliases, aliases, strict=True)))

    def _preferred(
        self, paths: list[tuple[Step, ...]], hint: str | None = None
    ) -> tuple[Step, ...]:
        """The path through the models the question names.

        Between parallel foreign keys, the one the direction names ("flights to Paris": the
        destination); a choice nothing makes is recorded in ``ambiguous``.
        """
        known = self.named | {j.model for j in self.joins.values()}

        def score(path: tuple[Step, ...]) -> tuple[int, int]:
            return sum(s.end in known for s in path), sum(_heads(s, hint) for s in path)

        best = max(map(score, paths))
        top = [p for p in paths if score(p) == best]
        ends = {tuple(s.end for s in p) for p in top}
        if len(top) > 1 and len(ends) == 1:  # the same models, linked by different keys
            self.ambiguous.append(top[0][-1].end)
        return top[0]

    def _plain(self, path: tuple[Step, ...]) -> str:
        start = self.subject
        for step in path:
            alias = next(
                (
                    a
                    for a, j in self.joins.items()
                    if j.model == step.end
                    and (j.from_ or self.subject) == start
                    and j.type == "inner"
                ),
                None,
            ) or self._join(step, start, "inner")
            start = alias
        return start

    def _branch(self, path: tuple[Step, ...]) -> tuple[str, Branch]:
        first, rest = path[0], path[1:]
        key = f"{first.end}:{first.link.column}"
        root = next((a for a, b in self.branches.items() if b.key == key), None)
        if root is None:
            root = self._join(first, self.subject, "exists")
            self.branches[root] = Branch(key)
        aliases = [root]
        for step in rest:
            aliases.append(
                next(
                    (
                        a
                        for a, j in self.joins.items()
                        if j.model == step.end and j.from_ == aliases[-1]
                    ),
                    None,
                )
                or self._join(step, aliases[-1], "inner")
            )
        branch = self.branches[root]
        if len(aliases) > len(branch.aliases):
            branch.aliases, branch.path = tuple(aliases), path
        return aliases[-1], branch

    def _join(self, step: Step, start: str, kind: str) -> str:
        alias = self._alias(step.end)
        spec: dict[str, Any] = {"model": step.end, "type": kind}
        if start != self.subject:
            spec["from"] = start
        if alias != step.end:
            spec["as"] = alias
        if self._several_links(step):
            spec["on"] = f"{start if step.forward else alias}.{step.link.column}"
        self.joins[alias] = Join.model_validate(spec)
        return alias

    def _several_links(self, step: Step) -> bool:
        ends = [s for s in self.domain.relations.steps_from(step.start) if s.end == step.end]
        return len(ends) > 1

    def _alias(self, model: str) -> str:
        base = model.rpartition(".")[2]
        alias, n = base, 2
        while alias in self.joins or alias == self.subject:
            alias, n = f"{base}_{n}", n + 1
        return alias

    # -- the DSL --------------------------------------------------------------------------

    def dsl(self) -> tuple[QueryDSL, QueryDSL | None]:
        """Return the DSL, and its any-keyword variant when several keywords must all match."""
        wheres = [*self.wheres, *(w for b in self.branches.values() for w in b.wheres)]
        joins = [
            j.model_copy(update={"type": "not exists"})
            if a in self.branches and self.branches[a].negated
            else j
            for a, j in self.joins.items()
        ]
        base: dict[str, Any] = {
            "model": self.subject,
            "joins": joins,
            "orders": self.orders,
            "limit": self.limit,
        }
        repeats = self._repeats()
        if self.aggregates:
            base |= {"aggregates": self._figures(repeats), "group_by": self.group_by}
            base["having"] = self.having
        elif repeats or self.distinct:
            base["distinct"] = True
        if self.select:
            base["select"] = self.select
        elif self.shown and not self.aggregates:
            rest = [c for c in self.schema.columns if c not in self.shown]
            base["select"] = self.shown if self.distinct else [*self.shown, *rest]
        dsl = QueryDSL(wheres=[*wheres, *self.keyword_wheres], **base)
        relaxed = None
        if len(self.keyword_wheres) > 1:
            relaxed = QueryDSL(wheres=[*wheres, Where(or_=self.keyword_any)], **base)
        return dsl, relaxed

    def _figures(self, repeats: bool) -> list[Aggregate]:
        """Count distinct subject rows when a plain join repeats them."""
        first = self.aggregates[0]
        key = self.schema.primary_key[:1]
        if repeats and first.fn == "count" and first.field is None and key:
            return [Aggregate(fn="count", field=key[0], distinct=True, **{"as": "count"})]
        return self.aggregates

    def _repeats(self) -> bool:
        """Tell whether a plain join walks a one-to-many link (subject rows would repeat)."""
        for alias, join in self.joins.items():
            if join.type != "inner" or alias in self.branches:
                continue
            start = join.from_ or self.subject
            model = self.joins[start].model if start in self.joins else self.subject
            steps = [s for s in self.domain.relations.steps_from(model) if s.end == join.model]
            if steps and not any(s.forward for s in steps):
                return True
        return False


def _heads(step: Step, hint: str | None) -> bool:
    """Tell whether a step's foreign key is named for a direction ("from" → ``SourceAirport``)."""
    return hint is not None and bool(DIRECTION_WORDS[hint] & set(name_words(step.link.column)))


def _same_test(wheres: list[Where], where: Where) -> bool:
    """Tell whether ``where`` tests equality of a field the branch already tests so."""
    equal = (Op.EQ, Op.IN)
    return where.op in equal and any(w.field == where.field and w.op in equal for w in wheres)


def _renamed(where: Where, aliases: dict[str, str]) -> Where:
    """The same condition with its fields moved from old join aliases to new ones."""
    update: dict[str, Any] = {
        "or_": [_renamed(w, aliases) for w in where.or_],
        "wheres": [_renamed(w, aliases) for w in where.wheres],
    }
    if isinstance(where.field, str):
        alias, _, column = where.field.rpartition(".")
        if alias in aliases:
            update["field"] = f"{aliases[alias]}.{column}"
    return where.model_copy(update=update)


def row_names(schema: ModelSchema) -> list[str]:
    """The columns that name a model's rows in a grouped answer: its key and its title.

    Without a title, its first text column that is no key ("Continent" of ``continents``).
    """
    names = list(schema.primary_key)
    texts = [
        c.name
        for c in schema.columns.values()
        if c.kind == "str" and not c.primary_key and not c.foreign_key
    ]
    title = schema.title or next(iter(texts), None)
    if title and title not in names:
        names.append(title)
    return names
