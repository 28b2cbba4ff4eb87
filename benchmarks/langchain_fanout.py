"""Fan-out latency: UnifiedSearchRetriever vs LangChain's EnsembleRetriever on three slow sources.

Three mocked sources answer after fixed delays, in two profiles: 50/100/200 ms
and 100/150/200 ms. Waiting for all three can never beat the slowest source,
while the EnsembleRetriever's sync ``invoke`` waits for their sum, so the best
possible speed-up is sum/max: 1.75× for the first profile, 2.25× for the
second; the table prints that ceiling next to each profile. Ours are Searcher
handlers (``asyncio.sleep``); the peer's are three LangChain retrievers that
sleep the same (``time.sleep`` when called sync, ``asyncio.sleep`` when async)
combined by ``langchain_classic.retrievers.EnsembleRetriever``. Each system runs
several times; the table shows the median wall time and the speed-up over the
EnsembleRetriever's sync ``invoke`` (which calls its retrievers one after another).

Usage: python benchmarks/langchain_fanout.py [--runs N] [--json PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from langchain_core.callbacks import (
    AsyncCallbackManagerForRetrieverRun,
    CallbackManagerForRetrieverRun,
)
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from report import ABSENT, absent, write_json

from langchain_unified_search import UnifiedSearchRetriever
from unified_search.contract.handler import SearchContext
from unified_search.engine.searcher import Searcher
from unified_search.types import ResultItem, SearchRequest, SearchResult, SearchType

PROFILES: dict[str, dict[SearchType, float]] = {
    "50/100/200 ms": {SearchType.WEB: 0.05, SearchType.KB: 0.10, SearchType.DB: 0.20},
    "100/150/200 ms": {SearchType.WEB: 0.10, SearchType.KB: 0.15, SearchType.DB: 0.20},
}
PER_SOURCE = 5
QUERY = "quarterly revenue by region"


def _contents(name: str) -> list[str]:
    return [f"{name} result {i} for {QUERY}" for i in range(PER_SOURCE)]


class SleepyHandler:
    """A Searcher source that answers after a fixed delay."""

    def __init__(self, type_: SearchType, delay: float) -> None:
        self.type, self.delay = type_, delay

    async def asearch(self, request: SearchRequest, ctx: SearchContext) -> SearchResult:
        await asyncio.sleep(self.delay)
        items = [
            ResultItem(
                type=self.type, content=text, score=1 - i / 10, document_id=f"{self.type}-{i}"
            )
            for i, text in enumerate(_contents(self.type.value))
        ]
        return SearchResult(type=self.type, query=request.query, items=items)


class SleepyRetriever(BaseRetriever):
    """A LangChain retriever that answers after the same fixed delay."""

    name: str
    delay: float

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun
    ) -> list[Document]:
        time.sleep(self.delay)
        return [Document(page_content=text) for text in _contents(self.name)]

    async def _aget_relevant_documents(
        self, query: str, *, run_manager: AsyncCallbackManagerForRetrieverRun
    ) -> list[Document]:
        await asyncio.sleep(self.delay)
        return [Document(page_content=text) for text in _contents(self.name)]


def ours(latencies: dict[SearchType, float], mode: str = "all") -> UnifiedSearchRetriever:
    handlers = {t: SleepyHandler(t, delay) for t, delay in latencies.items()}
    searcher = Searcher(handlers=handlers)
    return UnifiedSearchRetriever(searcher=searcher, types=list(latencies), k=15, mode=mode)


def peer(latencies: dict[SearchType, float]) -> Any:
    """The EnsembleRetriever over the same sources, or None when langchain-classic is absent."""
    try:
        from langchain_classic.retrievers import EnsembleRetriever
    except ImportError:
        return None
    retrievers = [SleepyRetriever(name=t.value, delay=d) for t, d in latencies.items()]
    return EnsembleRetriever(retrievers=retrievers, weights=[1 / 3] * 3)


def median_ms(call: Callable[[], Any], runs: int) -> float:
    call()  # warm-up: imports, the background loop, first-use caches
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        call()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def amedian_ms(call: Callable[[], Awaitable[Any]], runs: int) -> float:
    async def timed() -> float:
        started = time.perf_counter()
        await call()
        return (time.perf_counter() - started) * 1000

    async def all_runs() -> float:
        await call()
        return statistics.median([await timed() for _ in range(runs)])

    return asyncio.run(all_runs())


def measure(latencies: dict[SearchType, float], runs: int) -> dict[str, dict[str, Any]]:
    ours_all, ours_any, ensemble = ours(latencies), ours(latencies, "any"), peer(latencies)
    rows = {
        "unified-search (default) retriever (sync invoke, mode=all)": median_ms(
            lambda: ours_all.invoke(QUERY), runs
        ),
        "unified-search retriever (async ainvoke, mode=all)": amedian_ms(
            lambda: ours_all.ainvoke(QUERY), runs
        ),
        "unified-search retriever (sync invoke, mode=any)": median_ms(
            lambda: ours_any.invoke(QUERY), runs
        ),
    }
    if ensemble is None:
        missing = absent("not installed: langchain_classic")
        return {
            **{name: {"median_ms": round(ms, 1)} for name, ms in rows.items()},
            "EnsembleRetriever (sync invoke)": missing,
            "EnsembleRetriever (async ainvoke)": missing,
        }
    rows["EnsembleRetriever (sync invoke)"] = median_ms(lambda: ensemble.invoke(QUERY), runs)
    rows["EnsembleRetriever (async ainvoke)"] = amedian_ms(lambda: ensemble.ainvoke(QUERY), runs)
    baseline = rows["EnsembleRetriever (sync invoke)"]
    return {
        name: {"median_ms": round(ms, 1), "speedup_vs_ensemble_sync": round(baseline / ms, 2)}
        for name, ms in rows.items()
    }


def table(profile: str, results: dict[str, dict[str, Any]], runs: int) -> str:
    width = max(len(name) for name in results)
    latencies = PROFILES[profile].values()
    ceiling = sum(latencies) / max(latencies)
    lines = [
        f"Three mocked sources ({profile}), {runs} runs each, median wall time;"
        f" best possible speed-up for mode=all: {ceiling:.2f}×",
        f"{'system':<{width}}  {'median ms':>9}  {'× vs Ensemble sync':>18}",
        "-" * (width + 31),
    ]
    for name, row in results.items():
        if ABSENT in row:
            lines.append(f"{name:<{width}}  absent ({row[ABSENT]})")
        elif "speedup_vs_ensemble_sync" not in row:
            lines.append(f"{name:<{width}}  {row['median_ms']:>9.1f}  {'–':>18}")
        else:
            speedup = row["speedup_vs_ensemble_sync"]
            lines.append(f"{name:<{width}}  {row['median_ms']:>9.1f}  {speedup:>17.2f}×")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--json", type=Path, help="write {'systems': {...}} to this file")
    args = parser.parse_args()
    systems: dict[str, dict[str, Any]] = {}
    for profile, latencies in PROFILES.items():
        results = measure(latencies, args.runs)
        print(table(profile, results, args.runs), end="\n\n")
        systems |= {f"{name} [{profile}]": row for name, row in results.items()}
    if args.json:
        write_json(args.json, systems)


if __name__ == "__main__":
    main()
