"""Natural language → answers over several sample databases: right / wrong / refused, and latency.

Each question file (``benchmarks/data/nl2dsl/{dev,heldout}/<schema>.json``)
names a sample database and holds intents: a hand-written gold SQL query and
several ways of asking it. A question is *right* when the rows it returns are
the gold rows (the same model rows by id, or, for figures and distinct values,
rows holding the gold values), *refused* when the search declines with
INVALID_QUERY, and *wrong* otherwise — a wrong answer is worse than a refusal.
Every question runs on SQLite and, when reachable, on PostgreSQL (throw-away
schemas: views are copied too, and the tables a file lists under
``postgres_schemas`` go to a second schema the search reaches through
``db.schemas``, named ``schema.table``). The peer is a naive LIKE search of every raw question word over every
text column of every table.

    python benchmarks/nl2dsl.py [--data DIR] [--postgres URL] [--json PATH] [--show-misses]

The held-out files were written before the generator was extended (each says
what it measured before); they are reported on their own rows. ``blind/`` holds questions over a fourth schema
written after the held-out files had been evaluated once, run once.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import functools
import json
import os
import re
import socket
import sqlite3
import statistics
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from unified_search.config import SearchConfig
from unified_search.contract.handler import SearchContext
from unified_search.db.handler import DBHandler
from unified_search.db.understanding import Understanding
from unified_search.samples.shop import build_shop_database
from unified_search.types import SearchRequest

DATA = Path(__file__).parent / "data" / "nl2dsl"
MAX_ROWS = 200
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


# -- databases ------------------------------------------------------------------------------


def build_sqlite(spec: dict[str, Any], data: Path, folder: Path) -> Path:
    target = folder / f"{spec['schema']}.db"
    if target.exists():
        return target
    if spec["setup"] == "shop":
        return build_shop_database(target)
    with sqlite3.connect(target) as conn:
        conn.executescript((data / spec["setup"]).read_text(encoding="utf-8"))
    conn.close()
    return target


@dataclass(frozen=True)
class Target:
    """Where one run searches: the URL and schemas the handler is given, and the URL gold reads."""

    url: str
    gold_url: str
    schemas: tuple[str, ...] = ()


@contextmanager
def postgres_copy(source: Path, base_url: str, moved: dict[str, list[str]]) -> Iterator[Target]:
    """Copy a SQLite database (tables, then views) into fresh PostgreSQL schemas; drop them after.

    Tables named in ``moved`` (``{"ops": ["staff"]}``) go to a second schema, exposed through
    ``db.schemas`` as ``schema.table``; everything else lands in the connection's default schema.
    """
    schema = "bench_" + uuid.uuid4().hex[:10]
    home = {table: f"{schema}_{name}" for name, tables in moved.items() for table in tables}
    extra = sorted(set(home.values()))
    admin = sa.create_engine(base_url)
    reader = sa.create_engine(f"sqlite:///{source}")
    path = ",".join([schema, *extra])
    with admin.begin() as conn:
        for name in [schema, *extra]:
            conn.execute(sa.text(f'CREATE SCHEMA "{name}"'))
    try:
        meta = sa.MetaData()
        meta.reflect(reader)
        target = sa.MetaData()

        def schema_of(table: sa.Table, to: sa.MetaData, constraint: Any, referred: Any) -> str:
            return home.get(constraint.elements[0].column.table.name, schema)

        tables = [
            t.to_metadata(target, schema=home.get(t.name, schema), referred_schema_fn=schema_of)
            for t in meta.sorted_tables
        ]
        target.create_all(admin)
        with reader.connect() as src, admin.begin() as dst:
            for table, copy in zip(meta.sorted_tables, tables, strict=True):
                rows = [dict(r) for r in src.execute(sa.select(table)).mappings()]
                dst.execute(sa.insert(copy), rows)
            dst.execute(sa.text(f"SET LOCAL search_path TO {path}"))
            views = src.exec_driver_sql("SELECT sql FROM sqlite_master WHERE type = 'view'")
            for (view,) in views:
                dst.execute(sa.text(view))
        yield Target(
            f"{base_url}?options=-csearch_path%3D{schema}",
            f"{base_url}?options=-csearch_path%3D{path.replace(',', '%2C')}",
            tuple(extra),
        )
    finally:
        reader.dispose()
        with admin.begin() as conn:
            for name in [schema, *extra]:
                conn.execute(sa.text(f'DROP SCHEMA "{name}" CASCADE'))
        admin.dispose()


def reachable(url: str) -> bool:
    parsed = sa.engine.make_url(url)
    try:
        with socket.create_connection((parsed.host or "127.0.0.1", parsed.port or 5432), 0.5):
            return True
    except OSError:
        return False


# -- gold and grading -----------------------------------------------------------------------


def normal(value: Any) -> Any:
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int | float) or type(value).__name__ == "Decimal":
        return round(float(value), 2)
    if isinstance(value, dt.datetime | dt.date):
        return value.isoformat()[:10]
    return str(value).strip().lower()


def gold_answer(engine: sa.Engine, gold: list[dict[str, Any]]) -> Answer:
    def sql(text: str) -> sa.TextClause:
        # Gold LIKE is case-insensitive, as on SQLite: PostgreSQL spells that ILIKE.
        if engine.dialect.name == "postgresql":
            text = re.sub(r"\bLIKE\b", "ILIKE", text)
        return sa.text(text)

    with engine.connect() as conn:
        if "values" in gold[0]:
            rows = conn.execute(sql(gold[0]["values"])).all()
            return Answer("values", [tuple(normal(v) for v in row) for row in rows])
        found: set[tuple[str, str]] = set()
        for part in gold:
            ids = part.get("ids") or [r[0] for r in conn.execute(sql(part["sql"])).all()]
            found |= {(part["model"], str(i)) for i in ids}
        return Answer("rows", found)


def grade(want: Answer, got: Answer) -> str:
    if got.kind == "refused":
        return "refused"
    if want.kind == "rows":
        return "right" if got.kind == "rows" and got.payload == want.payload else "wrong"
    answer_rows = [list(v) for v in (got.payload if got.kind == "values" else got.values)]
    if len(answer_rows) != len(want.payload):
        return "wrong"
    for gold_row in want.payload:
        match = next((r for r in answer_rows if _holds(r, gold_row)), None)
        if match is None:
            return "wrong"
        answer_rows.remove(match)
    return "right"


def _holds(row: list[Any], gold_row: tuple[Any, ...]) -> bool:
    pool = list(row)
    for value in gold_row:
        if value not in pool:
            return False
        pool.remove(value)
    return True


# -- systems --------------------------------------------------------------------------------


def ours(target: Target, today: dt.date) -> tuple[System, DBHandler]:
    handler = DBHandler(today=lambda: today)
    db = {"url": target.url, "max_results": MAX_ROWS, "schemas": list(target.schemas)}
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
        if result.items and all(i.record_id is None for i in result.items):
            values = [[normal(v) for v in (i.data or {}).values()] for i in result.items]
            return Answer("values", values, note)
        rows = {(table_of(i.model or ""), i.record_id or "") for i in result.items}
        values = [[normal(v) for v in (i.data or {}).values()] for i in result.items]
        return Answer("rows", rows, note, values)

    return run, handler


def table_of(model: str) -> str:
    """A model's table name: ``ops.staff`` on PostgreSQL is ``staff`` in the gold files."""
    return model.rpartition(".")[2]


def naive(url: str, schemas: tuple[str, ...] = ()) -> System:
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
        with engine.connect() as conn:
            for name, columns in text.items():
                table = meta.tables[name]
                if not columns:
                    continue
                parts = [sa.func.coalesce(c, "") for c in columns]
                haystack = sa.func.lower(functools.reduce(lambda a, b: a + " " + b, parts))
                query = sa.select(*table.primary_key.columns).where(
                    *(haystack.like(f"%{w}%") for w in words)
                )
                found = conn.execute(query.limit(MAX_ROWS))
                rows |= {(table_of(name), str(r[0])) for r in found}
        return Answer("rows", rows)

    return run


# -- running --------------------------------------------------------------------------------


async def evaluate(
    system: System, spec: dict[str, Any], gold: list[Answer], explain: bool
) -> Tally:
    tally = Tally()
    for intent, want in zip(spec["intents"], gold, strict=True):
        for question in intent["questions"]:
            started = time.perf_counter()
            got = await system(question)
            tally.latencies.append((time.perf_counter() - started) * 1000)
            outcome = grade(want, got)
            setattr(tally, outcome, getattr(tally, outcome) + 1)
            if outcome != "right" and explain:
                tally.misses.append(f"[{outcome}] {question} — {got.note}")
    return tally


async def run_file(spec: dict[str, Any], target: Target, explain: bool) -> dict[str, Tally]:
    today = dt.date.fromisoformat(spec["today"])
    plain = sa.create_engine(target.gold_url)
    try:
        gold = [gold_answer(plain, intent["gold"]) for intent in spec["intents"]]
    finally:
        plain.dispose()
    system, handler = ours(target, today)
    await system(spec["intents"][0]["questions"][0])  # warm schema and value caches once
    results = {OURS: await evaluate(system, spec, gold, explain)}
    await handler.aclose()
    results[PEER] = await evaluate(naive(target.url, target.schemas), spec, gold, False)
    return results


def load_specs(data: Path, parts: list[str], schemas: list[str]) -> list[dict[str, Any]]:
    specs = []
    for part in parts:
        for path in sorted((data / part).glob("*.json")):
            spec = json.loads(path.read_text(encoding="utf-8"))
            if not schemas or spec["schema"] in schemas:
                specs.append(spec)
    return specs


def table(rows: list[tuple[str, str, str, str, dict[str, float]]]) -> str:
    """One line per part, schema, engine and system; "vs ours" compares right answers."""
    ours = {(part, schema, engine): m for part, schema, engine, system, m in rows if system == OURS}
    lines = [
        "| part | schema | engine | system | questions | right | wrong | refused | right vs ours | p50 ms |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for part, schema, engine, system, m in rows:
        base = ours[(part, schema, engine)]["right"]
        ratio = f"{m['right'] / base:.2f}x" if base else "-"
        lines.append(
            f"| {part} | {schema} | {engine} | {system} | {m['questions']:.0f} | "
            f"{m['right']:.1%} | {m['wrong']:.1%} | {m['refused']:.1%} | {ratio} | {m['p50_ms']:.1f} |"
        )
    return "\n".join(lines)


def json_systems(totals: dict[tuple[str, str, str], Tally]) -> dict[str, dict[str, float]]:
    """Per system: the figures over everything, then each part and engine as ``metric[part/engine]``."""
    systems: dict[str, dict[str, float]] = {}
    for system in dict.fromkeys(key[2] for key in totals):
        everything = Tally()
        for (part, engine, name), tally in sorted(totals.items()):
            if name == system:
                everything.add(tally)
                part_figures = {f"{k}[{part}/{engine}]": v for k, v in tally.metrics().items()}
                systems.setdefault(system, {}).update(part_figures)
        systems[system] = {**everything.metrics(), **systems[system]}
    return systems


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA, help="folder with dev/ and heldout/")
    parser.add_argument(
        "--postgres",
        default=os.environ.get(
            "TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
        ),
        help="PostgreSQL URL for the second engine ('' to skip)",
    )
    parser.add_argument("--part", choices=["dev", "heldout", "blind", "all"], default="all")
    parser.add_argument("--schema", action="append", default=[], help="only these schemas")
    parser.add_argument("--json", type=Path, help="write {'systems': {...}} here")
    parser.add_argument("--show-misses", action="store_true")
    args = parser.parse_args()
    parts = ["dev", "heldout", "blind"] if args.part == "all" else [args.part]
    specs = load_specs(args.data, parts, args.schema)
    engines = ["sqlite"] + (["postgres"] if args.postgres and reachable(args.postgres) else [])
    rows: list[tuple[str, str, str, str, dict[str, float]]] = []
    totals: dict[tuple[str, str, str], Tally] = {}
    misses: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for spec in specs:
            source = build_sqlite(spec, args.data, folder)
            for engine in engines:
                if engine == "sqlite":
                    local = Target(f"sqlite:///{source}", f"sqlite:///{source}")
                    found = await run_file(spec, local, args.show_misses)
                else:
                    moved = spec.get("postgres_schemas", {})
                    with postgres_copy(source, args.postgres, moved) as target:
                        found = await run_file(spec, target, args.show_misses)
                for system, tally in found.items():
                    part = spec["part"]
                    rows.append((part, spec["schema"], engine, system, tally.metrics()))
                    totals.setdefault((part, engine, system), Tally()).add(tally)
                    misses += [f"{spec['schema']} {part} {engine}: {m}" for m in tally.misses]
    for (part, engine, system), tally in sorted(totals.items()):
        rows.append((part, "all", engine, system, tally.metrics()))
    print(table(rows))
    if args.show_misses:
        print("\nnot right:")
        print("\n".join(f"  - {m}" for m in misses) or "  none")
    if args.json:
        payload = {"systems": json_systems(totals)}
        args.json.write_text(json.dumps(payload, indent=2), encoding="utf-8")


if __name__ == "__main__":
    asyncio.run(main())
