"""How models relate: foreign keys (declared or configured) as links that joins may follow.

A link goes from a child column to the parent's key (``orders.customer_id →
customers.id``). Walking it forward reaches one parent per row; walking it
backward reaches many children, which is why a condition on the far side of
a backward step means "has a related row such that …".
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from unified_search.db.schema import ModelSchema


@dataclass(frozen=True)
class Link:
    """One foreign key between two exposed models.

    Example:
        >>> Link("orders", "customer_id", "customers", "id").describe()
        'orders.customer_id → customers.id'
    """

    child: str
    column: str
    parent: str
    target: str

    def describe(self) -> str:
        """Return ``child.column → parent.target``."""
        return f"{self.child}.{self.column} → {self.parent}.{self.target}"


@dataclass(frozen=True)
class Step:
    """A link walked from one model: forward (child to parent) or backward (parent to children).

    Example:
        >>> Step(Link("orders", "customer_id", "customers", "id"), forward=False).start
        'customers'
    """

    link: Link
    forward: bool

    @property
    def start(self) -> str:
        """The model the step leaves."""
        return self.link.child if self.forward else self.link.parent

    @property
    def end(self) -> str:
        """The model the step reaches."""
        return self.link.parent if self.forward else self.link.child

    @property
    def start_column(self) -> str:
        """The column on the starting side."""
        return self.link.column if self.forward else self.link.target

    @property
    def end_column(self) -> str:
        """The column on the reached side."""
        return self.link.target if self.forward else self.link.column


class Relations:
    """The foreign keys among a set of exposed models, and the ways to walk them.

    Example:
        Not run here: ``models`` is a catalog reflected from a database.

        >>> Relations(models).paths("customers", "products")  # doctest: +SKIP
        [(Step(customers ← orders), Step(orders → products))]
    """

    def __init__(self, models: Mapping[str, ModelSchema]) -> None:
        self.links = _links(models)
        self._paths: dict[tuple[str, str, int], list[tuple[Step, ...]]] = {}
        self._steps: dict[str, list[Step]] = {}
        for link in self.links:
            self._steps.setdefault(link.child, []).append(Step(link, forward=True))
            self._steps.setdefault(link.parent, []).append(Step(link, forward=False))

    def steps_from(self, start: str) -> list[Step]:
        """Return every step leaving ``start`` (a self-reference gives one step each way)."""
        return list(self._steps.get(start, ()))

    def paths(self, start: str, end: str, *, max_hops: int = 2) -> list[tuple[Step, ...]]:
        """Return the shortest step chains from ``start`` to ``end`` (no model visited twice)."""
        key = (start, end, max_hops)
        if key not in self._paths:
            self._paths[key] = self._search(start, end, max_hops)
        return self._paths[key]

    def _search(self, start: str, end: str, max_hops: int) -> list[tuple[Step, ...]]:
        frontier: list[tuple[Step, ...]] = [()]
        for _ in range(max_hops):
            grown: list[tuple[Step, ...]] = []
            for path in frontier:
                here = path[-1].end if path else start
                seen = {start, *(s.end for s in path)}
                grown += [(*path, s) for s in self.steps_from(here) if s.end not in seen]
            reached = [p for p in grown if p[-1].end == end]
            if reached:
                return reached
            frontier = grown
        return []


def _links(models: Mapping[str, ModelSchema]) -> list[Link]:
    """Return every foreign key whose two ends are both among ``models``."""
    found: list[Link] = []
    for schema in models.values():
        for column in schema.columns.values():
            if column.foreign_key is None:
                continue
            parent, _, target = column.foreign_key.rpartition(".")
            if parent in models and target in models[parent].columns:
                found.append(Link(schema.name, column.name, parent, target))
    return found
