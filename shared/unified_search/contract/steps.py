"""Timed steps inside a search: the sub-nodes of the trace (embedding, database query ...).

A source marks a step with ``ctx.step(name)``, either way round:

* ``async with ctx.step("dsl_build"):`` around awaited work: the step's start
  and end are announced as they happen;
* ``with ctx.step("embedding"):`` around blocking work, also inside a worker
  thread: the step is timed there and announced on the event loop just after.

Either way the step becomes a ``search_step`` node under its request's node,
with its duration in ``output["duration_ms"]``, ``failed`` when the block
raises (the exception goes on). Outside a search the step does nothing.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from datetime import UTC, datetime
from enum import StrEnum
from types import TracebackType
from typing import Any, Protocol


class StepName(StrEnum):
    """The steps the builtin sources and the engine time."""

    KEYWORD_EXTRACTION = "keyword_extraction"
    EMBEDDING = "embedding"
    VECTOR_SEARCH = "vector_search"
    LEXICAL_SEARCH = "lexical_search"
    GRAPH_SEARCH = "graph_search"
    DSL_BUILD = "dsl_build"
    DB_QUERY = "db_query"
    RERANK = "rerank"
    PROVIDER_CALL = "provider_call"
    """One web provider's answer (from its API or the cache)."""
    FUSION = "fusion"
    """Joining lexical and dense matches of one collection into one ranking."""
    RECORD_WRITE = "record_write"
    """Handing the search record to the store (and waiting for its commit, when configured)."""


class StepOwner(Protocol):
    """Where a step reports itself: the trace of the search it belongs to."""

    async def step_started(self, step: Step) -> None:
        """Announce a step that has begun (``async with`` only)."""

    async def step_ended(self, step: Step, error: BaseException | None) -> None:
        """Record and announce a step that has ended (``async with``)."""

    def step_timed(self, step: Step, error: BaseException | None) -> None:
        """Record a step timed by ``with``, possibly in another thread; announce it later."""


class Step:
    """One timed step; see the module docstring for the two ways to use it.

    ``output`` may be filled inside the block (``step.output["count"] = 3``);
    ``duration_ms`` is added when the step ends.

    Example:
        >>> with Step(None, "parent", "embedding") as step:
        ...     step.output["dimensions"] = 384
        >>> step.duration_ms is not None
        True
    """

    __slots__ = (
        "_clock",
        "duration_ms",
        "ended_at",
        "input",
        "name",
        "node_id",
        "output",
        "owner",
        "parent_id",
        "started_at",
    )

    def __init__(
        self,
        owner: StepOwner | None,
        parent_id: str,
        name: StepName | str,
        input: Mapping[str, Any] | None = None,
    ) -> None:
        self.owner = owner
        self.parent_id = parent_id
        self.name = str(name)
        self.input = dict(input or {})
        self.output: dict[str, Any] = {}
        self.started_at: datetime | None = None
        self.ended_at: datetime | None = None
        self.duration_ms: float | None = None
        self.node_id: str | None = None
        """The trace node's ID, once the owner has announced the step."""
        self._clock = 0.0

    def _begin(self) -> None:
        self.started_at = datetime.now(UTC)
        self._clock = time.perf_counter()

    def _end(self) -> None:
        self.duration_ms = (time.perf_counter() - self._clock) * 1000
        self.ended_at = datetime.now(UTC)

    def __enter__(self) -> Step:
        self._begin()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._end()
        if self.owner is not None:
            self.owner.step_timed(self, error)

    async def __aenter__(self) -> Step:
        self._begin()
        if self.owner is not None:
            await self.owner.step_started(self)
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._end()
        if self.owner is not None:
            await self.owner.step_ended(self, error)


class StepFn(Protocol):
    """``ctx.step``: open a step of the current request."""

    def __call__(self, name: StepName | str, /, **input: Any) -> Step:
        """Return the step ``name`` with ``input`` recorded on its node."""
        ...


def no_step(name: StepName | str, /, **input: Any) -> Step:
    """The ``ctx.step`` of a context outside any search: timed, reported nowhere."""
    return Step(None, "", name, input)
