"""Sample the distinct values of short text columns, so questions can name them.

A column whose distinct values are few ("Electronics", "shipped", "Berlin") is
a category: when one of its values appears in a question, the builtin
generator turns it into an equality test. Samples are cached with a TTL. On a
model with a permission filter, sampling sees only the caller's rows (and the
cache is kept per permission value), so no other tenant's values are learnt.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping
from typing import Any

import sqlalchemy as sa

from unified_search.db.compiler import Condition, permission_clauses
from unified_search.db.execute import ReadOnlyExecutor
from unified_search.db.schema import ModelSchema

#: Longest value treated as a category value; longer text is prose, searched by keywords.
MAX_VALUE_LENGTH = 60

Samples = Mapping[str, tuple[str, ...]]


class ValueSampler:
    """Distinct values per text column of a model, cached for ``ttl`` seconds.

    Example:
        >>> samples = await ValueSampler(limit=50, ttl=300).sample(schema, executor, {})  # doctest: +SKIP
        >>> samples["category"]  # doctest: +SKIP
        ('Books', 'Electronics', 'Home')
    """

    def __init__(self, *, limit: int, ttl: float) -> None:
        self.limit = limit
        self.ttl = ttl
        self._cache: dict[tuple[int, str, tuple[tuple[str, str], ...]], tuple[float, Samples]] = {}

    async def sample(
        self, schema: ModelSchema, executor: ReadOnlyExecutor, user: Mapping[str, Any]
    ) -> Samples:
        """Return the category columns of ``schema`` and their values, as ``user`` may see them."""
        if self.limit == 0:
            return {}
        guard = permission_clauses(schema, user)
        scope = tuple(sorted((k, str(user.get(k))) for k in schema.settings.permission.values()))
        key = (id(executor.engine), schema.name, scope)
        cached = self._cache.get(key)
        if cached is not None and time.monotonic() - cached[0] < self.ttl:
            return cached[1]
        columns = [c for c in schema.text_columns() if c not in schema.settings.permission]
        found = await asyncio.gather(*(self._column(schema, c, executor, guard) for c in columns))
        samples = {c: values for c, values in zip(columns, found, strict=True) if values}
        self._cache[key] = (time.monotonic(), samples)
        return samples

    async def _column(
        self, schema: ModelSchema, name: str, executor: ReadOnlyExecutor, guard: list[Condition]
    ) -> tuple[str, ...]:
        column = schema.table.c[name]
        query = sa.select(column).where(column.is_not(None), *guard).distinct()
        query = query.limit(self.limit + 1)
        rows = await executor.fetch(query)
        values = [str(row[name]) for row in rows]
        if len(values) > self.limit or any(len(v) > MAX_VALUE_LENGTH for v in values):
            return ()
        return tuple(sorted(values))
