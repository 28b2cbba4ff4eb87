"""Natural language → answers over databases: right / wrong / refused, and latency.

Two kinds of question sets, each run beside the peer (a naive LIKE search of every raw question
word over every text column of every table):

*Owner-style sets* (``benchmarks/data/nl2dsl/{dev,heldout,blind}/<schema>.json``): each file
names a sample database and holds intents, a hand-written gold SQL query and several ways of
asking it. A question is *right* when the rows it returns are the gold rows (the same model rows by
id, or, for figures and distinct values, rows holding the gold values), *refused* when the search
declines with INVALID_QUERY, and *wrong* otherwise — a wrong answer is worse than a refusal.
Every question runs on SQLite and, when reachable, on PostgreSQL (throw-away schemas: views are
copied too, and the tables a file lists under ``postgres_schemas`` go to a second schema the search
reaches through ``db.schemas``, named ``schema.table``). The held-out files were written before
the generator was extended (each says what it measured before); ``blind/`` holds questions over a
fourth schema written after the held-out files had been evaluated once, run once.

*Spider-format folders* (``--spider DIR``, repeatable; see ``nl2dsl_spider``): questions and gold
SQL written by other people over real SQLite databases, every table a model, judged by execution,
per database and overall. Held-out discipline: the databases in ``SPIDER_DEVELOPMENT`` (all of
``spider-part`` and of ``data/nl2dsl/spider-dev``, ``spider-heldout``, ``spider-blind`` and
``spider-unseen``) have had their questions read while rules were written, so their figures are
development figures; any other database is reported as *held-out*, and ``--show-misses`` never
prints a held-out question.

    python benchmarks/nl2dsl.py [--data DIR] [--postgres URL] [--json PATH] [--show-misses]
    python benchmarks/nl2dsl.py --spider DIR [--spider DIR ...] [--db NAME] [--json PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import os
import re
import socket
import sqlite3
import tempfile
import time
import uuid
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nl2dsl_spider as spider
import sqlalchemy as sa
from nl2dsl_spider import holds
from nl2dsl_systems import OURS, PEER, Answer, System, Tally, naive, normal, ours
from report import write_json

from unified_search.samples.shop import build_shop_database

DATA = Path(__file__).parent / "data" / "nl2dsl"
MAX_ROWS = 200
#: Spider databases whose questions the rules were developed on; all others are held out.
SPIDER_DEVELOPMENT = frozenset(
    {"car_1", "concert_singer", "pets_1"}  # spider-part
    | {"course_teach", "employee_hire_evaluation", "tvshow"}
    | {"library_system", "airline_ops", "hospital_staff"}  # spider-dev
    | {"football_league", "workforce", "broadcast"}
    | {"marathon_club", "art_gallery", "city_bikes"}  # spider-heldout
    | {"climbing_gym", "community_garden", "ferry_line"}
    | {"film_festival", "school_canteen"}  # spider-blind
    | {"bakery_orders", "camping_site", "chess_club"}
    | {"dog_shelter", "music_school"}  # spider-unseen
)


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
    answer_rows = got.rows
    if len(answer_rows) != len(want.payload):
        return "wrong"
    for gold_row in want.payload:
        match = next((r for r in answer_rows if holds(r, gold_row)), None)
        if match is None:
            return "wrong"
        answer_rows.remove(match)
    return "right"


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
            tally.count(outcome)
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
    system, handler = ours(target.url, today, max_rows=MAX_ROWS, schemas=target.schemas)
    await system(spec["intents"][0]["questions"][0])  # warm schema and value caches once
    results = {OURS: await evaluate(system, spec, gold, explain)}
    await handler.aclose()
    peer = naive(target.url, max_rows=MAX_ROWS, schemas=target.schemas)
    results[PEER] = await evaluate(peer, spec, gold, False)
    return results


def load_specs(data: Path, parts: list[str], schemas: list[str]) -> list[dict[str, Any]]:
    specs = []
    for part in parts:
        for path in sorted((data / part).glob("*.json")):
            spec = json.loads(path.read_text(encoding="utf-8"))
            if not schemas or spec["schema"] in schemas:
                specs.append(spec)
    return specs


Row = tuple[tuple[str, ...], str, dict[str, float]]
"""One table line: what it covers (part, schema, engine or set, part, database), system, figures."""


def table(header: tuple[str, ...], rows: list[Row]) -> str:
    """One line per key and system; "vs ours" compares right answers."""
    base = {key: m for key, system, m in rows if system == OURS}
    names = [*header, "system", "questions", "right", "wrong", "refused", "right vs ours", "p50 ms"]
    lines = ["| " + " | ".join(names) + " |", "|" + "---|" * len(names)]
    for key, system, m in rows:
        ours_right = base[key]["right"]
        ratio = f"{m['right'] / ours_right:.2f}x" if ours_right else "-"
        lines.append(
            f"| {' | '.join(key)} | {system} | {m['questions']:.0f} | {m['right']:.1%} | "
            f"{m['wrong']:.1%} | {m['refused']:.1%} | {ratio} | {m['p50_ms']:.1f} |"
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


Totals = dict[tuple[str, str, str], Tally]
PerDatabase = defaultdict[str, dict[str, dict[str, float]]]
"""Per system, each Spider database's figures, keyed ``<set>/<database>``."""


async def owner_sets(args: argparse.Namespace, totals: Totals, misses: list[str]) -> list[Row]:
    """Run the owner-style question files on SQLite and, when reachable, PostgreSQL."""
    parts = ["dev", "heldout", "blind"] if args.part == "all" else [args.part]
    specs = load_specs(args.data, parts, args.schema)
    engines = ["sqlite"] + (["postgres"] if args.postgres and reachable(args.postgres) else [])
    rows: list[Row] = []
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
                    rows.append(((part, spec["schema"], engine), system, tally.metrics()))
                    totals.setdefault((part, engine, system), Tally()).add(tally)
                    misses += [f"{spec['schema']} {part} {engine}: {m}" for m in tally.misses]
    for (part, engine, system), tally in sorted(totals.items()):
        rows.append(((part, "all", engine), system, tally.metrics()))
    return rows


async def spider_sets(
    args: argparse.Namespace, totals: Totals, misses: list[str], per_db: PerDatabase
) -> list[Row]:
    """Run Spider-format folders; misses are shown for development databases only."""
    rows: list[Row] = []
    for folder in args.spider:
        with spider.databases_of(folder) as databases:
            questions = spider.load(folder, databases)
            for db in sorted(questions):
                if args.db and db not in args.db:
                    continue
                part = "development" if db in SPIDER_DEVELOPMENT else "held-out"
                explain = args.show_misses and part == "development"
                path = databases / db / f"{db}.sqlite"
                found = await spider.run_database(db, path, questions[db], explain)
                for system, tally in found.items():
                    rows.append(((folder.name, part, db), system, tally.metrics()))
                    per_db[system][f"{folder.name}/{db}"] = tally.metrics()
                    key = (f"{folder.name}:{part}", "sqlite", system)
                    totals.setdefault(key, Tally()).add(tally)
                    misses += [f"{db}: {m}" for m in tally.misses]
    overall: dict[tuple[str, str], Tally] = {}
    for (part, _, system), tally in sorted(totals.items()):
        name, _, which = part.partition(":")
        rows.append(((name, which, "all"), system, tally.metrics()))
        overall.setdefault((name, system), Tally()).add(tally)
    for (name, system), tally in overall.items():
        rows.append(((name, "all", "all"), system, tally.metrics()))
    return rows


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
    parser.add_argument(
        "--spider",
        type=Path,
        action="append",
        default=[],
        help="a Spider-format folder (dev.json, tables.json, database/); run these instead",
    )
    parser.add_argument("--db", action="append", default=[], help="only these Spider databases")
    parser.add_argument(
        "--json",
        type=Path,
        help="write {'systems': {...}} here; Spider figures also per database as metric[set/db]",
    )
    parser.add_argument("--show-misses", action="store_true")
    args = parser.parse_args()
    totals: Totals = {}
    misses: list[str] = []
    per_db: PerDatabase = defaultdict(dict)
    if args.spider:
        rows = await spider_sets(args, totals, misses, per_db)
        print(table(("set", "part", "database"), rows))
    else:
        rows = await owner_sets(args, totals, misses)
        print(table(("part", "schema", "engine"), rows))
    if args.show_misses:
        print("\nnot right:")
        print("\n".join(f"  - {m}" for m in misses) or "  none")
    if args.json:
        systems = json_systems(totals)
        for system, databases in per_db.items():
            for where, figures in databases.items():
                systems[system].update({f"{k}[{where}]": v for k, v in figures.items()})
        write_json(args.json, systems)


if __name__ == "__main__":
    asyncio.run(main())
