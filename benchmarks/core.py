"""Core engine benchmark: fan-out wall time and post-processing cost.

(1) Three simulated sources answering after 50, 100 and 200 ms: ``all()`` against
the slowest source and against calling them one after another; ``race()`` and
``any()`` against the fastest. (2) merge + dedup + rerank + citations + XML for
100, 1,000 and 10,000 candidate items (``--sizes``).

Usage: python benchmarks/core.py [--runs N] [--sizes N ...] [--json PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from report import write_json

from unified_search.citations import CitationAllocator, build_context
from unified_search.config import SearchConfig
from unified_search.contract.handler import SearchContext
from unified_search.engine.merge import merge, weighted_items
from unified_search.engine.searcher import Searcher
from unified_search.rerank.weighted import weighted_order
from unified_search.types import ResultItem, SearchRequest, SearchResult, SearchType, Source

LATENCIES = {SearchType.WEB: 0.05, SearchType.KB: 0.10, SearchType.DB: 0.20}


class SleepyHandler:
    """A source that answers after a fixed latency with five items."""

    def __init__(self, latency: float) -> None:
        self.latency = latency

    async def asearch(self, request: SearchRequest, ctx: SearchContext) -> SearchResult:
        await asyncio.sleep(self.latency)
        items = [
            ResultItem(
                type=request.type,
                title=f"{request.type} {i}",
                content="x" * 200,
                document_id=str(i),
                record_id=str(i),
                url=f"https://example.com/{request.type}/{i}",
                score=1 - i / 10,
            )
            for i in range(5)
        ]
        return SearchResult(type=request.type, query=request.query, items=items)


async def _median_ms(call: Callable[[], Awaitable[object]], runs: int) -> float:
    await call()  # warm up: loads the tokenizer, builds pydantic validators
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        await call()
        samples.append((time.perf_counter() - started) * 1000)
    return statistics.median(samples)


async def fan_out_figures(runs: int) -> dict[str, dict[str, float]]:
    searcher = Searcher(handlers={t: SleepyHandler(s) for t, s in LATENCIES.items()})
    requests = [{"query": "benchmark", "type": t.value} for t in LATENCIES]
    slowest, fastest = max(LATENCIES.values()) * 1000, min(LATENCIES.values()) * 1000
    total = sum(LATENCIES.values()) * 1000

    async def sequential() -> None:
        ctx = SearchContext(config=searcher.config, request_id="seq")
        for request in requests:
            await searcher.handler(SearchType(request["type"])).asearch(
                SearchRequest.model_validate(request), ctx
            )

    figures = {
        "unified-search (default) all()": (
            await _median_ms(lambda: searcher.aall(requests), runs),
            slowest,
        ),
        "unified-search race()": (
            await _median_ms(lambda: searcher.arace(requests), runs),
            fastest,
        ),
        "unified-search any()": (await _median_ms(lambda: searcher.aany(requests), runs), fastest),
        "sequential calls (one after another)": (await _median_ms(sequential, runs), slowest),
    }
    return {
        name: {
            "wall_ms": wall,
            "reference_ms": ref,
            "overhead_ms": wall - ref,
            "vs_sum": wall / total,
        }
        for name, (wall, ref) in figures.items()
    }


def _candidates(n: int, config: SearchConfig) -> list[SearchResult]:
    """Three result lists of ``n`` items in all, a fifth of the web pages duplicated across lists.

    The engine weighs each result as it arrives, before the slowest source answers;
    so do we here, outside the timed post-processing.
    """
    per = n // 3
    web = [
        ResultItem(
            type="web",
            title=f"page {i}",
            url=f"https://site{i % 50}.example/p/{i}?utm_source=x",
            content="lorem ipsum " * 25,
            score=(i % 97) / 97,
        )
        for i in range(per)
    ]
    dupes = [
        w.model_copy(update={"url": w.url.replace("https", "http") if w.url else None})
        for w in web[: per // 5]
    ]
    kb = [
        ResultItem(
            type="kb",
            collection="docs",
            document_id=str(i),
            content="chunk text " * 25,
            score=(i % 89) / 89,
        )
        for i in range(per)
    ]
    db = [
        ResultItem(
            type="db",
            model="products",
            record_id=str(i),
            content="name: thing",
            score=(i % 83) / 83,
        )
        for i in range(n - 2 * per - len(dupes))
    ]
    results = [
        SearchResult(type="web", query="q", source=Source.USER, items=web),
        SearchResult(type="kb", query="q", source=Source.HOOK, items=kb),
        SearchResult(type="db", query="q", source=Source.AUTO, items=db + dupes),
    ]
    return [r.model_copy(update={"items": weighted_items(r, config.weights)}) for r in results]


def post_process(results: list[SearchResult], config: SearchConfig, top_n: int) -> int:
    items = weighted_order(merge(results, config.weights), top_n)
    cited = CitationAllocator().assign(items)
    return len(build_context(cited, config.citation).xml)


def post_processing_figures(runs: int, sizes: list[int]) -> dict[str, dict[str, float]]:
    config = SearchConfig()
    figures: dict[str, dict[str, float]] = {}
    for n in sizes:
        results = _candidates(n, config)
        post_process(results, config, config.rerank.top_n)
        samples = []
        for _ in range(runs):
            started = time.perf_counter()
            post_process(results, config, config.rerank.top_n)
            samples.append((time.perf_counter() - started) * 1000)
        figures[f"unified-search post-process {n} items"] = {
            "ms_p50": statistics.median(samples),
            "us_per_item": statistics.median(samples) * 1000 / n,
        }
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 1_000, 10_000])
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()

    fan = asyncio.run(fan_out_figures(args.runs))
    post = post_processing_figures(args.runs, args.sizes)
    print(
        "(1) fan-out over three sources answering in 50 / 100 / 200 ms (median of",
        args.runs,
        "runs)",
    )
    print(f"{'system':40} {'wall ms':>9} {'target ms':>10} {'over target':>12} {'wall/sum':>9}")
    for name, row in fan.items():
        print(
            f"{name:40} {row['wall_ms']:9.1f} {row['reference_ms']:10.0f} {row['overhead_ms']:+12.1f} {row['vs_sum']:9.2f}"
        )
    print("\n(2) merge + dedup + weighted rerank (top_n 10) + citation IDs + <references> XML")
    print(f"{'system':40} {'ms p50':>9} {'us/item':>10}")
    for name, row in post.items():
        print(f"{name:40} {row['ms_p50']:9.2f} {row['us_per_item']:10.2f}")
    if args.json:
        write_json(args.json, {**fan, **post})


if __name__ == "__main__":
    main()
