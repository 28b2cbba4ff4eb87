"""Live trace and progress events of a search.

A search is a trace tree: one ``search`` node with a ``search_item`` child per
request. Each change is sent to every sink as a ``SearchEvent``; a sink is any
callable (sync or async). A sink that raises is logged and skipped: observers
never break a search.
"""

from __future__ import annotations

import inspect
import logging
import uuid
from collections.abc import Awaitable, Callable, Iterable, Mapping
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from unified_search.errors import ErrorInfo
from unified_search.types import SearchType

logger = logging.getLogger(__name__)

Language = Literal["en", "zh"]
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
    SEARCH_ITEM_LOG = "search_item_log"
    SEARCH_ITEM_COMPLETE = "search_item_complete"
    SEARCH_ITEM_FAILED = "search_item_failed"
    SEARCH_COMPLETE = "search_complete"
    SEARCH_PROGRESS = "search_progress"


class TraceLog(BaseModel):
    """One log line attached to a trace node."""

    model_config = ConfigDict(frozen=True)

    level: LogLevel
    message: str
    at: datetime = Field(default_factory=lambda: datetime.now(UTC))


class TraceNode(BaseModel):
    """A node of the trace tree: the whole search, or one request within it."""

    model_config = ConfigDict(frozen=True)

    id: str = Field(default_factory=lambda: uuid.uuid4().hex)
    kind: Literal["search", "search_item"]
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
    at: datetime = Field(default_factory=lambda: datetime.now(UTC))


EventSink = Callable[[SearchEvent], Awaitable[None] | None]

_LABELS: dict[str, dict[Language, str]] = {
    "search": {"en": "Search", "zh": "搜索"},
    "web": {"en": "Web search", "zh": "网络搜索"},
    "kb": {"en": "Knowledge base search", "zh": "知识库搜索"},
    "db": {"en": "Database search", "zh": "数据库搜索"},
}

ProgressKind = Literal["searching", "found", "partial", "failed", "none"]

_PROGRESS: dict[Language, dict[ProgressKind, str]] = {
    "en": {
        "searching": "Searching…",
        "found": "Found {n} references",
        "partial": "Found {n} references (some sources failed)",
        "failed": "Search failed",
        "none": "No references found",
    },
    "zh": {
        "searching": "正在搜索…",
        "found": "找到 {n} 条参考资料",
        "partial": "找到 {n} 条参考资料（部分来源失败）",
        "failed": "搜索失败",
        "none": "未找到参考资料",
    },
}


def label(key: str, language: Language = "en") -> str:
    """Return the display label of the whole search (``search``) or a source type."""
    return _LABELS[key][language]


def progress_message(kind: ProgressKind, count: int = 0, language: Language = "en") -> str:
    """Return the progress text people see, pluralised in English.

    Example:
        >>> progress_message("found", 1)
        'Found 1 reference'
    """
    text = _PROGRESS[language][kind].format(n=count)
    if language == "en" and count == 1 and kind in ("found", "partial"):
        text = text.replace("1 references", "1 reference")
    return text


def outcome_kind(count: int, failed: int, total: int) -> ProgressKind:
    """Classify a finished search for its closing progress message."""
    if total and failed == total:
        return "failed"
    if count == 0:
        return "none"
    return "partial" if failed else "found"


class EventBus:
    """Deliver events to sinks; a failing sink is logged and never raises."""

    def __init__(self, sinks: Iterable[EventSink] = ()) -> None:
        self._sinks: list[EventSink] = list(sinks)

    def add(self, sink: EventSink) -> None:
        """Subscribe ``sink`` to every later event."""
        self._sinks.append(sink)

    def remove(self, sink: EventSink) -> None:
        """Unsubscribe ``sink``; unknown sinks are ignored."""
        if sink in self._sinks:
            self._sinks.remove(sink)

    @property
    def listening(self) -> bool:
        """Whether any sink is subscribed (events are only built for someone)."""
        return bool(self._sinks)

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


class Trace:
    """Build the trace tree of one search and announce every change.

    Example:
        >>> trace = Trace(EventBus(), request_id="r1")
        >>> trace.root.kind
        'search'
    """

    def __init__(
        self,
        bus: EventBus,
        *,
        request_id: str,
        chat_id: str | None = None,
        language: Language = "en",
        query: str = "",
        types: Iterable[SearchType] = (),
    ) -> None:
        self._bus = bus
        self.request_id = request_id
        self.chat_id = chat_id
        self.language: Language = language
        self.root = TraceNode(
            kind="search",
            label=label("search", language),
            input={"query": query, "types": sorted({t.value for t in types})},
        )
        self._children: dict[str, TraceNode] = {}

    @property
    def nodes(self) -> list[TraceNode]:
        """The root followed by its children in creation order."""
        return [self.root, *self._children.values()]

    async def _send(
        self, name: EventName, node: TraceNode | None, message: str | None = None
    ) -> None:
        if not self._bus.listening:
            return
        event = SearchEvent(
            name=name,
            request_id=self.request_id,
            search_id=self.root.id,
            chat_id=self.chat_id,
            node=node,
            message=message,
        )
        await self._bus.emit(event)

    async def progress(self, kind: ProgressKind, count: int = 0) -> None:
        """Emit a progress message in the trace's language."""
        if not self._bus.listening:
            return
        await self._send(
            EventName.SEARCH_PROGRESS, None, progress_message(kind, count, self.language)
        )

    async def start(self) -> None:
        """Mark the search running and say so."""
        self.root = _started(self.root)
        await self._send(EventName.SEARCH_START, self.root)
        await self.progress("searching")

    def add_item(self, type_: SearchType, input_: Mapping[str, Any]) -> str:
        """Create a pending child node for one request and return its id."""
        node = TraceNode(
            kind="search_item",
            parent_id=self.root.id,
            type=type_,
            label=label(type_.value, self.language),
            input=dict(input_),
        )
        self._children[node.id] = node
        return node.id

    async def item_started(self, node_id: str) -> None:
        """Mark a request running."""
        self._children[node_id] = _started(self._children[node_id])
        await self._send(EventName.SEARCH_ITEM_START, self._children[node_id])

    async def item_log(self, node_id: str, level: LogLevel, message: str) -> None:
        """Attach a log line to a request's node."""
        node = self._children[node_id]
        node = node.model_copy(
            update={"logs": [*node.logs, TraceLog(level=level, message=message)]}
        )
        self._children[node_id] = node
        await self._send(EventName.SEARCH_ITEM_LOG, node)

    async def item_finished(
        self, node_id: str, output: Mapping[str, Any], error: ErrorInfo | None = None
    ) -> None:
        """Mark a request completed, or failed when ``error`` is given."""
        node = _ended(self._children[node_id], output, error)
        self._children[node_id] = node
        name = EventName.SEARCH_ITEM_FAILED if error else EventName.SEARCH_ITEM_COMPLETE
        await self._send(name, node)

    async def item_skipped(self, node_id: str, reason: str) -> None:
        """Mark a request skipped, with the reason."""
        node = self._children[node_id]
        self._children[node_id] = node.model_copy(
            update={
                "status": TraceStatus.SKIPPED,
                "output": {"skipped": reason},
                "ended_at": _now(),
            }
        )
        await self._send(EventName.SEARCH_ITEM_COMPLETE, self._children[node_id])

    async def item_cancelled(self, node_id: str) -> None:
        """Mark a request cancelled because the search already had its answer."""
        node = self._children[node_id]
        self._children[node_id] = node.model_copy(
            update={"status": TraceStatus.CANCELLED, "ended_at": _now()}
        )
        await self._send(EventName.SEARCH_ITEM_FAILED, self._children[node_id])

    async def root_log(self, level: LogLevel, message: str) -> None:
        """Attach a log line to the search node itself."""
        log = TraceLog(level=level, message=message)
        self.root = self.root.model_copy(update={"logs": [*self.root.logs, log]})

    async def finish(
        self, count: int, *, failed: int, total: int, output: Mapping[str, Any]
    ) -> None:
        """Close the search and emit the closing progress message.

        Args:
            count: references found.
            failed: requests that failed as a whole.
            total: requests that ran (skipped ones excluded).
            output: figures recorded on the search node.
        """
        kind = outcome_kind(count, failed, total)
        error = (
            ErrorInfo(code="UNKNOWN", message="every source failed") if kind == "failed" else None
        )
        self.root = _ended(self.root, output, error)
        await self._send(EventName.SEARCH_COMPLETE, self.root)
        await self.progress(kind, count)


def _now() -> datetime:
    return datetime.now(UTC)


def _started(node: TraceNode) -> TraceNode:
    return node.model_copy(update={"status": TraceStatus.RUNNING, "started_at": _now()})


def _ended(node: TraceNode, output: Mapping[str, Any], error: ErrorInfo | None) -> TraceNode:
    status = TraceStatus.FAILED if error else TraceStatus.COMPLETED
    return node.model_copy(
        update={"status": status, "output": dict(output), "error": error, "ended_at": _now()}
    )
