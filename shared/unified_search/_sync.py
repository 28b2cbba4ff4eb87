"""Run coroutines from sync code, also inside Jupyter or a running event loop.

Every sync twin goes through one private event loop on a daemon thread, so
``asyncio.run`` is never nested and the caller's loop is never blocked by
re-entrance. The logic lives once, in the async method.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")

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
