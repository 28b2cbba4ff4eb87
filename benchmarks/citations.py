"""Citation numbering cost per search: in memory, and persisted in SQLite and PostgreSQL.

Each search numbers 15 items (three sources of five), one of which was cited
before in the scope. Measured per search, median and p95 over ``--runs``:

- ``continue``: a scope the caller named (``request_id``/``thread_id``/``chat_id``):
  the items are numbered in the store in one transaction before the answer;
- ``fresh``: a scope the engine generated: numbered in memory, written afterwards
  (the cost shown is that write, which runs next to the record's);
- ``memory``: no store at all, the baseline.

Before timing, each store holds a few hundred numbered items and PostgreSQL has
analysed its tables, as autovacuum keeps a live database (fresh tables without
statistics make PostgreSQL scan a whole scope instead of using the index).

Usage: python benchmarks/citations.py [--runs N] [--postgres URL] [--json PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path

from unified_search.numbering import Numbering
from unified_search.store import SearchStore
from unified_search.types import ResultItem, SearchType

ITEMS_PER_SEARCH = 15


def items(search: int) -> list[ResultItem]:
    fresh = [
        ResultItem(type=SearchType.KB, collection="c", document_id=f"{search}-{i}")
        for i in range(ITEMS_PER_SEARCH - 1)
    ]
    return [ResultItem(type=SearchType.KB, collection="c", document_id="common"), *fresh]


async def timed(call: Callable[[int], Awaitable[object]], runs: int) -> dict[str, float]:
    await call(-1)  # warm up: connections, statements
    samples = []
    for run in range(runs):
        started = time.perf_counter()
        await call(run)
        samples.append((time.perf_counter() - started) * 1000)
    samples.sort()
    return {
        "median_ms": round(statistics.median(samples), 3),
        "p95_ms": round(samples[int(len(samples) * 0.95) - 1], 3),
    }


async def measure(store: SearchStore | None, runs: int) -> dict[str, float]:
    numbering = Numbering(store)
    scope = f"bench-{uuid.uuid4().hex}"
    if store is not None:
        for warm in range(20):
            await numbering.anumber(scope, items(-2 - warm))
        if store.engine.dialect.name == "postgresql":
            with store.engine.begin() as conn:
                for table in (store.ledger.scopes, store.ledger.ids):
                    conn.exec_driver_sql(f"ANALYZE {table.name}")

    async def continue_scope(run: int) -> None:
        await numbering.anumber(scope, items(run))

    async def fresh_scope(run: int) -> None:
        numbered = await numbering.anumber(numbering.new_scope(), items(run))
        await numbering.aremember(scope + str(run), numbered.unwritten)

    figures = {f"continue_{k}": v for k, v in (await timed(continue_scope, runs)).items()}
    if store is not None:
        figures |= {f"fresh_{k}": v for k, v in (await timed(fresh_scope, runs)).items()}
    return figures


async def main(runs: int, postgres: str | None) -> dict[str, dict[str, float]]:
    systems = {"unified-search (memory, no store)": await measure(None, runs)}
    with tempfile.TemporaryDirectory() as folder:
        sqlite = SearchStore(f"sqlite:///{Path(folder) / 'bench.sqlite3'}")
        systems["unified-search (default) sqlite"] = await measure(sqlite, runs)
        sqlite.close()
    if postgres:
        pg = SearchStore(postgres, table_prefix=f"bench{uuid.uuid4().hex[:8]}_")
        try:
            systems["unified-search postgresql"] = await measure(pg, runs)
        finally:
            pg.metadata.drop_all(pg.engine)
            pg.close()
    return systems


def table(systems: dict[str, dict[str, float]]) -> str:
    columns = ["continue_median_ms", "continue_p95_ms", "fresh_median_ms", "fresh_p95_ms"]
    lines = [f"{'store':<36}" + "".join(f"{c:>20}" for c in columns)]
    for name, figures in systems.items():
        cells = "".join(f"{figures.get(c, float('nan')):>20.3f}" for c in columns)
        lines.append(f"{name:<36}{cells}")
    return "\n".join(lines)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--postgres", help="a PostgreSQL URL to measure as well")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    result = asyncio.run(main(args.runs, args.postgres))
    print(f"citation numbering per search of {ITEMS_PER_SEARCH} items (ms)")
    print(table(result))
    if args.json:
        args.json.write_text(json.dumps({"systems": result}, indent=2))
