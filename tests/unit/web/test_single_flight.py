"""Identical concurrent searches share one provider call; a hung or broken cache never fails a search."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from unified_search.contract.handler import SearchContext
from unified_search.types import SearchRequest
from unified_search.web.cache import MemoryCache, RedisCache
from unified_search.web.handler import WebHandler

TAVILY = "api.tavily.com"


class SlowTavily:
    """Answers every search after ``delay`` seconds and counts the calls."""

    def __init__(self, kit: Any, delay: float = 0.2, status: int = 200) -> None:
        self.body = kit.exchange("tavily_search_success")["response"]
        self.delay = delay
        self.status = status
        self.calls = 0

    async def __call__(self, request: httpx.Request) -> httpx.Response:
        self.calls += 1
        await asyncio.sleep(self.delay)
        if self.status != 200:
            return httpx.Response(self.status, json={"detail": {"error": "bad key"}})
        return httpx.Response(200, json=self.body)


def context(config: Any, lines: list[str] | None = None) -> SearchContext:
    async def log(level: Any, message: str) -> None:
        if lines is not None:
            lines.append(f"{level}: {message}")

    return SearchContext(config=config, request_id="t", log=log)


@pytest.mark.usefixtures("keys")
async def test_identical_cold_searches_make_one_provider_call(kit: Any) -> None:
    server = SlowTavily(kit)
    config = kit.web_config(["tavily"])
    handler = WebHandler(
        config, transport=httpx.MockTransport(server), cache=MemoryCache(ttl=60, max_entries=50)
    )
    results = await asyncio.gather(
        *(handler.asearch(SearchRequest(query="heat pumps"), context(config)) for _ in range(5))
    )
    await handler.aclose()
    assert server.calls == 1
    assert all(len(result.items) == 4 for result in results)


@pytest.mark.usefixtures("keys")
async def test_without_a_cache_concurrent_searches_still_share_the_call(kit: Any) -> None:
    server = SlowTavily(kit)
    config = kit.web_config(["tavily"], cache={"enabled": False})
    handler = WebHandler(config, transport=httpx.MockTransport(server), cache=None)
    await asyncio.gather(
        *(handler.asearch(SearchRequest(query="q"), context(config)) for _ in range(4))
    )
    await handler.asearch(SearchRequest(query="q"), context(config))  # later: called again
    await handler.aclose()
    assert server.calls == 2


@pytest.mark.usefixtures("keys")
async def test_a_failed_call_is_shared_with_its_waiters_but_never_cached(kit: Any) -> None:
    server = SlowTavily(kit, status=401)
    config = kit.web_config(["tavily"])
    cache = MemoryCache(ttl=60, max_entries=50)
    handler = WebHandler(config, transport=httpx.MockTransport(server), cache=cache)
    outcomes = await asyncio.gather(
        *(handler.asearch(SearchRequest(query="q"), context(config)) for _ in range(3)),
        return_exceptions=True,
    )
    assert server.calls == 1 and all(isinstance(o, Exception) for o in outcomes)
    assert len(cache) == 0
    server.status = 200
    result = await handler.asearch(SearchRequest(query="q"), context(config))
    await handler.aclose()
    assert server.calls == 2 and len(result.items) == 4


@pytest.mark.usefixtures("keys")
async def test_a_search_sharing_a_call_in_backoff_is_not_held_by_it(kit: Any) -> None:
    """Exa alone waits out its 429; the search that shares Exa's call returns Tavily's at once."""
    exa_calls = 0

    async def serve(request: httpx.Request) -> httpx.Response:
        nonlocal exa_calls
        if request.url.host == "api.tavily.com":
            return kit.replay("tavily_search_success")
        exa_calls += 1
        if exa_calls == 1:
            return httpx.Response(429, json={"error": "slow"}, headers={"Retry-After": "1.5"})
        return kit.replay("exa_search_success")

    handler = WebHandler(
        kit.web_config(["exa"]),
        transport=httpx.MockTransport(serve),
        cache=MemoryCache(ttl=60, max_entries=50),
    )
    started = time.perf_counter()

    async def search(providers: list[str]) -> tuple[float, Any]:
        config = kit.web_config(providers)
        result = await handler.asearch(SearchRequest(query="same question"), context(config))
        return time.perf_counter() - started, result

    (alone_s, alone), (both_s, both) = await asyncio.gather(
        search(["exa"]), search(["tavily", "exa"])
    )
    await handler.aclose()
    assert exa_calls == 2  # one 429, one retry after 1.5 s, shared
    assert alone_s >= 1.5 and len(alone.items) == 4 and alone.failures == []
    assert both_s < 1.0 and len(both.items) == 4
    (failure,) = both.failures
    assert failure.provider == "exa" and failure.retry_after == pytest.approx(1.5)


@pytest.mark.redis
@pytest.mark.usefixtures("keys")
async def test_processes_sharing_redis_make_one_call(kit: Any, redis_url: str) -> None:
    """Two handlers with their own Redis clients stand for two processes."""
    server = SlowTavily(kit, delay=0.3)
    prefix = f"test:{uuid.uuid4().hex}:"
    config = kit.web_config(
        ["tavily"], cache={"backend": "redis", "url": redis_url, "prefix": prefix}
    )
    handlers = [
        WebHandler(
            config,
            transport=httpx.MockTransport(server),
            cache=RedisCache(redis_url, ttl=60, max_entries=50, prefix=prefix),
        )
        for _ in range(3)
    ]
    try:
        results = await asyncio.gather(
            *(h.asearch(SearchRequest(query="shared"), context(config)) for h in handlers)
        )
    finally:
        for handler in handlers:
            await handler.aclose()
        await _drop(redis_url, prefix)
    assert server.calls == 1
    assert [len(r.items) for r in results] == [4, 4, 4]


async def _drop(redis_url: str, prefix: str) -> None:
    import redis.asyncio as redis_asyncio

    raw = redis_asyncio.from_url(redis_url)
    keys = [key async for key in raw.scan_iter(match=prefix + "*")]
    if keys:
        await raw.delete(*keys)
    await raw.aclose()


@pytest.fixture
async def hung_redis() -> AsyncIterator[str]:
    """A TCP server that accepts connections and never answers: a hung Redis."""
    held: list[asyncio.StreamWriter] = []

    async def accept(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        held.append(writer)

    server = await asyncio.start_server(accept, "127.0.0.1", 0)
    yield f"redis://127.0.0.1:{server.sockets[0].getsockname()[1]}/0"
    for writer in held:
        writer.close()
    server.close()
    await server.wait_closed()


@pytest.mark.usefixtures("keys")
async def test_a_hung_redis_is_skipped_and_the_provider_answers(kit: Any, hung_redis: str) -> None:
    """Not TIMEOUT: the cache is logged as skipped, then left alone while it stays down."""
    server = SlowTavily(kit, delay=0.0)
    config = kit.web_config(
        ["tavily"], cache={"backend": "redis", "url": hung_redis, "timeout": 0.3}
    )
    handler = WebHandler(
        config,
        transport=httpx.MockTransport(server),
        cache=RedisCache(hung_redis, ttl=60, max_entries=50, timeout=0.3),
    )
    lines: list[str] = []
    started = time.perf_counter()
    result = await handler.asearch(SearchRequest(query="q"), context(config, lines))
    first = time.perf_counter() - started
    started = time.perf_counter()
    again = await handler.asearch(SearchRequest(query="other"), context(config, lines))
    second = time.perf_counter() - started
    await handler.aclose()
    assert result.ok and len(result.items) == 4 and result.failures == []
    assert len(again.items) == 4
    assert any("web cache skipped" in line and line.startswith("warn") for line in lines)
    assert first < 2.0 and second < 0.2  # one timeout, then the cache is paused


@pytest.mark.usefixtures("keys")
async def test_redis_cache_has_socket_timeouts(hung_redis: str) -> None:
    cache = RedisCache(hung_redis, ttl=60, max_entries=50, timeout=0.2)
    started = time.perf_counter()
    with pytest.raises(Exception):  # noqa: B017 - redis raises its own timeout types
        await cache.get("k")
    await cache.aclose()
    assert time.perf_counter() - started < 2.0


@pytest.mark.usefixtures("keys")
async def test_a_refused_cache_connection_is_skipped(kit: Any) -> None:
    server = SlowTavily(kit, delay=0.0)
    config = kit.web_config(["tavily"])
    handler = WebHandler(
        config,
        transport=httpx.MockTransport(server),
        cache=RedisCache("redis://127.0.0.1:1/0", ttl=60, max_entries=50, timeout=0.3),
    )
    lines: list[str] = []
    result = await handler.asearch(SearchRequest(query="q"), context(config, lines))
    await handler.aclose()
    assert len(result.items) == 4 and any("web cache skipped" in line for line in lines)


# -- real processes sharing one Redis ------------------------------------------------------------

WORKER = Path(__file__).with_name("flight_worker.py")


class Fleet:
    """Worker processes (``flight_worker.py``) on one Redis cache, started on a signal."""

    def __init__(self, redis_url: str, prefix: str) -> None:
        self.redis_url = redis_url
        self.prefix = prefix
        self.workers: list[subprocess.Popen[str]] = []

    def add(self, searches: int, mode: str) -> subprocess.Popen[str]:
        worker = subprocess.Popen(
            [sys.executable, str(WORKER), self.redis_url, self.prefix, str(searches), mode],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert worker.stdout is not None and worker.stdout.readline().strip() == "ready"
        self.workers.append(worker)
        return worker

    @staticmethod
    def go(worker: subprocess.Popen[str]) -> None:
        assert worker.stdin is not None
        worker.stdin.write("go\n")
        worker.stdin.flush()

    @staticmethod
    def result(worker: subprocess.Popen[str]) -> dict[str, Any]:
        out, err = worker.communicate(timeout=60)
        assert worker.returncode == 0, err
        return dict(json.loads(out.strip().splitlines()[-1]))


@pytest.fixture
def fleet(redis_url: str) -> Iterator[Fleet]:
    prefix = f"test:fleet:{uuid.uuid4().hex}:"
    made = Fleet(redis_url, prefix)
    yield made
    for worker in made.workers:
        if worker.poll() is None:
            worker.kill()
        worker.wait()
        for pipe in (worker.stdin, worker.stdout, worker.stderr):
            if pipe is not None:
                pipe.close()
    asyncio.run(_drop(redis_url, prefix))


@pytest.mark.redis
@pytest.mark.parametrize("searches", [5, 50])
def test_two_processes_of_identical_cold_searches_make_one_call(
    fleet: Fleet, searches: int
) -> None:
    first, second = fleet.add(searches, "ok"), fleet.add(searches, "ok")
    fleet.go(first)
    fleet.go(second)
    results = [fleet.result(first), fleet.result(second)]
    assert sum(r["calls"] for r in results) == 1
    assert all(r["items"] == [4] * searches for r in results)


@pytest.mark.redis
def test_a_failed_call_in_one_process_is_not_cached_and_the_other_calls_itself(
    fleet: Fleet,
) -> None:
    failing, waiting = fleet.add(5, "fail"), fleet.add(5, "ok")
    fleet.go(failing)
    time.sleep(0.2)  # the failing process holds the lock first
    fleet.go(waiting)
    failed, answered = fleet.result(failing), fleet.result(waiting)
    assert failed == {"calls": 1, "items": [-1] * 5}
    assert answered == {"calls": 1, "items": [4] * 5}
    later = fleet.add(3, "fail")  # would fail if it called: the good answer is cached
    fleet.go(later)
    assert fleet.result(later) == {"calls": 0, "items": [4] * 3}


@pytest.mark.redis
def test_a_process_dying_mid_call_frees_the_lock_within_its_lease(fleet: Fleet) -> None:
    """The lock lives three cache timeouts (3 s), renewed only by a living holder."""
    crashing, waiting = fleet.add(3, "crash"), fleet.add(3, "ok")
    fleet.go(crashing)
    time.sleep(0.3)
    started = time.monotonic()
    fleet.go(waiting)
    answered = fleet.result(waiting)
    elapsed = time.monotonic() - started
    crashing.wait(timeout=10)
    assert crashing.returncode == 3
    assert answered == {"calls": 1, "items": [4] * 3}
    assert elapsed < 8  # the lease, not web.cache.lock_ttl (10 s)
