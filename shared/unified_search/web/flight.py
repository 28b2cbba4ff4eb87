"""Provider calls through the cache: one call per answer, however many searches ask at once.

Identical cold searches running together share one provider call: in one
process through a future per cache key, across processes through the Redis
cache's short lock (the other processes wait for the answer to appear in the
cache, or for the lock to go, then take it and call themselves). The lock is a
lease of a few seconds that its holder renews while it calls, so a process
that dies mid-call holds the others back for no longer than that. Errors are shared with the
searches that were waiting for the same call, never cached. Every search
sharing a call hears when it waits to retry (``OnBackoff``), so none of them
holds its other providers' results back for it.

The cache is an optimisation, never a dependency: each cache operation has
``cache.timeout`` seconds; a failing or hung cache is logged, skipped, and left
alone for ``cache.pause`` seconds so a dead server costs one timeout, not one
per search.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TypeVar

from unified_search.config.web import CacheConfig
from unified_search.contract.handler import LogFn
from unified_search.errors import SearchError
from unified_search.http import OnBackoff
from unified_search.web.cache import LockingCache, ResultCache
from unified_search.web.extras import ProviderAnswer

T = TypeVar("T")
Fetch = Callable[[OnBackoff], Awaitable[ProviderAnswer]]
Call = Callable[[], Awaitable[ProviderAnswer]]
#: First and longest pause between two looks at the cache while another process calls.
POLL = (0.02, 0.2)
#: A cross-process lock lives this many ``cache.timeout``s and is renewed every one while
#: its holder calls: a process that dies holding it frees it within that time.
LEASE_TIMEOUTS = 3


def _ignore(error: SearchError | None) -> None:
    """The ``OnBackoff`` of a caller that does not care."""


@dataclass
class _Flight:
    """One provider call in progress, and the searches listening to its backoffs."""

    answer: asyncio.Future[ProviderAnswer]
    listeners: list[OnBackoff] = field(default_factory=list)
    waiting: SearchError | None = None
    """The error the call is waiting to retry after, if it is waiting."""

    def notify(self, error: SearchError | None) -> None:
        self.waiting = error
        for listener in list(self.listeners):
            listener(error)

    def join(self, listener: OnBackoff) -> None:
        self.listeners.append(listener)
        if self.waiting is not None:
            listener(self.waiting)


class CachedCalls:
    """Answer provider calls from the cache, or make each missing one once.

    Example:
        Not run here: ``key``, ``fetch`` and ``log`` come from a provider call.

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
        self._flights: dict[str, _Flight] = {}

    async def get(
        self,
        key: str,
        fetch: Fetch,
        log: LogFn,
        *,
        use_cache: bool = True,
        on_backoff: OnBackoff = _ignore,
    ) -> ProviderAnswer:
        """Return the cached answer of ``key``, or the one call's answer shared by every caller.

        ``fetch`` makes the call, telling its ``OnBackoff`` argument when it waits
        to retry; ``on_backoff`` hears that for this caller, whoever makes the call.
        """
        if use_cache:
            hit = await self._cached(key, log)
            if hit is not None:
                await log("debug", f"{len(hit.items)} results from the cache")
                return hit
        while True:
            flight = self._flights.get(key)
            if flight is None or flight.answer.get_loop() is not asyncio.get_running_loop():
                return await self._lead(key, fetch, log, use_cache, on_backoff)
            flight.join(on_backoff)
            try:
                return await asyncio.shield(flight.answer)
            except asyncio.CancelledError:
                current = asyncio.current_task()
                if current is not None and current.cancelling():
                    raise
                # The caller that made the call was cancelled: make it ourselves.
            finally:
                flight.listeners.remove(on_backoff)

    async def _lead(
        self, key: str, fetch: Fetch, log: LogFn, use_cache: bool, on_backoff: OnBackoff
    ) -> ProviderAnswer:
        flight = _Flight(asyncio.get_running_loop().create_future(), [on_backoff])
        self._flights[key] = flight
        try:
            answer = await self._fetch(key, lambda: fetch(flight.notify), log, use_cache)
        except BaseException as exc:
            if isinstance(exc, asyncio.CancelledError):
                flight.answer.cancel()
            else:
                flight.answer.set_exception(exc)
                flight.answer.exception()  # retrieved here: the waiters may be none
            raise
        finally:
            if self._flights.get(key) is flight:
                del self._flights[key]
        flight.answer.set_result(answer)
        return answer

    async def _fetch(self, key: str, fetch: Call, log: LogFn, use_cache: bool) -> ProviderAnswer:
        shared = self.cache if use_cache and isinstance(self.cache, LockingCache) else None
        if shared is None:
            return await self._call(key, fetch, log, use_cache)
        give_up = self._clock() + self.config.lock_ttl
        while True:
            if await self._safe(shared.claim(key, self.lease), log):
                return await self._call_holding(shared, key, fetch, log, give_up)
            if self._paused() or self._clock() >= give_up:
                return await self._call(key, fetch, log, use_cache)
            hit = await self._wait_for_other(shared, key, log, give_up)
            if hit is not None:
                await log("debug", "answer shared by another process's call")
                return hit

    @property
    def lease(self) -> float:
        """Seconds a cross-process lock lives unless its holder renews it."""
        return LEASE_TIMEOUTS * self.config.timeout

    async def _call(self, key: str, fetch: Call, log: LogFn, use_cache: bool) -> ProviderAnswer:
        answer = await fetch()
        if use_cache:
            await self._put(key, answer, log)
        return answer

    async def _call_holding(
        self, cache: LockingCache, key: str, fetch: Call, log: LogFn, until: float
    ) -> ProviderAnswer:
        """Call with the key's lock, renewed while the call runs (never past ``until``)."""
        renewing = asyncio.ensure_future(self._renew(cache, key, until, log))
        try:
            return await self._call(key, fetch, log, True)
        finally:
            renewing.cancel()
            await asyncio.wait([renewing])
            await self._safe(cache.release(key), log)

    async def _renew(self, cache: LockingCache, key: str, until: float, log: LogFn) -> None:
        while self._clock() < until:
            await asyncio.sleep(self.config.timeout)
            if not await self._safe(cache.renew(key), log):
                return

    async def _wait_for_other(
        self, cache: LockingCache, key: str, log: LogFn, give_up: float
    ) -> ProviderAnswer | None:
        """Wait while another process calls; its answer, or ``None`` once its lock is gone."""
        pause = POLL[0]
        while self._clock() < give_up and not self._paused():
            await asyncio.sleep(pause)
            hit = await self._cached(key, log)
            if hit is not None:
                return hit
            if not await self._safe(cache.claimed(key), log):
                return await self._cached(key, log)  # it may have stored and released just now
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
