"""Spider-format folders for the nl2dsl benchmark: questions by other people, judged by execution.

A folder holds ``dev.json`` (entries with ``db_id``, ``question`` and gold ``query``),
``tables.json`` and ``database/<db_id>/<db_id>.sqlite`` (or, as some Spider folders do, a
``schema.sql`` there that builds it). Every table is a model and no model is named per question.
An answer is *right* when its rows hold the gold result's rows: each gold row is held by an answer
row (an answer row may carry more columns, such as a whole table row), each answer row holds a gold
row, and, when the gold query orders its rows, they come in that order; a gold query that counts,
sums or averages wants figures, not table rows. Questions whose gold result is empty are skipped.
*Refused* is the search declining with INVALID_QUERY; anything else is *wrong*.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import sqlite3
import tempfile
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from nl2dsl_systems import OURS, PEER, Answer, System, Tally, naive, normal, ours

#: The day relative dates are read against (Spider questions name absolute years).
TODAY = dt.date(2024, 1, 1)
#: Rows an answer may hold (the most db.max_results allows): Spider gold results list whole tables.
MAX_ROWS = 1000
_FIGURES = re.compile(r"\b(?:count|sum|avg)\s*\(")
_ORDERED = re.compile(
    r"(?is)^\s*select\s+(?P<columns>(?!distinct\b).*?)\s+from\s+(?P<rest>.*)\s+order\s+by\s+"
    r"(?P<key>.*?)(?:\s+(?P<dir>asc|desc))?(?:\s+limit\s+\d+)?\s*;?\s*$"
)


@dataclass(frozen=True)
class Question:
    """One Spider entry and its gold rows."""

    db: str
    text: str
    gold: list[tuple[Any, ...]]
    ordered: bool
    figures: bool
    ranked: list[tuple[tuple[Any, ...], int]] | None = None
    """For an ordered gold query: all its rows before any limit, each with the rank of its sort
    key (rows of equal keys share a rank: their order is not defined)."""
    limit: int | None = None


def load(folder: Path, databases: Path) -> dict[str, list[Question]]:
    """Read ``dev.json`` and run each gold query on its database; skip empty gold results."""
    entries = json.loads((folder / "dev.json").read_text(encoding="utf-8"))
    found: dict[str, list[Question]] = {}
    for entry in entries:
        db = entry["db_id"]
        with closing(sqlite3.connect(databases / db / f"{db}.sqlite")) as conn:
            conn.text_factory = lambda raw: raw.decode("utf-8", "replace")
            rows = conn.execute(entry["query"]).fetchall()
            ranked = _ranked(conn, entry["query"]) if rows else None
        if not rows:
            continue
        gold = [tuple(normal(v) for v in row) for row in rows]
        query = " ".join(entry["query"].lower().split())
        head = query.split(" from ", 1)[0]
        figures = bool(_FIGURES.search(head))
        ordered = " order by " in query
        limit = int(match[1]) if (match := re.search(r"\blimit\s+(\d+)\s*;?$", query)) else None
        question = Question(db, entry["question"], gold, ordered, figures, ranked, limit)
        found.setdefault(db, []).append(question)
    return found


def _ranked(conn: sqlite3.Connection, query: str) -> list[tuple[tuple[Any, ...], int]] | None:
    """Run an ordered gold query without its limit, its sort key added; ``None`` if it cannot be.

    Only a plain ``SELECT … FROM … ORDER BY key [ASC|DESC] [LIMIT n]`` is rewritten.
    """
    match = _ORDERED.match(" ".join(query.split()))
    if match is None or re.search(r"(?i)\b(?:union|intersect|except)\b", query):
        return None
    keys = _split(match["key"])
    rewritten = (
        f"SELECT {match['columns']}, {', '.join(keys)} FROM {match['rest']} "
        f"ORDER BY {match['key']} {match['dir'] or ''}"
    )
    try:
        rows = conn.execute(rewritten).fetchall()
    except sqlite3.Error:
        return None
    ranked: list[tuple[tuple[Any, ...], int]] = []
    previous: object = object()
    for row in rows:
        key, values = row[-len(keys) :], tuple(normal(v) for v in row[: -len(keys)])
        rank = len(ranked) if key != previous else ranked[-1][1]
        ranked.append((values, rank))
        previous = key
    return ranked


def _split(expression: str) -> list[str]:
    """Split a sort key on the commas outside parentheses."""
    parts, depth, current = [], 0, ""
    for char in expression:
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += char
    return [*parts, current.strip()]


@contextmanager
def databases_of(folder: Path) -> Iterator[Path]:
    """The folder's ``database/`` directory, with any database given as ``schema.sql`` built."""
    source = folder / "database"
    missing = [d for d in sorted(source.iterdir()) if not (d / f"{d.name}.sqlite").exists()]
    if not missing:
        yield source
        return
    with tempfile.TemporaryDirectory() as tmp:
        built = Path(tmp)
        for db in sorted(source.iterdir()):
            target = built / db.name
            target.mkdir()
            existing = db / f"{db.name}.sqlite"
            if existing.exists():
                target.joinpath(existing.name).symlink_to(existing.resolve())
                continue
            with sqlite3.connect(target / f"{db.name}.sqlite") as conn:
                conn.executescript((db / "schema.sql").read_text(encoding="utf-8"))
            conn.close()
        yield built


def grade(question: Question, got: Answer) -> str:
    """Right, wrong or refused, as the module docstring says."""
    if got.kind == "refused":
        return "refused"
    if question.figures and got.kind != "values":
        return "wrong"
    answer = [tuple(row) for row in got.rows]
    gold = list(dict.fromkeys(question.gold))
    if question.ranked is not None:
        return _grade_ranked(question.ranked, question.limit, answer)
    if not answer or not all(any(holds(a, g) for g in gold) for a in answer):
        return "wrong"
    if not all(any(holds(a, g) for a in answer) for g in gold):
        return "wrong"
    if question.ordered and len(gold) > 1:
        first = [next(i for i, g in enumerate(gold) if holds(a, g)) for a in answer]
        if first != sorted(first):
            return "wrong"
    return "right"


def _grade_ranked(
    ranked: list[tuple[tuple[Any, ...], int]], limit: int | None, answer: list[tuple[Any, ...]]
) -> str:
    """Judge an answer to an ordered question, rows of equal sort keys being interchangeable.

    With a limit, rows ranked before the last one kept must all be there, and the rest may be any
    rows tied with it; the answer has as many rows as the gold result.
    """
    cut = ranked[: limit or len(ranked)]
    boundary = cut[-1][1]
    allowed = [(row, rank) for row, rank in ranked if rank <= boundary]
    required = [row for row, rank in allowed if rank < boundary] if limit else [r for r, _ in cut]
    if limit and len(answer) != len(cut):
        return "wrong"
    if not answer or not all(
        any(holds(a, g) for g in required) or _tied(a, allowed, boundary) for a in answer
    ):
        return "wrong"
    if not all(any(holds(a, g) for a in answer) for g in required):
        return "wrong"
    last = -1
    for row in answer:  # the answer's rows come in the gold's order of keys
        ranks = sorted(rank for gold, rank in allowed if holds(row, gold) and rank >= last)
        if not ranks:
            return "wrong"
        last = ranks[0]
    return "right"


def _tied(row: tuple[Any, ...], allowed: list[tuple[tuple[Any, ...], int]], boundary: int) -> bool:
    return any(holds(row, gold) for gold, rank in allowed if rank == boundary)


def holds(row: tuple[Any, ...], gold_row: tuple[Any, ...]) -> bool:
    """Tell whether ``row`` holds every value of ``gold_row`` (each value once)."""
    pool = list(row)
    for value in gold_row:
        if value not in pool:
            return False
        pool.remove(value)
    return True


async def run_database(
    db: str, path: Path, questions: list[Question], explain: bool
) -> dict[str, Tally]:
    """Ask every question of one database of ours and of the peer."""
    url = f"sqlite:///{path}"
    system, handler = ours(url, TODAY, max_rows=MAX_ROWS)
    await system(questions[0].text)  # warm schema and value caches once
    results = {OURS: await _ask(system, questions, explain)}
    await handler.aclose()
    results[PEER] = await _ask(naive(url, max_rows=MAX_ROWS), questions, False)
    return results


async def _ask(system: System, questions: list[Question], explain: bool) -> Tally:
    tally = Tally()
    for question in questions:
        started = time.perf_counter()
        got = await system(question.text)
        tally.latencies.append((time.perf_counter() - started) * 1000)
        outcome = grade(question, got)
        tally.count(outcome)
        if outcome != "right" and explain:
            tally.misses.append(f"[{outcome}] {question.text} — {got.note}")
    return tally
