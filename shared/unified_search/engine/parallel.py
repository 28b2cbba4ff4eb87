"""Run coroutines side by side: wait for all, for the first useful one, or for the first one.

Nothing raised inside a task escapes: a timeout or an exception becomes a value
through ``on_error``. When the wait ends early, unfinished tasks are cancelled
and drained before returning, so no work outlives the call.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import TypeVar

from unified_search.types import Choice

T = TypeVar("T")


class Mode(Choice):
    """How long a fan-out waits."""

    ALL = "all"
    """Every task finishes."""
    ANY = "any"
    """The first task whose value is useful (``useful(value)``); all if none is."""
    RACE = "race"
    """The first task to finish, useful or not."""


async def fan_out(
    jobs: Sequence[Callable[[], Awaitable[T]]],
    *,
    mode: Mode = Mode.ALL,
    timeout: float | None = None,
    on_error: Callable[[int, BaseException], T],
    useful: Callable[[T], bool] = lambda value: True,
) -> list[T | None]:
    """Run ``jobs`` concurrently; return their values aligned with ``jobs``.

    A job that has not finished when the wait ends is cancelled and its slot is
    ``None``. ``timeout`` bounds each job separately. ``on_error(index, exc)``
    turns a failure of job ``index`` into its value.

    Example:
        >>> async def one(): return 1
        >>> asyncio.run(fan_out([one, one], on_error=lambda i, e: -1))
        [1, 1]
    """
    tasks = [
        asyncio.ensure_future(_guarded(i, job, timeout, on_error)) for i, job in enumerate(jobs)
    ]
    results: list[T | None] = [None] * len(tasks)
    index = {task: i for i, task in enumerate(tasks)}
    pending = set(tasks)
    try:
        while pending:
            done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
            stop = False
            for task in done:
                value = task.result()
                results[index[task]] = value
                stop = stop or mode is Mode.RACE or (mode is Mode.ANY and useful(value))
            if stop:
                break
    finally:
        await _cancel_all(pending)
    return results


async def _guarded(
    index: int,
    job: Callable[[], Awaitable[T]],
    timeout: float | None,
    on_error: Callable[[int, BaseException], T],
) -> T:
    try:
        async with asyncio.timeout(timeout):
            return await job()
    except asyncio.CancelledError:
        raise
    except Exception as exc:  # every failure becomes a value: one job never breaks the others
        return on_error(index, exc)


async def _cancel_all(tasks: set[asyncio.Task[T]]) -> None:
    for task in tasks:
        task.cancel()
    if tasks:
        await asyncio.gather(*tasks, return_exceptions=True)
