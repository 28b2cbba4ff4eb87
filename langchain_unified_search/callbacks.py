"""``UnifiedSearchCallbackHandler``: collect the search custom events into trace trees."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler

from langchain_unified_search.events import EVENT_NAMES
from unified_search import ErrorInfo, Reference
from unified_search.contract import EventName, SearchEvent, TraceNode, TraceStatus

logger = logging.getLogger(__name__)

ProgressFn = Callable[[str], None]


@dataclass
class SearchTrace:
    """The trace tree of one search: its root, one child per request, the steps, the results.

    Example:
        >>> trace = SearchTrace(root=TraceNode(kind="search"))
        >>> trace.failed, trace.duration_ms(), trace.done
        (0, None, False)
    """

    root: TraceNode
    request_id: str = ""
    """The citation scope the search belongs to."""
    children: dict[str, TraceNode] = field(default_factory=dict)
    steps: dict[str, TraceNode] = field(default_factory=dict)
    """The timed steps (embedding, database query, rerank ...), by node ID, latest state."""
    results: list[Reference] = field(default_factory=list)
    """The cited references, in final order, as the ``search_result`` events brought them."""
    progress: list[str] = field(default_factory=list)
    """The progress message as it was replaced: "Searching...", then the outcome."""
    done: bool = False
    """Whether the last progress message (marked ``done``) has arrived."""

    @property
    def nodes(self) -> list[TraceNode]:
        """The root, the children in the order they appeared, then the steps."""
        return [self.root, *self.children.values(), *self.steps.values()]

    @property
    def errors(self) -> list[ErrorInfo]:
        """The errors of the requests that failed."""
        return [node.error for node in self.children.values() if node.error is not None]

    @property
    def failed(self) -> int:
        """How many requests failed."""
        return sum(node.status is TraceStatus.FAILED for node in self.children.values())

    @property
    def result_count(self) -> int:
        """References the whole search returned (0 until it completes)."""
        return int(self.root.output.get("result_count", 0))

    def duration_ms(self, node: TraceNode | None = None) -> float | None:
        """Wall time of ``node`` (the whole search by default); ``None`` while it runs."""
        node = node or self.root
        if node.started_at is None or node.ended_at is None:
            return None
        return (node.ended_at - node.started_at).total_seconds() * 1000


class UnifiedSearchCallbackHandler(BaseCallbackHandler):
    """Build a trace tree per search from the custom events, and forward progress text.

    Pass it in ``config={"callbacks": [handler]}`` of any retriever, tool or
    chain of this package. ``traces`` maps each search's ``search_id`` to its ``SearchTrace``
    (timings, counts, errors, steps, results); ``on_progress`` receives the
    progress message each time it changes ("Searching...", "Found 3 references"),
    for a UI; ``SearchTrace.done`` tells when it is final.

    Example:
        Not run here: ``retriever`` stands for a configured retriever.

        >>> handler = UnifiedSearchCallbackHandler(on_progress=print)
        >>> retriever.invoke("query", config={"callbacks": [handler]})  # doctest: +SKIP
        Searching...
        Found 3 references
    """

    run_inline = True
    """Handle events in order on the caller's thread, also under an async callback manager."""

    def __init__(self, on_progress: ProgressFn | None = None) -> None:
        self.on_progress = on_progress
        self.traces: dict[str, SearchTrace] = {}

    def on_custom_event(
        self,
        name: str,
        data: Any,
        *,
        run_id: UUID,
        tags: list[str] | None = None,
        metadata: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        """Record one search event; events of other libraries are ignored."""
        if name not in EVENT_NAMES:
            return
        event = data if isinstance(data, SearchEvent) else SearchEvent.model_validate(data)
        if event.name is EventName.SEARCH_PROGRESS:
            self._progress(event)
        elif event.reference is not None:
            trace = self.traces.get(event.search_id or event.request_id)
            if trace is not None:
                trace.results.append(event.reference)
        elif event.node is not None:
            self._record(event, event.node)

    def _record(self, event: SearchEvent, node: TraceNode) -> None:
        search_id = event.search_id or event.request_id
        trace = self.traces.get(search_id)
        if node.kind == "search":
            if trace is None:
                self.traces[search_id] = SearchTrace(root=node, request_id=event.request_id)
            else:
                trace.root = node
        elif trace is not None:
            nodes = trace.steps if node.kind == "search_step" else trace.children
            nodes[node.id] = node

    def _progress(self, event: SearchEvent) -> None:
        text = event.message or ""
        trace = self.traces.get(event.search_id or event.request_id)
        if trace is not None:
            trace.done = trace.done or event.done
            if trace.progress[-1:] == [text]:
                return  # the same message marked done: nothing new to show
            trace.progress.append(text)
        if self.on_progress is None:
            return
        try:
            self.on_progress(text)
        except Exception:  # a broken display must never break the search
            logger.exception("progress callback %r failed", self.on_progress)

    @property
    def last(self) -> SearchTrace | None:
        """The trace of the most recent search, if any."""
        return next(reversed(self.traces.values()), None)
