"""Natural language → rows over the sample shop database: exact row-set accuracy and latency.

Compares the builtin DSL generator (through ``DBHandler``, so model choice,
compilation and read-only execution are included) with a naive peer that
matches every raw question word with LIKE over all text columns of every
table. Expected rows come from hand-written SQL or id lists in
``benchmarks/data/nl2dsl_questions.json``.

    python benchmarks/nl2dsl.py [--json PATH] [--show-misses]
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import re
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from unified_search.config import SearchConfig
from unified_search.db.handler import DBHandler
from unified_search.db.sample import build_shop_database
from unified_search.handler import SearchContext
from unified_search.types import SearchRequest

DATA = Path(__file__).parent / "data" / "nl2dsl_questions.json"
MODELS = ["products", "orders", "customers"]
MAX_ROWS = 200
RowSet = frozenset[tuple[str, str]]
System = Callable[[str], Awaitable[RowSet]]
_NAIVE_STOP = {"the", "and", "with", "for", "what", "who", "are", "from", "that", "which"}


def expected_rows(conn: sqlite3.Connection, entry: dict[str, Any]) -> RowSet:
    rows: set[tuple[str, str]] = set()
    for part in entry["expected"]:
        ids = part.get("ids") or [r[0] for r in conn.execute(part["sql"]).fetchall()]
        rows.update((part["model"], str(i)) for i in ids)
    return frozenset(rows)


def builtin_system(db: Path, today: dt.date) -> tuple[System, DBHandler]:
    handler = DBHandler(today=lambda: today)
    config = SearchConfig.load(
        profile={"db": {"url": f"sqlite:///{db}", "models": MODELS, "max_results": MAX_ROWS}}
    )
    ctx = SearchContext(config=config, request_id="bench")

    async def run(question: str) -> RowSet:
        result = await handler.search(SearchRequest(query=question, type="db"), ctx)
        return frozenset((item.model or "", item.record_id or "") for item in result.items)

    return run, handler


def naive_system(db: Path) -> System:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, check_same_thread=False)
    text_columns = {
        model: [
            r[1]
            for r in conn.execute(f"PRAGMA table_info({model})")
            if "CHAR" in r[2] or r[2] == "TEXT"
        ]
        for model in MODELS
    }

    async def run(question: str) -> RowSet:
        words = [
            w
            for w in re.findall(r"[a-z0-9]{3,}|[\u4e00-\u9fff]+", question.lower())
            if w not in _NAIVE_STOP
        ]
        rows: set[tuple[str, str]] = set()
        for model, columns in text_columns.items():
            haystack = " || ' ' || ".join(f"coalesce({c}, '')" for c in columns)
            where = " AND ".join(f"({haystack}) LIKE ?" for _ in words) or "1"
            sql = f"SELECT id FROM {model} WHERE {where} LIMIT {MAX_ROWS}"
            found = conn.execute(sql, [f"%{w}%" for w in words]).fetchall()
            rows.update((model, str(r[0])) for r in found)
        return frozenset(rows)

    return run


async def evaluate(
    system: System, questions: list[dict[str, Any]], expected: list[RowSet]
) -> tuple[dict[str, float], list[str]]:
    correct: list[bool] = []
    latencies: list[float] = []
    misses: list[str] = []
    for entry, want in zip(questions, expected, strict=True):
        started = time.perf_counter()
        try:
            got = await system(entry["question"])
        except Exception as exc:  # a failed question counts as a miss, the run goes on
            got, note = frozenset(), f"error {exc}"
        else:
            note = f"missing {sorted(want - got)[:5]} extra {sorted(got - want)[:5]}"
        latencies.append((time.perf_counter() - started) * 1000)
        correct.append(got == want)
        if got != want:
            misses.append(f"{entry['question']}: {note}")
    held = [ok for ok, q in zip(correct, questions, strict=True) if q.get("set") == "held-out"]
    latencies.sort()
    metrics = {
        "exact_match": round(sum(correct) / len(questions), 4),
        "correct": sum(correct),
        "questions": len(questions),
        "held_out_exact_match": round(sum(held) / len(held), 4) if held else 0.0,
        "held_out_correct": sum(held),
        "held_out_questions": len(held),
        "p50_ms": round(statistics.median(latencies), 3),
        "p95_ms": round(latencies[int(0.95 * (len(latencies) - 1))], 3),
    }
    return metrics, misses


def table(systems: dict[str, dict[str, float]]) -> str:
    base = systems["unified-search builtin"]
    lines = [
        "| system | exact match (all) | correct | held-out correct | p50 ms | p95 ms | p50 vs unified-search |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, m in systems.items():
        ratio = m["p50_ms"] / base["p50_ms"] if base["p50_ms"] else 0.0
        lines.append(
            f"| {name} | {m['exact_match']:.1%} | {m['correct']}/{m['questions']} | "
            f"{m['held_out_correct']}/{m['held_out_questions']} | "
            f"{m['p50_ms']:.2f} | {m['p95_ms']:.2f} | {ratio:.2f}x |"
        )
    return "\n".join(lines)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path, help="write {'systems': {...}} here")
    parser.add_argument("--show-misses", action="store_true")
    args = parser.parse_args()
    spec = json.loads(DATA.read_text(encoding="utf-8"))
    today = dt.date.fromisoformat(spec["today"])
    questions = spec["questions"]
    with tempfile.TemporaryDirectory() as tmp:
        db = build_shop_database(Path(tmp) / "shop.db")
        with sqlite3.connect(db) as conn:
            expected = [expected_rows(conn, q) for q in questions]
        builtin, handler = builtin_system(db, today)
        await builtin(questions[0]["question"])  # warm the schema and value caches once
        systems: dict[str, dict[str, float]] = {}
        missed: dict[str, list[str]] = {}
        for name, system in (
            ("unified-search builtin", builtin),
            ("naive LIKE (all words, all text columns)", naive_system(db)),
        ):
            systems[name], missed[name] = await evaluate(system, questions, expected)
        await handler.aclose()
    print(table(systems))
    if args.show_misses:
        for name, misses in missed.items():
            print(f"\n{name} misses:")
            print("\n".join(f"  - {m}" for m in misses) or "  none")
    if args.json:
        args.json.write_text(json.dumps({"systems": systems}, indent=2), encoding="utf-8")


if __name__ == "__main__":
    asyncio.run(main())
