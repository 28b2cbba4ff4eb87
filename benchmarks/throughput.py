"""Searches per second, latency and memory: the engine's own cost around three instant sources.

Three sources answer at once with five items each (15 items: merge, dedup,
rerank, citation IDs, ``<references>`` XML, events, record). Measured in one
run, rounds interleaved so that a noisy machine hurts every system alike:

- ``raw asyncio.gather``: the three handlers called directly, the floor;
- ``unified-search (no store)``: ``Searcher.aall`` without records;
- ``unified-search (default) sqlite`` / ``postgresql``: every search recorded
  through the record writer (a new scope per search, as without a ``request_id``:
  each answer waits for its numbering's commit, grouped with the others');
- ``… sync``: the same with ``sync=True`` (every record committed before its answer);
- ``… write-behind``: ``await_commit=False``, answers do not wait for the commit (the
  records are counted afterwards: ``records_stored_share`` is 1.0 when none was lost);
- ``HTTP API``: ``unified-search serve`` (``--workers``) on the bundled knowledge base
  and shop database (embedded defaults), ``POST /api/search`` at the same concurrency.

Each engine figure is searches/s at ``--concurrency`` (default 50) with p50/p99
latency, and the per-search overhead over raw gather at concurrency 1. Memory:
RSS after warm-up and after ``--memory-searches`` searches recorded in SQLite, and
the RSS of the store's writer process at the end.

Usage: python benchmarks/throughput.py [--searches N] [--rounds R] [--postgres URL]
       [--http-requests N] [--workers W] [--memory-searches N] [--json PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path

import httpx
import psutil
from report import absent, write_json
from sqlalchemy import func, select

from unified_search.config import SearchConfig
from unified_search.contract.handler import SearchContext
from unified_search.engine.searcher import Searcher
from unified_search.records.store import SearchStore
from unified_search.samples.knowledge import SAMPLE_COLLECTION
from unified_search.types import ResultItem, SearchRequest, SearchResult, SearchType

TEXT = (
    "Vector indexes trade a little recall for a lot of speed: HNSW graphs keep close "
    "neighbours linked, so a query visits a few hundred nodes instead of every vector. "
)
Call = Callable[[int], Awaitable[object]]


class Instant:
    """A source that answers at once with five items of its type."""

    def __init__(self, kind: SearchType) -> None:
        self.kind = kind

    async def asearch(self, request: SearchRequest, ctx: SearchContext) -> SearchResult:
        items = [self._item(request.query, i) for i in range(5)]
        return SearchResult(type=self.kind, query=request.query, items=items)

    def _item(self, query: str, i: int) -> ResultItem:
        fields: dict[str, object] = {
            "type": self.kind,
            "title": f"{self.kind.value} result {i} for {query}",
            "content": TEXT,
            "score": 1 - i / 10,
        }
        if self.kind is SearchType.WEB:
            fields["url"] = f"https://example.com/{query}/{i}"
        elif self.kind is SearchType.KB:
            fields |= {"collection": "docs", "document_id": f"{query}-{i}"}
        else:
            fields |= {"model": "products", "record_id": f"{query}-{i}"}
        return ResultItem.model_validate(fields)


HANDLERS = {kind: Instant(kind) for kind in SearchType}


def requests(n: int) -> list[dict[str, str]]:
    return [{"query": f"q{n}", "type": kind.value} for kind in SearchType]


def raw_call() -> Call:
    context = SearchContext(config=SearchConfig(), request_id="raw")

    async def call(n: int) -> object:
        batch = [SearchRequest.model_validate(r) for r in requests(n)]
        return await asyncio.gather(*(HANDLERS[r.type].asearch(r, context) for r in batch))

    return call


#: Answers that came with a store warning (record not committed within ``wait``), per searcher.
UNSTORED: dict[int, int] = {}


def engine_call(searcher: Searcher) -> Call:
    async def call(n: int) -> object:
        response = await searcher.aall(requests(n))
        if response.warnings:
            UNSTORED[id(searcher)] = UNSTORED.get(id(searcher), 0) + 1
        return response

    return call


async def run(call: Call, searches: int, concurrency: int, offset: int) -> list[float]:
    """Run ``searches`` calls, ``concurrency`` at a time; return each one's latency (ms)."""
    latencies: list[float] = []
    next_index = iter(range(offset, offset + searches))

    async def worker() -> None:
        for n in next_index:
            started = time.perf_counter()
            await call(n)
            latencies.append((time.perf_counter() - started) * 1000)

    await asyncio.gather(*(worker() for _ in range(concurrency)))
    return latencies


class Timing:
    """Latencies and wall time gathered over rounds."""

    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.seconds = 0.0

    async def add(self, call: Call, searches: int, concurrency: int, offset: int) -> None:
        started = time.perf_counter()
        self.latencies += await run(call, searches, concurrency, offset)
        self.seconds += time.perf_counter() - started

    def figures(self) -> dict[str, float]:
        ordered = sorted(self.latencies)
        return {
            "searches_per_s": round(len(ordered) / self.seconds, 1),
            "p50_ms": round(statistics.median(ordered), 3),
            "p99_ms": round(ordered[max(0, int(len(ordered) * 0.99) - 1)], 3),
        }


async def engines(args: argparse.Namespace, folder: Path) -> dict[str, dict[str, float]]:
    stores: dict[str, SearchStore | None] = {
        "unified-search (no store)": None,
        "unified-search (default) sqlite": SearchStore(f"sqlite:///{folder / 'default.sqlite3'}"),
        "unified-search sqlite sync": SearchStore(
            f"sqlite:///{folder / 'sync.sqlite3'}", sync=True
        ),
        "unified-search sqlite write-behind": SearchStore(
            f"sqlite:///{folder / 'behind.sqlite3'}", await_commit=False
        ),
    }
    prefix = f"tp{uuid.uuid4().hex[:8]}_"
    if args.postgres:
        stores["unified-search postgresql"] = SearchStore(args.postgres, table_prefix=prefix)
        stores["unified-search postgresql write-behind"] = SearchStore(
            args.postgres, table_prefix=f"{prefix}b_", await_commit=False
        )
        stores["unified-search postgresql sync"] = SearchStore(
            args.postgres, table_prefix=f"{prefix}s_", sync=True
        )
    searchers = {name: Searcher(handlers=HANDLERS, store=store) for name, store in stores.items()}
    calls = {"raw asyncio.gather": raw_call()} | {
        name: engine_call(searcher) for name, searcher in searchers.items()
    }
    busy = {name: Timing() for name in calls}
    alone = {name: Timing() for name in calls}
    warm = min(100, args.searches)
    for call in calls.values():  # warm up: tokenizer, validators, connections
        await run(call, warm, 10, 0)
    UNSTORED.clear()
    per_round = args.searches // args.rounds
    for round_ in range(args.rounds):
        for name, call in calls.items():
            offset = (round_ + 1) * 10 * args.searches
            await busy[name].add(call, per_round, args.concurrency, offset)
            await alone[name].add(call, per_round // 10, 1, offset + per_round)
    raw_alone = statistics.mean(alone["raw asyncio.gather"].latencies)
    result: dict[str, dict[str, float]] = {}
    for name in calls:
        figures = busy[name].figures()
        mean_alone = statistics.mean(alone[name].latencies)
        figures["concurrency_1_ms"] = round(mean_alone, 3)
        figures["overhead_over_raw_ms"] = round(mean_alone - raw_alone, 3)
        if name in searchers:  # answers whose record was not committed within ``wait``
            figures["answers_not_stored_in_time"] = UNSTORED.get(id(searchers[name]), 0)
        result[name] = figures
    run_each = warm + args.rounds * (per_round + per_round // 10)
    for name, store in stores.items():
        if store is not None:  # every search's three records, written behind or not
            await store.aflush()
            with store.engine.connect() as conn:
                stored = conn.execute(select(func.count()).select_from(store.records)).scalar_one()
            result[name]["records_stored_share"] = round(stored / (3 * run_each), 4)
    for store in stores.values():
        if store is not None:
            await store.aclose()
            if store.engine.dialect.name == "postgresql":
                store.metadata.drop_all(store.engine)
    return result


async def memory(searches: int, folder: Path) -> dict[str, float]:
    """RSS (MiB) and live Python objects after warm-up and at each quarter of ``searches``.

    Growth within the configured caches' bounds is expected early (the last 4,096 scopes'
    numbering, 4,096 canonical URLs ...); the last quarter shows whether anything grows
    without bound. The objects (counted after a collection) tell the process's own growth
    from the allocator's: RSS also moves as freed memory is reused or returned.
    """
    process = psutil.Process()
    store = SearchStore(f"sqlite:///{folder / 'memory.sqlite3'}")
    searcher = Searcher(handlers=HANDLERS, store=store)
    call = engine_call(searcher)
    await run(call, min(2_000, searches), 50, 0)  # warm up
    gc.collect()
    figures: dict[str, float] = {
        "searches": searches,
        "rss_after_warmup_mib": round(process.memory_info().rss / 2**20, 1),
        "objects_after_warmup": len(gc.get_objects()),
    }
    quarter = searches // 4
    for part in range(1, 5):
        await run(call, quarter, 50, 10_000 + part * quarter)
        gc.collect()
        figures[f"rss_after_{part * quarter}_mib"] = round(process.memory_info().rss / 2**20, 1)
        figures[f"objects_after_{part * quarter}"] = len(gc.get_objects())
    # The store's writer process (started under load) holds its own connection and memory.
    children = process.children()
    figures["writer_process_rss_mib"] = round(sum(c.memory_info().rss for c in children) / 2**20, 1)
    await searcher.aclose()
    figures["growth_last_quarter_mib"] = round(
        figures[f"rss_after_{4 * quarter}_mib"] - figures[f"rss_after_{3 * quarter}_mib"], 1
    )
    figures["objects_growth_last_quarter"] = (
        figures[f"objects_after_{4 * quarter}"] - figures[f"objects_after_{3 * quarter}"]
    )
    return figures


# -- the HTTP API -----------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def prepare_home(home: Path) -> Path:
    """Index the bundled help centre and build the shop database (``unified-search demo``)."""
    env = {**os.environ, "UNIFIED_SEARCH_HOME": str(home)}
    subprocess.run(
        [sys.executable, "-m", "unified_search.cli", "demo"],
        env=env,
        check=True,
        capture_output=True,
    )
    config = home / "search.yml"
    config.write_text(
        f"kb:\n  collections: [{SAMPLE_COLLECTION}]\n"
        f"db:\n  url: sqlite:///{home / 'demo' / 'shop.db'}\n"
    )
    return config


async def http_api(
    requests_: int, concurrency: int, workers: int, folder: Path
) -> dict[str, float]:
    home = folder / "home"
    config = prepare_home(home)
    port = free_port()
    env = {**os.environ, "UNIFIED_SEARCH_HOME": str(home)}
    command = [sys.executable, "-m", "unified_search.cli", "serve", "--port", str(port)]
    server = subprocess.Popen(
        [*command, "--workers", str(workers), "--config", str(config)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=120) as client:
            await wait_until_up(client)
            questions = ["wireless headphones under $100", "return policy for opened earbuds"]

            async def call(n: int) -> object:
                body = {"query": questions[n % 2], "types": ["kb", "db"], "chat_id": f"c{n % 7}"}
                answer = await client.post("/api/search", json=body)
                answer.raise_for_status()
                return answer

            await run(call, 2 * concurrency, concurrency, 0)  # warm up every worker's model
            timing = Timing()
            await timing.add(call, requests_, concurrency, 0)
            return {**timing.figures(), "workers": workers}
    finally:
        server.terminate()
        server.wait(30)


async def wait_until_up(client: httpx.AsyncClient) -> None:
    for _ in range(600):
        try:
            await client.get("/api/chat/x/request/x/references")
            return
        except httpx.TransportError:
            await asyncio.sleep(0.1)
    raise RuntimeError("the server did not start")


async def main(args: argparse.Namespace) -> dict[str, dict[str, float]]:
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        systems = await engines(args, folder)
        if args.http_requests:
            try:
                systems["unified-search HTTP API"] = await http_api(
                    args.http_requests, args.concurrency, args.workers, folder
                )
            except (subprocess.CalledProcessError, RuntimeError) as exc:
                systems["unified-search HTTP API"] = absent(f"not measured: {exc}")
                print(f"HTTP API not measured: {exc}", file=sys.stderr)
        if args.memory_searches:
            systems["unified-search (default) sqlite, memory"] = await memory(
                args.memory_searches, folder
            )
    return systems


def table(systems: dict[str, dict[str, float]]) -> str:
    columns = [
        "searches_per_s",
        "p50_ms",
        "p99_ms",
        "concurrency_1_ms",
        "overhead_over_raw_ms",
        "answers_not_stored_in_time",
    ]
    lines = [f"{'system':<36}" + "".join(f"{c:>22}" for c in columns)]
    for name, figures in systems.items():
        if "searches_per_s" not in figures:
            continue
        cells = "".join(f"{figures.get(c, float('nan')):>22.3f}" for c in columns)
        lines.append(f"{name:<36}{cells}")
    for name, figures in systems.items():
        if "growth_last_quarter_mib" in figures:
            for what, unit in (("rss", "_mib"), ("objects", "")):
                samples = ", ".join(
                    f"{key.removeprefix(what + '_after_').removesuffix(unit)}: {value:g}"
                    for key, value in figures.items()
                    if key.startswith(what + "_after_")
                )
                lines.append(f"{name} {what} ({samples})")
            lines.append(
                f"last quarter: RSS {figures['growth_last_quarter_mib']:+} MiB, "
                f"objects {figures['objects_growth_last_quarter']:+g}; "
                f"writer process RSS {figures['writer_process_rss_mib']} MiB"
            )
    return "\n".join(lines)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--searches", type=int, default=6_000, help="per system, over all rounds")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--concurrency", type=int, default=50)
    parser.add_argument("--postgres", help="a PostgreSQL URL to measure as well")
    parser.add_argument("--http-requests", type=int, default=1_000, help="0 skips the HTTP API")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--memory-searches", type=int, default=100_000, help="0 skips memory")
    parser.add_argument("--json", type=Path)
    arguments = parser.parse_args()
    result = asyncio.run(main(arguments))
    print(f"three instant sources, 15 items per search, concurrency {arguments.concurrency}")
    print(table(result))
    if arguments.json:
        write_json(arguments.json, result)
