"""Provider calls through the cache: one call per answer, however many searches ask at once.

Identical cold searches running together share one provider call: in one
process through a future per cache key, across processes through the Redis
cache's short lock (the other processes wait for the answer to appear in the
cache, or for the lock to go, then call themselves). Errors are shared with the
searches that were waiting for the same call, never cached.

The cache is an optimisation, never a dependency: each cache operation has
``cache.timeout`` seconds; a failing or hung cache is logged, skipped, and left
alone for ``cache.pause`` seconds so a dead server costs one timeout, not one
per search.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

from unified_search.handler import LogFn
from unified_search.web.cache import LockingCache, ResultCache
from unified_search.web.config import CacheConfig
from unified_search.web.extras import ProviderAnswer

T = TypeVar("T")
Fetch = Callable[[], Awaitable[ProviderAnswer]]
#: First and longest pause between two looks at the cache while another process calls.
POLL = (0.02, 0.2)


class CachedCalls:
    """Answer provider calls from the cache, or make each missing one once.

    Example:
        >>> calls = CachedCalls(MemoryCache(ttl=60, max_entries=50), CacheConfig())  # doctest: +SKIP
        >>> answer = await calls.get(key, fetch, log)  # doctest: +SKIP
    """

    def __init__(
        self,
        cache: ResultCache | None,
        config: CacheConfig,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.cache = cache
        self.config = config
        self._clock = clock
        self._paused_until = 0.0
        self._flights: dict[str, asyncio.Future[ProviderAnswer]] = {}

    async def get(
        self, key: str, fetch: Fetch, log: LogFn, *, use_cache: bool = True
    ) -> ProviderAnswer:
        """Return the cached answer of ``key``, or the one call's answer shared by every caller."""
        if use_cache:
            hit = await self._cached(key, log)
            if hit is not None:
                await log("debug", f"{len(hit.items)} results from the cache")
                return hit
        while True:
            flight = self._flights.get(key)
            if flight is None or flight.get_loop() is not asyncio.get_running_loop():
                return await self._lead(key, fetch, log, use_cache)
            try:
                return await asyncio.shield(flight)
            except asyncio.CancelledError:
                current = asyncio.current_task()
                if current is not None and current.cancelling():
                    raise
                # The caller that made the call was cancelled: make it ourselves.

    async def _lead(self, key: str, fetch: Fetch, log: LogFn, use_cache: bool) -> ProviderAnswer:
        flight: asyncio.Future[ProviderAnswer] = asyncio.get_running_loop().create_future()
        self._flights[key] = flight
        try:
            answer = await self._fetch(key, fetch, log, use_cache)
        except BaseException as exc:
            if isinstance(exc, asyncio.CancelledError):
                flight.cancel()
            else:
                flight.set_exception(exc)
                flight.exception()  # retrieved here: the waiters may be none
            raise
        finally:
            if self._flights.get(key) is flight:
                del self._flights[key]
        flight.set_result(answer)
        return answer

    async def _fetch(self, key: str, fetch: Fetch, log: LogFn, use_cache: bool) -> ProviderAnswer:
        shared = self.cache if use_cache and isinstance(self.cache, LockingCache) else None
        claimed = False
        if shared is not None:
            claimed = bool(await self._safe(shared.claim(key, self.config.lock_ttl), log))
            if not claimed:
                waited = await self._wait_for_other(shared, key, log)
                if waited is not None:
                    return waited
        try:
            answer = await fetch()
            if use_cache:
                await self._put(key, answer, log)
            return answer
        finally:
            if claimed and shared is not None:
                await self._safe(shared.release(key), log)

    async def _wait_for_other(
        self, cache: LockingCache, key: str, log: LogFn
    ) -> ProviderAnswer | None:
        """Wait while another process calls the provider; its answer, or ``None`` to call ourselves."""
        give_up = self._clock() + self.config.lock_ttl
        pause = POLL[0]
        while self._clock() < give_up and not self._paused():
            await asyncio.sleep(pause)
            hit = await self._cached(key, log)
            if hit is not None:
                await log("debug", "answer shared by another process's call")
                return hit
            if not await self._safe(cache.claimed(key), log):
                return None
            pause = min(pause * 2, POLL[1])
        return None

    async def _cached(self, key: str, log: LogFn) -> ProviderAnswer | None:
        if self.cache is None:
            return None
        found = await self._safe(self.cache.get(key), log)
        return found if isinstance(found, ProviderAnswer) else None

    async def _put(self, key: str, answer: ProviderAnswer, log: LogFn) -> None:
        if self.cache is not None:
            await self._safe(self.cache.put(key, answer), log)

    async def _safe(self, operation: Awaitable[T], log: LogFn) -> T | None:
        """Run one cache operation within ``cache.timeout``; on failure log, pause and give ``None``."""
        if self._paused():
            if asyncio.iscoroutine(operation):
                operation.close()
            return None
        try:
            async with asyncio.timeout(self.config.timeout):
                return await operation
        except Exception as exc:  # a broken cache slows searches down, it never fails them
            reason = (
                "timed out" if isinstance(exc, TimeoutError) else f"{type(exc).__name__}: {exc}"
            )
            await log("warn", f"web cache skipped for {self.config.pause:g} s: {reason}")
            self._paused_until = self._clock() + self.config.pause
            return None

    def _paused(self) -> bool:
        return self._clock() < self._paused_until
