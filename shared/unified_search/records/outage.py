"""Keep a slow or unreachable record store from holding up searches.

A search writes its record and numbers its citations in the store, so a
database that hangs would hang every search with it, and its blocked calls
would take the worker threads the knowledge base and database sources need.
``StoreGate`` runs store calls on the store's own few threads, within a
deadline; after a failure it takes the store as down for a short pause, during
which calls fail at once instead of waiting again. Every failure is a
``SearchError`` the Searcher reports in the trace (the IDs were not persisted,
the record was not stored) while the search answers.
"""

from __future__ import annotations

import asyncio
import functools
import threading
import time
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Concatenate, ParamSpec, Protocol, TypeVar

from unified_search.errors import ErrorCode, SearchError

T = TypeVar("T")
P = ParamSpec("P")


class StoreGate:
    """Run blocking store calls off the event loop, each within ``timeout`` seconds.

    Example:
        >>> gate = StoreGate("the search store", timeout=2.0)
        >>> asyncio.run(gate.call(sum, [1, 2]))
        3
        >>> gate.close()
    """

    def __init__(self, name: str, *, timeout: float, workers: int = 4) -> None:
        if timeout <= 0:
            raise ValueError("timeout must be positive (seconds)")
        self.name = name
        self.timeout = timeout
        self._pool = ThreadPoolExecutor(workers, thread_name_prefix="unified-search-store")
        self._lock = threading.Lock()
        self._down_until = 0.0
        self._problem = ""

    async def call(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Return ``fn(*args, **kwargs)`` run on the store's threads.

        Raises:
            SearchError: TIMEOUT when the store did not answer in time, NETWORK_ERROR
                while it is taken as down, or whatever ``fn`` raised.
        """
        self._check_up()
        work = asyncio.get_running_loop().run_in_executor(
            self._pool, functools.partial(fn, *args, **kwargs)
        )
        try:
            result = await asyncio.wait_for(work, self.timeout)
        except TimeoutError as exc:
            error = SearchError(
                ErrorCode.TIMEOUT,
                f"{self.name} did not answer within {self.timeout:g} s",
                provider="store",
            )
            self._mark_down(str(error))
            raise error from exc
        except SearchError as exc:
            if exc.code in (ErrorCode.NETWORK_ERROR, ErrorCode.TIMEOUT):
                self._mark_down(str(exc))
            raise
        self._mark_up()
        return result

    @property
    def problem(self) -> str | None:
        """Why the store is taken as down right now (``None`` when it is not)."""
        with self._lock:
            down = self._down_until > time.monotonic()
            return self._problem if down else None

    def close(self) -> None:
        """Stop the threads; calls still blocked in a dead database are left to their driver."""
        self._pool.shutdown(wait=False, cancel_futures=True)

    def _check_up(self) -> None:
        with self._lock:
            waiting = self._down_until - time.monotonic()
            problem = self._problem
        if waiting > 0:
            raise SearchError(
                ErrorCode.NETWORK_ERROR,
                f"{self.name} is taken as down for {waiting:.1f} s more after: {problem}",
                provider="store",
            )

    def _mark_down(self, problem: str) -> None:
        # Pause as long as one call may wait: an outage then costs searches one deadline
        # per pause, not one per search.
        with self._lock:
            self._down_until = time.monotonic() + self.timeout
            self._problem = problem

    def _mark_up(self) -> None:
        with self._lock:
            self._down_until = 0.0


class Gated(Protocol):
    """What holds a ``StoreGate`` (the store and its parts)."""

    _gate: StoreGate


G = TypeVar("G", bound=Gated)


def gated_twin(
    method: Callable[Concatenate[G, P], T],
) -> Callable[Concatenate[G, P], Coroutine[Any, Any, T]]:
    """Make the async twin of a blocking store method: its parameters, run through the gate.

    The twin calls the instance's own method, so a subclass that overrides it changes both.
    """
    name = method.__name__

    @functools.wraps(method)
    async def twin(self: G, /, *args: P.args, **kwargs: P.kwargs) -> T:
        done: T = await self._gate.call(getattr(self, name), *args, **kwargs)
        return done

    twin.__name__ = "a" + name
    twin.__qualname__ = twin.__qualname__.rpartition(".")[0] + "." + twin.__name__
    twin.__doc__ = f"Async twin of ``{name}``."
    return twin
