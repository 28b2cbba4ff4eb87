"""One async resource per event loop.

An ``httpx.AsyncClient`` or a redis asyncio client is bound to the loop that
first used it. The sync twins run on a private background loop while async
callers use their own, so a handler keeps one resource per loop and closes
each on (or for) its own loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

T = TypeVar("T")

#: Seconds to wait for another loop to close its resource before giving up on it.
FOREIGN_CLOSE_TIMEOUT = 1.0


class PerLoop(Generic[T]):
    """Build a resource lazily for each running loop and close them all at the end.

    Example:
        >>> import httpx
        >>> clients = PerLoop(httpx.AsyncClient, lambda c: c.aclose())
        >>> async def use():
        ...     same = clients.get() is clients.get()
        ...     await clients.aclose()
        ...     return same
        >>> asyncio.run(use())
        True
    """

    def __init__(self, factory: Callable[[], T], closer: Callable[[T], Awaitable[object]]) -> None:
        self._factory = factory
        self._closer = closer
        self._items: dict[asyncio.AbstractEventLoop, T] = {}
        self._lock = threading.Lock()

    def get(self) -> T:
        """Return the resource of the running loop, building it on first use."""
        loop = asyncio.get_running_loop()
        with self._lock:
            self._forget_closed()
            if loop not in self._items:
                self._items[loop] = self._factory()
            return self._items[loop]

    def __len__(self) -> int:
        with self._lock:
            self._forget_closed()
            return len(self._items)

    def _forget_closed(self) -> None:
        """Drop resources of loops that are gone; nothing can close them any more."""
        for stale in [known for known in self._items if known.is_closed()]:
            del self._items[stale]

    async def aclose(self) -> None:
        """Close every resource: on the current loop directly, on a live foreign loop through it."""
        with self._lock:
            items, self._items = self._items, {}
        current = asyncio.get_running_loop()
        for loop, item in items.items():
            if loop is current:
                await self._closer(item)
            elif loop.is_running():
                await self._close_on(loop, item)

    async def _close_on(self, loop: asyncio.AbstractEventLoop, item: T) -> None:
        async def close() -> None:
            await self._closer(item)

        future = asyncio.run_coroutine_threadsafe(close(), loop)
        # The other loop may be blocked waiting on us (a sync close called from it): don't deadlock.
        with contextlib.suppress(TimeoutError, RuntimeError):
            await asyncio.wait_for(asyncio.wrap_future(future), FOREIGN_CLOSE_TIMEOUT)
