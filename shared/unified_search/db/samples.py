"""Sample text columns, so questions can name their values and words.

A column whose distinct values are few ("Electronics", "shipped", "Berlin") is
a category: a value named in a question becomes an equality test. Other text
columns (names, descriptions) are read for up to ``sample_rows`` rows to
learn their words: a question word seen there becomes a text test on that
column, and a word seen nowhere is reported as not understood. Columns that
some rows leave empty are noted: "each title" groups only the rows holding one. Samples are
cached with a TTL. On a model with a permission filter, sampling sees only the
caller's rows (and the cache is kept per permission value), so no other
tenant's values are learnt.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Mapping
from typing import Any

import sqlalchemy as sa

from unified_search.db.conditions import Condition, permission_clauses
from unified_search.db.execute import ReadOnlyExecutor
from unified_search.db.nl.vocabulary import Sample
from unified_search.db.schema import ModelSchema

#: Longest value treated as a category value; longer text is prose, learnt word by word.
MAX_VALUE_LENGTH = 60
_WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)*")


class ValueSampler:
    """Category values and words per text column of a model, cached for ``ttl`` seconds.

    Example:
        Not run here: ``schema`` and ``executor`` come from a database.

        >>> sample = await ValueSampler(limit=50, rows=1000, ttl=300).sample(schema, executor, {})  # doctest: +SKIP
        >>> sample.categories["category"]  # doctest: +SKIP
        ('Books', 'Electronics', 'Home')
    """

    def __init__(self, *, limit: int, ttl: float, rows: int = 1000) -> None:
        self.limit = limit
        self.rows = rows
        self.ttl = ttl
        self._cache: dict[tuple[int, str, tuple[tuple[str, str], ...]], tuple[float, Sample]] = {}

    async def sample(
        self, schema: ModelSchema, executor: ReadOnlyExecutor, user: Mapping[str, Any]
    ) -> Sample:
        """Return what the text columns of ``schema`` hold, as ``user`` may see them."""
        if self.limit == 0 and self.rows == 0:
            return Sample()
        guard = permission_clauses(schema, user)
        scope = tuple(sorted((k, str(user.get(k))) for k in schema.settings.permission.values()))
        key = (id(executor.engine), schema.name, scope)
        cached = self._cache.get(key)
        if cached is not None and time.monotonic() - cached[0] < self.ttl:
            return cached[1]
        columns = [c for c in schema.text_columns() if c not in schema.settings.permission]
        found = await asyncio.gather(*(self._column(schema, c, executor, guard) for c in columns))
        categories = {c: values for c, (values, _) in zip(columns, found, strict=True) if values}
        words = {
            c: frozenset(seen)
            for c, (_, seen) in zip(columns, found, strict=True)
            if seen and c in schema.searchable
        }
        empty = await asyncio.gather(*(self._empty(schema, c, executor, guard) for c in columns))
        missing = frozenset(c for c, hole in zip(columns, empty, strict=True) if hole)
        sample = Sample(categories=categories, words=words, empty=missing)
        self._cache[key] = (time.monotonic(), sample)
        return sample

    async def _empty(
        self, schema: ModelSchema, name: str, executor: ReadOnlyExecutor, guard: list[Condition]
    ) -> bool:
        """Tell whether some row leaves the column empty (a grouping by it is no group)."""
        column = schema.table.c[name]
        query = sa.select(column).where(column.is_(None), *guard).limit(1)
        return bool(await executor.fetch(query))

    async def _column(
        self, schema: ModelSchema, name: str, executor: ReadOnlyExecutor, guard: list[Condition]
    ) -> tuple[tuple[str, ...], set[str]]:
        column = schema.table.c[name]
        present = [column.is_not(None), *guard]
        if self.limit:
            query = sa.select(column).where(*present).distinct().limit(self.limit + 1)
            values = [str(row[name]) for row in await executor.fetch(query)]
            if len(values) <= self.limit and all(len(v) <= MAX_VALUE_LENGTH for v in values):
                return tuple(sorted(values)), set()
        if not self.rows:
            return (), set()
        rows = await executor.fetch(sa.select(column).where(*present).limit(self.rows))
        words = (w for row in rows for w in _WORD.findall(str(row[name]).lower()))
        return (), {w for w in words if len(w) > 1}
