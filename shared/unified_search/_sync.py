"""Run coroutines from sync code, also inside Jupyter or a running event loop.

Every sync twin goes through one private event loop on a daemon thread, so
``asyncio.run`` is never nested and the caller's loop is never blocked by
re-entrance. The logic lives once, in the async method.
"""

from __future__ import annotations

import asyncio
import functools
import threading
from collections.abc import Callable, Coroutine
from typing import Any, Concatenate, ParamSpec, TypeVar

T = TypeVar("T")
S = TypeVar("S")
P = ParamSpec("P")

_lock = threading.Lock()
_loop: asyncio.AbstractEventLoop | None = None


def background_loop() -> asyncio.AbstractEventLoop:
    """Return the private loop, starting its thread on first use."""
    global _loop
    with _lock:
        if _loop is None or _loop.is_closed():
            loop = asyncio.new_event_loop()
            thread = threading.Thread(
                target=loop.run_forever, name="unified-search-loop", daemon=True
            )
            thread.start()
            _loop = loop
        return _loop


def run_sync(coro: Coroutine[Any, Any, T]) -> T:
    """Run ``coro`` to completion on the private loop and return its result."""
    loop = background_loop()
    try:
        running = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    if running is loop:
        coro.close()
        raise RuntimeError(
            "a sync method was called from inside an unified-search coroutine; await the async one"
        )
    return asyncio.run_coroutine_threadsafe(coro, loop).result()


def sync_twin(
    method: Callable[Concatenate[S, P], Coroutine[Any, Any, T]],
) -> Callable[Concatenate[S, P], T]:
    """Make the sync twin of an async method: its parameters, its docs, run by ``run_sync``.

    The twin calls the instance's own ``a…`` method, so a subclass that overrides it
    changes both.

    Example:
        >>> class Greeter:
        ...     async def agreet(self, name: str) -> str:
        ...         return f"hello {name}"
        ...     greet = sync_twin(agreet)
        >>> Greeter().greet("ada"), Greeter.greet.__doc__
        ('hello ada', 'Sync twin of ``agreet``.')
    """
    name = method.__name__

    @functools.wraps(method)
    def twin(self: S, /, *args: P.args, **kwargs: P.kwargs) -> T:
        coroutine: Coroutine[Any, Any, T] = getattr(self, name)(*args, **kwargs)
        return run_sync(coroutine)

    twin.__name__ = name.removeprefix("a")
    twin.__qualname__ = twin.__qualname__.rpartition(".")[0] + "." + twin.__name__
    twin.__doc__ = f"Sync twin of ``{name}``."
    return twin
