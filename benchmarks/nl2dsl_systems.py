"""The systems the nl2dsl benchmark compares, and how their answers are tallied.

Ours is the database handler with its builtin generator, every table and view a model and no
model named per question. The peer is a naive LIKE search of every raw question word over every
text column of every table (what a search box without a query language does).
"""

from __future__ import annotations

import datetime as dt
import functools
import re
import statistics
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa

from unified_search.config import SearchConfig
from unified_search.contract.handler import SearchContext
from unified_search.db.handler import DBHandler
from unified_search.db.understanding import Understanding
from unified_search.types import SearchRequest

OURS = "unified-search (default)"
PEER = "naive LIKE (every word, every text column)"
System = Callable[[str], Awaitable["Answer"]]
_NAIVE_STOP = {"the", "and", "with", "for", "what", "who", "are", "from", "that", "which", "how"}


@dataclass(frozen=True)
class Answer:
    """What a system answered: ``rows`` (model, id) pairs, ``values`` rows, or ``refused``."""

    kind: str
    payload: Any = None
    note: str = ""
    values: list[list[Any]] = field(default_factory=list)
    """The data of answer rows, for comparing rows with a gold query that returns values."""

    @property
    def rows(self) -> list[list[Any]]:
        """The answer's rows as values, whatever kind it is (none when refused)."""
        if self.kind == "values":
            return [list(v) for v in self.payload]
        return [list(v) for v in self.values]


@dataclass
class Tally:
    right: int = 0
    wrong: int = 0
    refused: int = 0
    latencies: list[float] = field(default_factory=list)
    misses: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return self.right + self.wrong + self.refused

    def count(self, outcome: str) -> None:
        setattr(self, outcome, getattr(self, outcome) + 1)

    def add(self, other: Tally) -> None:
        self.right += other.right
        self.wrong += other.wrong
        self.refused += other.refused
        self.latencies += other.latencies
        self.misses += other.misses

    def metrics(self) -> dict[str, float]:
        n = self.total or 1
        ordered = sorted(self.latencies) or [0.0]
        return {
            "questions": self.total,
            "right": round(self.right / n, 4),
            "wrong": round(self.wrong / n, 4),
            "refused": round(self.refused / n, 4),
            "p50_ms": round(statistics.median(ordered), 2),
            "p95_ms": round(ordered[int(0.95 * (len(ordered) - 1))], 2),
        }


def normal(value: Any) -> Any:
    """A value as answers are compared: numbers rounded, dates as days, text folded."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int | float) or type(value).__name__ == "Decimal":
        return round(float(value), 2)
    if isinstance(value, dt.datetime | dt.date):
        return value.isoformat()[:10]
    return str(value).strip().lower()


def ours(
    url: str, today: dt.date, *, max_rows: int, schemas: tuple[str, ...] = ()
) -> tuple[System, DBHandler]:
    """Our handler over ``url``, asked one question at a time (every model, none named)."""
    handler = DBHandler(today=lambda: today)
    db = {"url": url, "max_results": max_rows, "schemas": list(schemas)}
    config = SearchConfig.load(profile={"db": db})
    ctx = SearchContext(config=config, request_id="bench")

    async def run(question: str) -> Answer:
        try:
            result = await handler.asearch(SearchRequest(query=question, type="db"), ctx)
        except Exception as exc:  # a failed question counts as refused, the run goes on
            return Answer("refused", note=f"error: {exc}")
        understood = Understanding.of(result)
        note = understood.line() if understood else ""
        if result.error is not None:
            return Answer("refused", note=note or result.error.message)
        values = [[normal(v) for v in (i.data or {}).values()] for i in result.items]
        if result.items and all(i.record_id is None for i in result.items):
            return Answer("values", values, note)
        rows = {(table_of(i.model or ""), i.record_id or "") for i in result.items}
        return Answer("rows", rows, note, values)

    return run, handler


def table_of(model: str) -> str:
    """A model's table name: ``ops.staff`` on PostgreSQL is ``staff`` in the gold files."""
    return model.rpartition(".")[2]


def naive(url: str, *, max_rows: int, schemas: tuple[str, ...] = ()) -> System:
    """The peer: every question word must appear in a row's text columns, in any table."""
    engine = sa.create_engine(url)
    meta = sa.MetaData()
    for schema in (None, *schemas):
        meta.reflect(engine, schema=schema)
    text = {
        t.key: [c for c in t.columns if isinstance(c.type, sa.String)]
        for t in meta.sorted_tables
        if list(t.primary_key.columns)
    }

    async def run(question: str) -> Answer:
        words = [
            w
            for w in re.findall(r"[a-z0-9]{3,}|[\u4e00-\u9fff]+", question.lower())
            if w not in _NAIVE_STOP
        ]
        rows: set[tuple[str, str]] = set()
        values: list[list[Any]] = []
        with engine.connect() as conn:
            for name, columns in text.items():
                table = meta.tables[name]
                if not columns:
                    continue
                parts = [sa.func.coalesce(c, "") for c in columns]
                haystack = sa.func.lower(functools.reduce(lambda a, b: a + " " + b, parts))
                query = sa.select(table).where(*(haystack.like(f"%{w}%") for w in words))
                for found in conn.execute(query.limit(max_rows)).mappings():
                    key = ":".join(str(found[c.name]) for c in table.primary_key.columns)
                    rows.add((table_of(name), key))
                    values.append([normal(v) for v in found.values()])
        return Answer("rows", rows, values=values)

    return run
