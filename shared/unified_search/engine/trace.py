"""The trace tree of one search, built as the search runs and announced on an ``EventBus``.

The wording follows the search module design this package implements: the
labels, one progress message per search (sent, replaced with the outcome, then
replaced once more marked ``done``) and the summary logs, in English and Chinese.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from unified_search.contract.events import (
    EventBus,
    EventName,
    LogLevel,
    SearchEvent,
    TraceLog,
    TraceNode,
    TraceStatus,
)
from unified_search.contract.steps import Step
from unified_search.engine.wording import (
    Language,
    ProgressKind,
    label,
    outcome_kind,
    progress_message,
    summary,
)
from unified_search.errors import ErrorInfo, as_search_error
from unified_search.types import Reference, SearchType


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
        self._steps: list[TraceNode] = []
        # Events of steps timed in worker threads, sent on the loop before the next event.
        self._pending: deque[tuple[EventName, TraceNode]] = deque()

    @property
    def nodes(self) -> list[TraceNode]:
        """The root, its children in creation order, then the steps in the order they ended."""
        return [self.root, *self._children.values(), *list(self._steps)]

    async def _send(
        self,
        name: EventName,
        node: TraceNode | None,
        message: str | None = None,
        **extra: Any,
    ) -> None:
        if not self._bus.listening:
            return
        while self._pending:
            await self._emit(*self._pending.popleft())
        await self._emit(name, node, message, **extra)

    async def _emit(
        self, name: EventName, node: TraceNode | None, message: str | None = None, **extra: Any
    ) -> None:
        event = SearchEvent(
            name=name,
            request_id=self.request_id,
            search_id=self.root.id,
            chat_id=self.chat_id,
            node=node,
            message=message,
            **extra,
        )
        await self._bus.emit(event)

    async def progress(self, kind: ProgressKind, count: int = 0, *, done: bool = False) -> None:
        """Emit the search's progress message in the trace's language (``done`` the last time)."""
        text = progress_message(kind, count, self.language)
        await self._send(EventName.SEARCH_PROGRESS, None, text, done=done)

    async def start(self) -> None:
        """Mark the search running and say so."""
        begun = _log("info", self._summary("search_start"), self.root.input)
        self.root = _started(self.root, begun)
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

    async def item_log(
        self,
        node_id: str,
        level: LogLevel,
        message: str,
        data: Mapping[str, Any] | None = None,
    ) -> None:
        """Attach a log line (with its figures, if any) to a request's node."""
        node = _logged(self._children[node_id], level, message, data)
        self._children[node_id] = node
        await self._send(EventName.SEARCH_ITEM_LOG, node)

    async def item_finished(
        self, node_id: str, output: Mapping[str, Any], error: ErrorInfo | None = None
    ) -> None:
        """Mark a request completed, or failed when ``error`` is given; log its summary."""
        node = self._children[node_id]
        source = node.type.value if node.type else "search"
        if error is None:
            figures = {
                "count": output.get("result_count"),
                "duration_ms": output.get("duration_ms"),
            }
            summary = _log("debug", self._summary(f"{source}_completed"), figures)
        else:
            failure = {"error": error.message, "code": error.code.value}
            summary = _log("warn", self._summary(f"{source}_failed"), failure)
        self._children[node_id] = _ended(node, output, error, summary)
        name = EventName.SEARCH_ITEM_FAILED if error else EventName.SEARCH_ITEM_COMPLETE
        await self._send(name, self._children[node_id])

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
        self.root = _logged(self.root, level, message)

    # -- steps (see unified_search.contract.steps) ---------------------------------------------------

    def step(self, parent_id: str, name: str, /, **input: Any) -> Step:
        """Open a timed step under the node ``parent_id`` (a request, or the search itself)."""
        return Step(self, parent_id, name, input)

    async def step_started(self, step: Step) -> None:
        """Announce a step that has begun, if anybody listens."""
        if self._bus.listening:
            node = self._step_node(step, TraceStatus.RUNNING)
            step.node_id = node.id
            await self._send(EventName.SEARCH_STEP_START, node)

    async def step_ended(self, step: Step, error: BaseException | None) -> None:
        """Record a step that has ended and announce it, if anybody listens."""
        node = self._step_ended(step, error)
        if self._bus.listening:
            await self._send(_step_event(node), node)

    def step_timed(self, step: Step, error: BaseException | None) -> None:
        """Record a step timed in any thread; its events go out before the next event."""
        node = self._step_ended(step, error)
        if self._bus.listening:
            running = node.model_copy(
                update={
                    "status": TraceStatus.RUNNING,
                    "output": {},
                    "error": None,
                    "ended_at": None,
                }
            )
            self._pending.extend(
                [(EventName.SEARCH_STEP_START, running), (_step_event(node), node)]
            )

    def _step_ended(self, step: Step, error: BaseException | None) -> TraceNode:
        status = TraceStatus.FAILED if error is not None else TraceStatus.COMPLETED
        node = self._step_node(step, status, error)
        self._steps.append(node)
        return node

    def _step_node(
        self, step: Step, status: TraceStatus, error: BaseException | None = None
    ) -> TraceNode:
        parent = self._children.get(step.parent_id)
        fields: dict[str, Any] = {
            "kind": "search_step",
            "parent_id": step.parent_id,
            "type": parent.type if parent is not None else None,
            "status": status,
            "label": label(step.name, self.language),
            "input": {"step": step.name, **step.input},
            "started_at": step.started_at,
        }
        if step.node_id is not None:
            fields["id"] = step.node_id
        if status is not TraceStatus.RUNNING:
            duration = round(step.duration_ms or 0.0, 3)
            fields |= {
                "output": {**step.output, "duration_ms": duration},
                "ended_at": step.ended_at,
            }
        if error is not None:
            fields["error"] = as_search_error(error).info()
        return TraceNode(**fields)

    # -- the end ----------------------------------------------------------------------------

    async def results(self, references: Sequence[Reference]) -> None:
        """Announce each cited reference in final order (only when anybody listens)."""
        if not self._bus.listening:
            return
        for reference in references:
            await self._send(EventName.SEARCH_RESULT, None, reference=reference)

    async def finish(
        self,
        count: int,
        *,
        failed: int,
        total: int,
        output: Mapping[str, Any],
        refused: bool = False,
    ) -> None:
        """Close the search, log its summary and send its closing progress message twice.

        The outcome replaces "Searching...", then the same message marked ``done``
        follows, so a UI can show the outcome and then remove its indicator.

        Args:
            count: references found.
            failed: requests that failed as a whole.
            total: requests that ran (skipped ones excluded).
            output: figures recorded on the search node.
            refused: every failure is a refusal of the input (``errors.REFUSALS``).
        """
        kind = outcome_kind(count, failed, total)
        error = None
        if kind == "failed":
            error = (
                ErrorInfo(code="INVALID_QUERY", message="every source refused the input")
                if refused
                else ErrorInfo(code="UNKNOWN", message="every source failed")
            )
        if error is None:
            figures = {"total": count, "duration_ms": output.get("duration_ms")}
            summary = _log("info", self._summary("search_completed"), figures)
        else:
            summary = _log("warn", self._summary("search_failed"), {"error": error.message})
        self.root = _ended(self.root, output, error, summary)
        await self._send(EventName.SEARCH_COMPLETE, self.root)
        await self.progress(kind, count)
        await self.progress(kind, count, done=True)

    def _summary(self, key: str) -> str:
        return summary(key, self.language)


def _now() -> datetime:
    return datetime.now(UTC)


def _started(node: TraceNode, *logs: TraceLog) -> TraceNode:
    update: dict[str, Any] = {"status": TraceStatus.RUNNING, "started_at": _now()}
    return node.model_copy(update=update | _appended(node, logs))


def _ended(
    node: TraceNode, output: Mapping[str, Any], error: ErrorInfo | None, *logs: TraceLog
) -> TraceNode:
    status = TraceStatus.FAILED if error else TraceStatus.COMPLETED
    update = {"status": status, "output": dict(output), "error": error, "ended_at": _now()}
    return node.model_copy(update=update | _appended(node, logs))


def _appended(node: TraceNode, logs: Sequence[TraceLog]) -> dict[str, Any]:
    """The ``logs`` update adding ``logs`` to ``node``, each marked with the node's id."""
    if not logs:
        return {}
    return {"logs": [*node.logs, *(log.model_copy(update={"node_id": node.id}) for log in logs)]}


def _log(level: LogLevel, message: str, data: Mapping[str, Any] | None = None) -> TraceLog:
    return TraceLog(level=level, message=message, data=None if data is None else dict(data))


def _logged(
    node: TraceNode, level: LogLevel, message: str, data: Mapping[str, Any] | None = None
) -> TraceNode:
    return node.model_copy(update=_appended(node, [_log(level, message, data)]))


def _step_event(node: TraceNode) -> EventName:
    failed = node.status is TraceStatus.FAILED
    return EventName.SEARCH_STEP_FAILED if failed else EventName.SEARCH_STEP_COMPLETE
