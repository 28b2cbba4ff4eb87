"""When to try a failed request again, and how long to wait: tenacity, with three rules of ours.

1. ``Retry-After`` is honoured exactly: the next attempt never starts sooner.
   A server asking for longer than ``max_wait`` gets no retry at all: the
   error is raised at once, carrying ``retry_after`` for the caller.
2. Without ``Retry-After`` the wait grows exponentially with full jitter
   (tenacity's ``wait_random_exponential``), so clients that failed together
   do not come back together.
3. A wait that would end past the request's ``Deadline`` is not started: the
   last error is raised at once.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TypeVar

from tenacity import AsyncRetrying, RetryCallState, retry_if_exception, wait_random_exponential
from tenacity.stop import stop_base

from unified_search.errors import SearchError

T = TypeVar("T")
Clock = Callable[[], float]
Sleep = Callable[[float], Awaitable[None]]
OnBackoff = Callable[[SearchError | None], None]
"""Told the error when a wait before a retry starts, and ``None`` when an attempt starts."""


@dataclass(frozen=True)
class Deadline:
    """The moment (on ``clock``) after which a request must not run any more.

    Example:
        >>> Deadline.after(5.0, clock=lambda: 100.0).remaining()
        5.0
    """

    at: float
    clock: Clock = field(default=time.monotonic, compare=False)

    @classmethod
    def after(cls, seconds: float, *, clock: Clock = time.monotonic) -> Deadline:
        """The deadline ``seconds`` from now."""
        return cls(clock() + seconds, clock)

    def remaining(self) -> float:
        """Seconds left, never negative."""
        return max(0.0, self.at - self.clock())


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how long to wait before trying a retryable failure again.

    Example:
        >>> RetryPolicy(retries=3, backoff=0.5).retries
        3
    """

    retries: int = 2
    """Extra attempts after the first one."""
    backoff: float = 0.5
    """Upper bound of the first jittered wait; doubled for each further one."""
    max_wait: float = 10.0
    """Longest wait accepted; a ``Retry-After`` beyond it fails at once instead."""


async def with_retries(
    attempt: Callable[[], Awaitable[T]],
    policy: RetryPolicy,
    *,
    sleep: Sleep = asyncio.sleep,
    deadline: Deadline | None = None,
    on_backoff: OnBackoff | None = None,
) -> T:
    """Run ``attempt`` until it succeeds, fails for good, or waiting is no longer allowed."""

    def before(state: RetryCallState) -> None:
        if on_backoff is not None:
            on_backoff(None)

    def before_sleep(state: RetryCallState) -> None:
        if on_backoff is not None:
            on_backoff(_error(state))

    async def run() -> T:  # tenacity awaits only what it sees is a coroutine function
        return await attempt()

    retrying = AsyncRetrying(
        stop=_Stop(policy, deadline),
        wait=_Wait(policy),
        retry=retry_if_exception(lambda exc: isinstance(exc, SearchError) and exc.retryable),
        sleep=sleep,
        before=before,
        before_sleep=before_sleep,
        reraise=True,
    )
    return await retrying(run)


class _Wait:
    """Exactly ``Retry-After`` when the server said, else exponential backoff with full jitter."""

    def __init__(self, policy: RetryPolicy) -> None:
        self._jitter = wait_random_exponential(multiplier=policy.backoff, max=policy.max_wait)

    def __call__(self, state: RetryCallState) -> float:
        error = _error(state)
        if error is not None and error.retry_after is not None:
            return error.retry_after
        return float(self._jitter(state))


class _Stop(stop_base):
    """Stop when the retries are spent, the server asks too long a wait, or the deadline is near."""

    def __init__(self, policy: RetryPolicy, deadline: Deadline | None) -> None:
        self.policy = policy
        self.deadline = deadline

    def __call__(self, state: RetryCallState) -> bool:
        if state.attempt_number > self.policy.retries:
            return True
        wait = state.upcoming_sleep
        if wait > self.policy.max_wait:
            return True
        return self.deadline is not None and wait >= self.deadline.remaining()


def _error(state: RetryCallState) -> SearchError | None:
    exc = state.outcome.exception() if state.outcome is not None else None
    return exc if isinstance(exc, SearchError) else None
