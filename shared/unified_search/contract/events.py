"""Live trace and progress events of a search.

A search is a trace tree: one ``search`` node with a ``search_item`` child per
request, and ``search_step`` nodes under them for the timed steps of a source
(see ``unified_search.contract.steps``); ``unified_search.engine.trace`` builds it. Each change
is sent to every sink as a ``SearchEvent``; a sink is any callable (sync or
async). A sink that raises is logged and skipped: observers never break a search.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Awaitable, Callable, Iterable
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, computed_field

from unified_search._random_ids import random_hex
from unified_search.contract.checks import CitationReport, SentenceCheck
from unified_search.errors import ErrorInfo
from unified_search.types import Reference, SearchType

logger = logging.getLogger(__name__)

LogLevel = Literal["debug", "info", "warn", "error"]


class TraceStatus(StrEnum):
    """Where a trace node is in its life."""

    PENDING = "pending"
    RUNNING = "running"
    COMPLETED = "completed"
    FAILED = "failed"
    SKIPPED = "skipped"
    """Not run, by configuration (for example ``options.skip_threshold``)."""
    CANCELLED = "cancelled"
    """Stopped because the search ended first (``any`` or ``race`` had its answer)."""


class EventName(StrEnum):
    """The events a search emits, in the order they can happen."""

    SEARCH_START = "search_start"
    SEARCH_ITEM_START = "search_item_start"
    SEARCH_STEP_START = "search_step_start"
    SEARCH_STEP_COMPLETE = "search_step_complete"
    SEARCH_STEP_FAILED = "search_step_failed"
    SEARCH_ITEM_LOG = "search_item_log"
    SEARCH_ITEM_COMPLETE = "search_item_complete"
    SEARCH_ITEM_FAILED = "search_item_failed"
    SEARCH_RESULT = "search_result"
    """One cited reference, in final order, once the search has numbered them."""
    SEARCH_COMPLETE = "search_complete"
    SEARCH_PROGRESS = "search_progress"
    CITATION_CHECK = "citation_check"
    """One sentence of an answer checked against its citations (``check``)."""
    CITATIONS_CHECKED = "citations_checked"
    """Every sentence of an answer checked (``checks``)."""


class TraceLog(BaseModel):
    """One log line attached to a trace node."""

    model_config = ConfigDict(frozen=True)

    level: LogLevel
    message: str
    data: dict[str, Any] | None = None
    """Figures behind the message (``{"count": 3, "duration_ms": 41.2}``)."""
    at: datetime = Field(default_factory=lambda: datetime.now(UTC))
    node_id: str | None = None
    """The trace node the line belongs to (the design's ``node_id``)."""

    @computed_field  # type: ignore[prop-decorator]
    @property
    def timestamp(self) -> int:
        """``at`` in milliseconds since the epoch, as the design's trace logs carry it."""
        return int(self.at.timestamp() * 1000)


class TraceNode(BaseModel):
    """A node of the trace tree: the whole search, one request, or one step of either."""

    model_config = ConfigDict(frozen=True)

    id: str = Field(default_factory=random_hex)
    kind: Literal["search", "search_item", "search_step"]
    parent_id: str | None = None
    type: SearchType | None = None
    status: TraceStatus = TraceStatus.PENDING
    label: str = ""
    input: dict[str, Any] = Field(default_factory=dict)
    output: dict[str, Any] = Field(default_factory=dict)
    logs: list[TraceLog] = Field(default_factory=list)
    error: ErrorInfo | None = None
    started_at: datetime | None = None
    ended_at: datetime | None = None


class SearchEvent(BaseModel):
    """A change in a search's trace, or a progress message for people."""

    model_config = ConfigDict(frozen=True)

    name: EventName
    request_id: str
    """The citation scope the search belongs to: its citation IDs are unique within it and
    resolve through ``SearchStore.get_reference(request_id, index)``."""
    search_id: str | None = None
    """This one search (the ID of its trace's root node); several searches share a scope."""
    chat_id: str | None = None
    node: TraceNode | None = None
    message: str | None = None
    """Human-readable progress text (``search_progress`` only)."""
    done: bool = False
    """The search's last progress message: a UI can remove its indicator."""
    reference: Reference | None = None
    """The cited reference (``search_result`` only)."""
    check: SentenceCheck | None = None
    """One sentence's verdict (``citation_check`` only)."""
    checks: CitationReport | None = None
    """The whole answer's verdicts (``citations_checked`` only)."""
    at: datetime = Field(default_factory=lambda: datetime.now(UTC))


EventSink = Callable[[SearchEvent], Awaitable[None] | None]


class EventBus:
    """Deliver events to sinks; a failing sink is logged and never raises."""

    def __init__(self, sinks: Iterable[EventSink] = ()) -> None:
        self._sinks: list[EventSink] = list(sinks)

    @property
    def listening(self) -> bool:
        """Whether any sink would receive an event (events nobody hears are not built)."""
        return bool(self._sinks)

    def add(self, sink: EventSink) -> None:
        """Subscribe ``sink`` to every later event."""
        self._sinks.append(sink)

    def remove(self, sink: EventSink) -> None:
        """Unsubscribe ``sink``; unknown sinks are ignored."""
        if sink in self._sinks:
            self._sinks.remove(sink)

    def with_sinks(self, extra: Iterable[EventSink]) -> EventBus:
        """Return a bus that also delivers to ``extra`` (for one call)."""
        return EventBus([*self._sinks, *extra])

    async def emit(self, event: SearchEvent) -> None:
        """Send ``event`` to every sink in order."""
        for sink in list(self._sinks):
            try:
                outcome = sink(event)
                if inspect.isawaitable(outcome):
                    await outcome
            except Exception:
                logger.exception("event sink %r failed on %s; the search goes on", sink, event.name)
