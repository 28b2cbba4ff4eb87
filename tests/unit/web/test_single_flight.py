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

from unified_search.config.web import CacheConfig
from unified_search.contract.handler import SearchContext
from unified_search.types import SearchRequest
from unified_search.web.cache import MemoryCache, RedisCache
from unified_search.web.flight import LEASE_TIMEOUTS
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
async def test_a_search_sharing_a_call_in_backoff_is_not_held_by_it(
    kit: Any, hang_guard: Any
) -> None:
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

    backoff = kit.HeldSleep()  # Exa's wait lasts until the test lets it end
    handler = WebHandler(
        kit.web_config(["exa"]),
        transport=httpx.MockTransport(serve),
        cache=MemoryCache(ttl=60, max_entries=50),
        sleep=backoff,
        clock=backoff.clock,
    )

    async def search(providers: list[str]) -> Any:
        config = kit.web_config(providers)
        return await handler.asearch(SearchRequest(query="same question"), context(config))

    # Started together, in this order: the first makes Exa's call, the second shares it.
    waiting = asyncio.ensure_future(search(["exa"]))
    sharing = asyncio.ensure_future(search(["tavily", "exa"]))
    both = await hang_guard(sharing, "the search sharing Exa's call")
    assert backoff.waits == [1.5] and not waiting.done()  # Exa still waits to retry
    backoff.release.set()
    alone = await hang_guard(waiting, "the search waiting for Exa")
    await handler.aclose()
    assert exa_calls == 2  # one 429, one retry after 1.5 s, shared
    assert len(alone.items) == 4 and alone.failures == []
    assert len(both.items) == 4
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


class HungRedis:
    """A TCP server that accepts connections and never answers: a hung Redis."""

    def __init__(self) -> None:
        self.held: list[asyncio.StreamWriter] = []
        self.url = ""

    async def accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.held.append(writer)


@pytest.fixture
async def hung_redis() -> AsyncIterator[HungRedis]:
    hung = HungRedis()
    server = await asyncio.start_server(hung.accept, "127.0.0.1", 0)
    hung.url = f"redis://127.0.0.1:{server.sockets[0].getsockname()[1]}/0"
    yield hung
    for writer in hung.held:
        writer.close()
    server.close()
    await server.wait_closed()


@pytest.mark.usefixtures("keys")
async def test_a_hung_redis_is_skipped_and_the_provider_answers(
    kit: Any, hung_redis: HungRedis, hang_guard: Any
) -> None:
    """Not TIMEOUT: the cache is logged as skipped, then left alone while it stays down."""
    server = SlowTavily(kit, delay=0.0)
    config = kit.web_config(
        ["tavily"], cache={"backend": "redis", "url": hung_redis.url, "timeout": 0.3}
    )
    handler = WebHandler(
        config,
        transport=httpx.MockTransport(server),
        cache=RedisCache(hung_redis.url, ttl=60, max_entries=50, timeout=0.3),
    )
    lines: list[str] = []
    result = await hang_guard(
        handler.asearch(SearchRequest(query="q"), context(config, lines)), "the first search"
    )
    connections = len(hung_redis.held)
    again = await hang_guard(
        handler.asearch(SearchRequest(query="other"), context(config, lines)), "the second search"
    )
    await handler.aclose()
    assert result.ok and len(result.items) == 4 and result.failures == []
    assert len(again.items) == 4
    # One timeout, then the cache is paused: the second search never asks it.
    (skipped,) = [line for line in lines if "web cache skipped" in line]
    assert skipped.startswith("warn") and "timed out" in skipped
    assert connections >= 1 and len(hung_redis.held) == connections


@pytest.mark.usefixtures("keys")
async def test_redis_cache_has_socket_timeouts(hung_redis: HungRedis, hang_guard: Any) -> None:
    from redis.exceptions import TimeoutError as RedisTimeout

    cache = RedisCache(hung_redis.url, ttl=60, max_entries=50, timeout=0.2)
    with pytest.raises(RedisTimeout):  # redis's own socket timeout, not the guard below
        await hang_guard(cache.get("k"), "a read from a Redis that never answers")
    await cache.aclose()


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

    def __init__(self, redis_url: str, prefix: str, guard: Any) -> None:
        import redis

        self.redis_url = redis_url
        self.prefix = prefix
        self.guard = guard
        self.redis = redis.Redis.from_url(redis_url)
        self.workers: list[subprocess.Popen[str]] = []

    def add(self, searches: int, mode: str, lock_ttl: float = 10.0) -> subprocess.Popen[str]:
        command = [sys.executable, str(WORKER), self.redis_url, self.prefix, str(searches)]
        worker = subprocess.Popen(
            [*command, mode, str(lock_ttl)],
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

    def result(self, worker: subprocess.Popen[str]) -> dict[str, Any]:
        try:
            out, err = worker.communicate(timeout=self.guard.seconds)
        except subprocess.TimeoutExpired:
            raise AssertionError(self.guard.message("a worker process")) from None
        assert worker.returncode == 0, err
        return dict(json.loads(out.strip().splitlines()[-1]))

    def locks(self) -> list[bytes]:
        """The keys of the cross-process locks held now."""
        return list(self.redis.scan_iter(match=self.prefix + "__lock__:*"))

    def holds_lock_or_ended(self, worker: subprocess.Popen[str]) -> None:
        """Wait until a lock is held (``worker`` is calling), or ``worker`` has finished."""
        for _ in range(int(self.guard.seconds * 100)):
            if self.locks() or worker.poll() is not None:
                return
            time.sleep(0.01)
        raise AssertionError(self.guard.message("waiting for the first process's lock"))


@pytest.fixture
def fleet(redis_url: str, hang_guard: Any) -> Iterator[Fleet]:
    prefix = f"test:fleet:{uuid.uuid4().hex}:"
    made = Fleet(redis_url, prefix, hang_guard)
    yield made
    for worker in made.workers:
        if worker.poll() is None:
            worker.kill()
        worker.wait()
        for pipe in (worker.stdin, worker.stdout, worker.stderr):
            if pipe is not None:
                pipe.close()
    made.redis.close()
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
    fleet.holds_lock_or_ended(failing)  # the failing process holds the lock first
    fleet.go(waiting)
    failed, answered = fleet.result(failing), fleet.result(waiting)
    assert failed == {"calls": 1, "items": [-1] * 5}
    assert answered == {"calls": 1, "items": [4] * 5}
    later = fleet.add(3, "fail")  # would fail if it called: the good answer is cached
    fleet.go(later)
    assert fleet.result(later) == {"calls": 0, "items": [4] * 3}


@pytest.mark.redis
def test_a_process_dying_mid_call_frees_the_lock_within_its_lease(fleet: Fleet) -> None:
    """The lock lives three cache timeouts (3 s), renewed only by a living holder.

    The waiting process would wait for the dead one's answer up to ``lock_ttl``, set
    far beyond the hang guard: it answers only because the lease ran out.
    """
    crashing = fleet.add(3, "crash", lock_ttl=600)
    waiting = fleet.add(3, "ok", lock_ttl=600)
    fleet.go(crashing)
    try:
        crashing.wait(timeout=fleet.guard.seconds)
    except subprocess.TimeoutExpired:
        raise AssertionError(fleet.guard.message("the crashing process")) from None
    assert crashing.returncode == 3  # it died in the provider call, holding the lock
    lease_ms = LEASE_TIMEOUTS * CacheConfig().timeout * 1000
    assert all(fleet.redis.pttl(lock) <= lease_ms for lock in fleet.locks())  # not lock_ttl
    fleet.go(waiting)
    assert fleet.result(waiting) == {"calls": 1, "items": [4] * 3}
