"""Web search speed: parallel fan-out vs sequential provider calls, and cache hit vs miss.

Three providers are mocked at the HTTP transport with different latencies
(the answers are the recorded API shapes in tests/fixtures/web), so the numbers
measure our own overhead and concurrency, not the network.

    python benchmarks/web.py [--runs 7] [--json PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx

from unified_search.config import SearchConfig
from unified_search.handler import SearchContext
from unified_search.types import SearchRequest
from unified_search.web.cache import MemoryCache, ResultCache, SQLiteCache
from unified_search.web.handler import WebHandler

FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "web"
#: host → (recorded answer, simulated latency in seconds)
PROVIDERS = {
    "tavily": ("api.tavily.com", "tavily_search_success", 0.060),
    "brave": ("api.search.brave.com", "brave_search_success", 0.100),
    "exa": ("api.exa.ai", "exa_search_success", 0.140),
}
KEYS = ("TAVILY_API_KEY", "BRAVE_API_KEY", "EXA_API_KEY")


def transport() -> httpx.MockTransport:
    answers = {}
    for host, fixture, latency in PROVIDERS.values():
        data = json.loads((FIXTURES / f"{fixture}.json").read_text(encoding="utf-8"))
        answers[host] = (data["response"], latency)

    async def handle(request: httpx.Request) -> httpx.Response:
        body, latency = answers[request.url.host]
        await asyncio.sleep(latency)
        return httpx.Response(200, json=body)

    return httpx.MockTransport(handle)


def config(providers: list[str]) -> SearchConfig:
    return SearchConfig.load(profile={"web": {"providers": providers}})


async def timed(job: Callable[[], Awaitable[Any]], runs: int) -> float:
    """Median wall time of ``job`` in milliseconds."""
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        await job()
        samples.append((time.perf_counter() - started) * 1000)
    return statistics.median(samples)


async def fan_out_vs_sequential(runs: int) -> dict[str, float]:
    names = list(PROVIDERS)
    handler = WebHandler(config(names), transport=transport(), cache=None)
    all_ctx = SearchContext(config=config(names), request_id="bench")
    one_ctx = {name: SearchContext(config=config([name]), request_id="bench") for name in names}
    request = SearchRequest(query="rust async runtime comparison")

    async def parallel() -> None:
        await handler.search(request, all_ctx)

    async def sequential() -> None:
        for name in names:
            await handler.search(request, one_ctx[name])

    await parallel()  # warm the connection pool
    result = {"parallel": await timed(parallel, runs), "sequential": await timed(sequential, runs)}
    await handler.aclose()
    return result


async def cache_latency(cache: ResultCache, runs: int) -> dict[str, float]:
    handler = WebHandler(config(["tavily"]), transport=transport(), cache=cache)
    ctx = SearchContext(config=config(["tavily"]), request_id="bench")
    counter = iter(range(10**6))

    async def miss() -> None:
        await handler.search(SearchRequest(query=f"fresh query {next(counter)}"), ctx)

    async def hit() -> None:
        await handler.search(SearchRequest(query="repeated query"), ctx)

    await hit()
    result = {"miss": await timed(miss, runs), "hit": await timed(hit, runs)}
    await handler.aclose()
    return result


async def measure(runs: int) -> dict[str, dict[str, float]]:
    fan = await fan_out_vs_sequential(runs)
    memory = await cache_latency(MemoryCache(ttl=3600, max_entries=1000), runs)
    with tempfile.TemporaryDirectory() as folder:
        sqlite = await cache_latency(
            SQLiteCache(Path(folder) / "c.sqlite", ttl=3600, max_entries=1000), runs
        )
    return {
        "unified-search (parallel fan-out, 3 providers)": {"latency_ms": fan["parallel"]},
        "sequential calls (3 providers, one by one)": {"latency_ms": fan["sequential"]},
        "unified-search (cache miss, 1 provider)": {"latency_ms": memory["miss"]},
        "unified-search (memory cache hit)": {"latency_ms": memory["hit"]},
        "unified-search (sqlite cache hit)": {"latency_ms": sqlite["hit"]},
    }


def table(systems: dict[str, dict[str, float]]) -> str:
    names = list(systems)
    sequential = systems[names[1]]["latency_ms"]
    miss = systems[names[2]]["latency_ms"]
    baselines = [sequential, sequential, miss, miss, miss]
    lines = [f"{'system':<48} {'median ms':>10} {'vs baseline':>12}", "-" * 72]
    for name, baseline in zip(names, baselines, strict=True):
        value = systems[name]["latency_ms"]
        lines.append(f"{name:<48} {value:>10.2f} {value / baseline:>11.3f}x")
    simulated = ", ".join(f"{n} {int(v[2] * 1000)} ms" for n, v in PROVIDERS.items())
    lines.append(f"(simulated provider latency: {simulated}; baselines: sequential, cache miss)")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    for key in KEYS:
        os.environ.setdefault(key, "benchmark-key")
    systems = asyncio.run(measure(args.runs))
    print(table(systems))
    if args.json:
        args.json.write_text(json.dumps({"systems": systems}, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
