"""Web search: fan-out and cache speed, single flight, rate limits, and main-text extraction.

Providers are mocked at the HTTP transport with different latencies (the
answers are the recorded API shapes in tests/fixtures/web), so the numbers
measure our own overhead and behaviour, not the network. Scenarios:

* parallel fan-out vs sequential provider calls, cache hit vs miss;
* ``--identical N …`` identical concurrent cold searches → provider calls made
  (ours: single flight, in memory and over Redis between two handlers that
  stand for two processes; a plain cached client, aiocache's ``@cached``,
  misses N times; aiocache's ``@cached_stampede`` locks like ours);
* one provider answering 429 with ``Retry-After`` beside two healthy ones →
  seconds until the healthy results are in hand (ours vs a gather whose
  retries honour ``Retry-After``);
* the excerpt of a provider's error page when the page is hostile (tens of
  thousands of unclosed scripts, styles and tags): milliseconds per page, which
  a parser quadratic in the page would turn into seconds;
* with ``--pages PATH``, the extraction quality table of ``benchmarks/extraction.py``.

    python benchmarks/web.py [--runs 7] [--identical 5 50] [--redis URL] [--retry-after 2]
        [--pages benchmarks/data/extraction] [--json PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib.util
import json
import os
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
from report import absent, write_json

from unified_search.config import SearchConfig
from unified_search.contract.handler import SearchContext
from unified_search.http import excerpt
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


def _answers() -> dict[str, tuple[Any, float]]:
    answers = {}
    for host, fixture, latency in PROVIDERS.values():
        data = json.loads((FIXTURES / f"{fixture}.json").read_text(encoding="utf-8"))
        answers[host] = (data["response"], latency)
    return answers


ANSWERS = _answers()


def transport() -> httpx.MockTransport:
    async def handle(request: httpx.Request) -> httpx.Response:
        body, latency = ANSWERS[request.url.host]
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
        await handler.asearch(request, all_ctx)

    async def sequential() -> None:
        for name in names:
            await handler.asearch(request, one_ctx[name])

    await parallel()  # warm the connection pool
    result = {"parallel": await timed(parallel, runs), "sequential": await timed(sequential, runs)}
    await handler.aclose()
    return result


async def cache_latency(cache: ResultCache, runs: int) -> dict[str, float]:
    handler = WebHandler(config(["tavily"]), transport=transport(), cache=cache)
    ctx = SearchContext(config=config(["tavily"]), request_id="bench")
    counter = iter(range(10**6))

    async def miss() -> None:
        await handler.asearch(SearchRequest(query=f"fresh query {next(counter)}"), ctx)

    async def hit() -> None:
        await handler.asearch(SearchRequest(query="repeated query"), ctx)

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


class CountingTavily:
    """The Tavily API, mocked: answers after 50 ms and counts the calls it gets."""

    def __init__(self) -> None:
        self.calls = 0
        self.body = json.loads((FIXTURES / "tavily_search_success.json").read_text())["response"]

    async def __call__(self, request: httpx.Request) -> httpx.Response:
        self.calls += 1
        await asyncio.sleep(0.05)
        return httpx.Response(200, json=self.body)


async def identical_searches(count: int, redis_url: str | None) -> dict[str, dict[str, Any]]:
    """Provider calls made by ``count`` identical concurrent cold searches, per system."""
    request = SearchRequest(query="identical question")
    rows: dict[str, dict[str, Any]] = {}

    server = CountingTavily()
    handler = WebHandler(  # a cache of its own: each scenario starts cold
        config(["tavily"]),
        transport=httpx.MockTransport(server),
        cache=MemoryCache(ttl=3600, max_entries=1000),
    )
    ctx = SearchContext(config=config(["tavily"]), request_id="bench")
    await asyncio.gather(*(handler.asearch(request, ctx) for _ in range(count)))
    await handler.aclose()
    rows["unified-search (single flight, memory cache)"] = {"provider_calls": server.calls}
    rows["unified-search (two processes, Redis cache)"] = await _over_redis(count, redis_url)
    for name, decorator in _aiocache_peers().items():
        missing = absent("not installed: aiocache")
        rows[name] = missing if decorator is None else await _peer_calls(count, decorator)
    rows["plain client, no cache"] = await _peer_calls(count, lambda search: search)
    return rows


async def _over_redis(count: int, redis_url: str | None) -> dict[str, Any]:
    """Two handlers, each with its own Redis connection (as two processes have), half the searches each."""
    if redis_url is None:
        return absent("no --redis URL")
    from unified_search.web.cache import RedisCache

    server = CountingTavily()
    prefix = f"bench:{time.time_ns()}:"
    web = {
        "providers": ["tavily"],
        "cache": {"backend": "redis", "url": redis_url, "prefix": prefix},
    }
    shared = SearchConfig.load(profile={"web": web})
    handlers = [
        WebHandler(
            shared,
            transport=httpx.MockTransport(server),
            cache=RedisCache(redis_url, ttl=60, max_entries=100, prefix=prefix),
        )
        for _ in range(2)
    ]
    ctx = SearchContext(config=shared, request_id="bench")
    request = SearchRequest(query="identical question")
    try:
        await asyncio.gather(
            *(handlers[n % 2].asearch(request, ctx) for n in range(count)),
        )
    except Exception as exc:  # a Redis that is not there: the row says so
        return absent(f"Redis failed: {type(exc).__name__}")
    finally:
        for handler in handlers:
            await handler.aclose()
        await _drop(redis_url, prefix)
    return {"provider_calls": server.calls}


async def _drop(redis_url: str, prefix: str) -> None:
    """Delete the keys the two-process rows left under ``prefix``."""
    import redis.asyncio as redis_asyncio

    client = redis_asyncio.from_url(redis_url)
    with contextlib.suppress(Exception):  # a Redis that is not there has nothing to clean
        keys = [key async for key in client.scan_iter(match=prefix + "*")]
        if keys:
            await client.delete(*keys)
    await client.aclose()


def _aiocache_peers() -> dict[str, Any]:
    if importlib.util.find_spec("aiocache") is None:
        return dict.fromkeys(
            ["aiocache @cached (plain cached client)", "aiocache @cached_stampede (its lock)"]
        )
    from aiocache import cached, cached_stampede

    return {
        "aiocache @cached (plain cached client)": cached(ttl=60),
        "aiocache @cached_stampede (its lock)": cached_stampede(ttl=60, lease=2),
    }


async def _peer_calls(count: int, decorator: Any) -> dict[str, Any]:
    """Provider calls of ``count`` concurrent identical calls of an httpx client, cached by ``decorator``."""
    server = CountingTavily()
    async with httpx.AsyncClient(transport=httpx.MockTransport(server)) as client:

        async def search(query: str) -> Any:
            response = await client.post("https://api.tavily.com/search", json={"query": query})
            return response.json()

        call = decorator(search)
        await asyncio.gather(*(call("identical question") for _ in range(count)))
    return {"provider_calls": server.calls}


async def rate_limited_beside_healthy(retry_after: float) -> dict[str, dict[str, Any]]:
    """Seconds until the two healthy providers' results are in hand, while Exa answers 429."""

    async def handle(request: httpx.Request) -> httpx.Response:
        if request.url.host == "api.exa.ai":
            return httpx.Response(
                429, json={"error": "rate limit"}, headers={"Retry-After": f"{retry_after:g}"}
            )
        body, latency = ANSWERS[request.url.host]
        await asyncio.sleep(latency)
        return httpx.Response(200, json=body)

    transport = httpx.MockTransport(handle)
    names = list(PROVIDERS)
    handler = WebHandler(config(names), transport=transport, cache=None)
    ctx = SearchContext(config=config(names), request_id="bench")
    started = time.perf_counter()
    result = await handler.asearch(SearchRequest(query="q"), ctx)
    ours = time.perf_counter() - started
    await handler.aclose()
    started = time.perf_counter()
    async with httpx.AsyncClient(transport=transport) as plain:
        await asyncio.gather(
            *(_honouring_retry_after(plain, host) for host, _, _ in PROVIDERS.values())
        )
    naive = time.perf_counter() - started
    return {
        "unified-search (provider in backoff cut short)": {
            "healthy_results_s": round(ours, 3),
            "healthy_items": len(result.items),
        },
        "plain gather, retries honouring Retry-After": {"healthy_results_s": round(naive, 3)},
    }


async def _honouring_retry_after(client: httpx.AsyncClient, host: str, retries: int = 2) -> None:
    for _ in range(retries + 1):
        response = await client.get(f"https://{host}/")
        if response.status_code != 429:
            return
        await asyncio.sleep(float(response.headers["Retry-After"]))


#: Error pages built to be slow to read: every script, style and tag left open.
HOSTILE = {
    "unclosed <script> x40,000": "<script>" * 40_000,
    "unclosed <style x60,000": "<style" * 60_000,
    "unclosed <a x80,000": "<a" * 80_000,
    "bare < x200,000": "<" * 200_000,
}


def hostile_excerpts(runs: int) -> dict[str, dict[str, Any]]:
    """Median milliseconds to excerpt each hostile error page (what a failed call reports)."""
    row: dict[str, Any] = {}
    for name, page in HOSTILE.items():
        samples = []
        for _ in range(runs):
            started = time.perf_counter()
            excerpt(page + "</body>")
            samples.append((time.perf_counter() - started) * 1000)
        row[f"ms {name}"] = round(statistics.median(samples), 3)
    row["ms_max"] = max(row.values())
    return {"unified-search (error excerpt of hostile pages)": row}


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


def scenario_table(title: str, systems: dict[str, dict[str, Any]]) -> str:
    lines = ["", title, "-" * 72]
    for name, row in systems.items():
        values = ", ".join(f"{key} {value}" for key, value in row.items())
        lines.append(f"{name:<48} {values}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument(
        "--identical",
        type=int,
        nargs="+",
        default=[5, 50],
        help="numbers of identical concurrent searches",
    )
    parser.add_argument("--redis", default=None, help="Redis URL for the two-process rows")
    parser.add_argument("--retry-after", type=float, default=2.0, help="seconds the 429 asks for")
    parser.add_argument("--pages", type=Path, default=None, help="extraction pages (pages.json)")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    for key in KEYS:
        os.environ.setdefault(key, "benchmark-key")
    systems: dict[str, dict[str, Any]] = dict(asyncio.run(measure(args.runs)))
    print(table(systems))
    flights: dict[str, dict[str, Any]] = {}
    for count in args.identical:
        found = asyncio.run(identical_searches(count, args.redis))
        print(scenario_table(f"{count} identical concurrent cold searches", found))
        flights.update({f"{name} [{count} searches]": row for name, row in found.items()})
    limits = asyncio.run(rate_limited_beside_healthy(args.retry_after))
    title = (
        f"one provider answering 429, Retry-After {args.retry_after:g} s, beside two healthy ones"
    )
    print(scenario_table(title, limits))
    hostile = hostile_excerpts(args.runs)
    print(scenario_table("error excerpts of hostile pages (median ms)", hostile))
    systems.update(flights)
    systems.update(limits)
    systems.update(hostile)
    most = max(args.identical)
    systems["unified-search (default)"] = {
        f"provider_calls_{most}_identical": flights[
            f"unified-search (single flight, memory cache) [{most} searches]"
        ]["provider_calls"],
        "healthy_results_s": limits["unified-search (provider in backoff cut short)"][
            "healthy_results_s"
        ],
    }
    if args.pages:
        from extraction import measure as extraction_measure
        from extraction import table as extraction_table

        quality, by_shape = extraction_measure(args.pages)
        print("\nmain-text extraction\n" + extraction_table(quality, by_shape))
        systems.update({f"extraction: {name}": row for name, row in quality.items()})
    if args.json:
        write_json(args.json, systems)


if __name__ == "__main__":
    main()
