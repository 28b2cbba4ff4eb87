"""Wait for several providers at once, without letting a slow or rate-limited one hold the rest.

The wait ends when every provider has finished, at the deadline, or as soon
as results are in hand and every provider still running is only waiting to
retry (rate limited, or failed and backing off). Providers cut short are
reported as failed: with their last error when they were waiting to retry
(``retry_after`` kept), with TIMEOUT when they were still working.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from unified_search.errors import ErrorCode, SearchError, as_search_error
from unified_search.http import Deadline, OnBackoff
from unified_search.web.extras import ProviderAnswer

Call = Callable[[OnBackoff], Awaitable[ProviderAnswer]]
Outcome = ProviderAnswer | SearchError


@dataclass(frozen=True)
class ProviderCall:
    """One provider's call: its name (for errors) and the coroutine that makes it."""

    name: str
    run: Call


async def gather_answers(calls: Sequence[ProviderCall], deadline: Deadline) -> list[Outcome]:
    """Run ``calls`` together; return each one's answer or error, aligned with ``calls``."""
    state = _State()
    tasks = {asyncio.ensure_future(call.run(state.notifier(i))): i for i, call in enumerate(calls)}
    outcomes: list[Outcome | None] = [None] * len(calls)
    pending = set(tasks)
    try:
        while pending and not state.only_retries_left({tasks[t] for t in pending}, outcomes):
            state.changed.clear()
            watcher = asyncio.ensure_future(state.changed.wait())
            done, _ = await asyncio.wait(
                pending | {watcher},
                timeout=deadline.remaining(),
                return_when=asyncio.FIRST_COMPLETED,
            )
            watcher.cancel()
            if not done:
                break
            finished = {task for task in pending if task in done}
            for task in finished:
                outcomes[tasks[task]] = _outcome(task, calls[tasks[task]].name)
            pending -= finished
    finally:
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
    for task in pending:
        index = tasks[task]
        outcomes[index] = state.cut_short(index, calls[index].name)
    return [outcome for outcome in outcomes if outcome is not None]


class _State:
    """Which calls are waiting to retry, and an event set whenever that changes."""

    def __init__(self) -> None:
        self.retrying: dict[int, SearchError] = {}
        self.changed = asyncio.Event()

    def notifier(self, index: int) -> OnBackoff:
        def note(error: SearchError | None) -> None:
            if error is None:
                self.retrying.pop(index, None)
            else:
                self.retrying[index] = error
            self.changed.set()

        return note

    def only_retries_left(self, running: set[int], outcomes: Sequence[Outcome | None]) -> bool:
        """True when results are in hand and each running call only waits to retry."""
        in_hand = any(isinstance(o, ProviderAnswer) and o.items for o in outcomes)
        return in_hand and all(index in self.retrying for index in running)

    def cut_short(self, index: int, name: str) -> SearchError:
        error = self.retrying.get(index)
        if error is None:
            return SearchError(
                ErrorCode.TIMEOUT, "no answer before the web search deadline", provider=name
            )
        return SearchError(
            error.code,
            f"{error.message} (not retried: the other providers had answered)",
            provider=error.provider or name,
            retryable=True,
            retry_after=error.retry_after,
        )


def _outcome(task: asyncio.Future[ProviderAnswer], name: str) -> Outcome:
    exc = task.exception()
    if exc is None:
        return task.result()
    error = as_search_error(exc, provider=name)
    if error.provider is None:
        error.provider = name
    return error
