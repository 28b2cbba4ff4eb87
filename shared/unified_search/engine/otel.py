"""Export the trace tree of every search as OpenTelemetry spans (the ``otel`` extra).

``OpenTelemetrySink`` is an event sink: added to a Searcher (``instrument``), it
turns each trace node into a span with the node's own start and end times: one
span per search, per source request (a GenAI ``retrieval`` span), and per step
inside them (provider call, embedding, lexical and vector search, fusion,
rerank, record write ...). Attributes carry durations, counts and error codes,
and follow the GenAI semantic conventions where they name one
(``gen_ai.operation.name``, ``gen_ai.data_source.id``, ``gen_ai.request.model``,
``gen_ai.conversation.id``, ``error.type``); the rest are ``unified_search.*``.

Nothing a user typed is exported unless ``capture_content=True``: then the query
goes out as ``gen_ai.retrieval.query.text`` (an opt-in attribute of the
conventions). Step inputs are exported only for a fixed list of non-secret keys.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from datetime import datetime
from typing import Any

from unified_search._optional import require
from unified_search._version import __version__
from unified_search.contract.events import EventName, SearchEvent, TraceNode, TraceStatus

logger = logging.getLogger(__name__)

#: Step inputs exported as attributes (text that names a component, never a user's words).
SAFE_INPUTS = ("collection", "model", "provider", "reranker", "uses", "candidates", "step")
#: Steps that call another process or service.
_CLIENT_STEPS = {"provider_call", "embedding", "vector_search", "db_query"}
_START = {EventName.SEARCH_START, EventName.SEARCH_ITEM_START, EventName.SEARCH_STEP_START}
_END = {
    EventName.SEARCH_COMPLETE,
    EventName.SEARCH_ITEM_COMPLETE,
    EventName.SEARCH_ITEM_FAILED,
    EventName.SEARCH_STEP_COMPLETE,
    EventName.SEARCH_STEP_FAILED,
}


class OpenTelemetrySink:
    """Turn search events into OpenTelemetry spans.

    Args:
        tracer_provider: where spans go (default: the global provider the application set up).
        capture_content: also export the query text (``gen_ai.retrieval.query.text``).
        max_open: spans kept open at most; the oldest searches' spans are ended past it.

    Example:
        >>> from opentelemetry.sdk.trace import TracerProvider
        >>> sink = OpenTelemetrySink(TracerProvider())
        >>> sink.capture_content
        False
    """

    def __init__(
        self, tracer_provider: Any = None, *, capture_content: bool = False, max_open: int = 10_000
    ) -> None:
        otel = require("opentelemetry.trace", extra="otel", purpose="OpenTelemetry export")
        self._trace = otel
        self.tracer = otel.get_tracer(
            "unified_search", __version__, tracer_provider=tracer_provider
        )
        self.capture_content = capture_content
        self._open: OrderedDict[str, tuple[Any, str | None]] = OrderedDict()
        """Open spans by trace node ID, with the search they belong to."""
        self._max_open = max_open

    def __call__(self, event: SearchEvent) -> None:
        """Start or end the span of the event's trace node."""
        node = event.node
        if event.name is EventName.CITATIONS_CHECKED and event.checks is not None:
            self._checks(event)
        if node is None:
            return
        if event.name in _START:
            self._start(node, event)
        elif event.name in _END:
            opened = self._open.pop(node.id, None)
            self._finish(opened[0] if opened else self._start(node, event, keep=False), node)
            if node.kind == "search":
                self._close_search(node.id)

    def _start(self, node: TraceNode, event: SearchEvent, *, keep: bool = True) -> Any:
        parent = self._open.get(node.parent_id or "")
        context = self._trace.set_span_in_context(parent[0]) if parent is not None else None
        kind = self._trace.SpanKind
        span = self.tracer.start_span(
            _name(node),
            context=context,
            kind=kind.CLIENT if _is_client(node) else kind.INTERNAL,
            attributes=self._attributes(node, event),
            start_time=_nanos(node.started_at),
        )
        if keep:
            self._open[node.id] = (span, event.search_id)
            while len(self._open) > self._max_open:
                _, (oldest, _) = self._open.popitem(last=False)
                oldest.end()
        return span

    def _attributes(self, node: TraceNode, event: SearchEvent) -> dict[str, Any]:
        found: dict[str, Any] = {"unified_search.node": node.kind}
        if node.kind == "search":
            found |= {"unified_search.request_id": event.request_id}
            if event.chat_id:
                found["gen_ai.conversation.id"] = event.chat_id
            types = node.input.get("types")
            if isinstance(types, list):
                found["unified_search.types"] = [str(t) for t in types]
        elif node.kind == "search_item":
            found |= {"gen_ai.operation.name": "retrieval"}
            if node.type is not None:
                found["gen_ai.data_source.id"] = node.type.value
            if isinstance(source := node.input.get("source"), str):
                found["unified_search.source"] = source
        else:
            found |= _step_attributes(node)
        if self.capture_content and isinstance(query := node.input.get("query"), str):
            found["gen_ai.retrieval.query.text"] = query
        return found

    def _finish(self, span: Any, node: TraceNode) -> None:
        for key, value in node.output.items():
            if isinstance(value, bool | int | float):
                span.set_attribute(f"unified_search.{key}", value)
        span.set_attribute("unified_search.status", node.status.value)
        if node.error is not None:
            span.set_attribute("error.type", node.error.code.value)
            span.set_status(self._trace.Status(self._trace.StatusCode.ERROR, node.error.code.value))
        elif node.status is TraceStatus.CANCELLED:
            span.set_attribute("error.type", "cancelled")
        span.end(end_time=_nanos(node.ended_at))

    def _close_search(self, search_id: str) -> None:
        """End what a search left open (a step whose end was never announced)."""
        for node_id in [n for n, (_, owner) in self._open.items() if owner == search_id]:
            self._open.pop(node_id)[0].end()

    def _checks(self, event: SearchEvent) -> None:
        """One span for the citation check of an answer, with its counts per verdict."""
        report = event.checks
        assert report is not None
        attributes: dict[str, Any] = {
            "unified_search.node": "citation_check",
            "unified_search.sentences": len(report.sentences),
            "unified_search.duration_ms": report.duration_ms,
        }
        attributes |= {f"unified_search.{v.value}": n for v, n in report.counts.items()}
        if report.limit:
            attributes["unified_search.limit_reached"] = True
        end = _nanos(event.at) or 0
        span = self.tracer.start_span(
            "citation_check", attributes=attributes, start_time=end - int(report.duration_ms * 1e6)
        )
        span.end(end_time=end)


def instrument(searcher: Any, tracer_provider: Any = None, **options: Any) -> OpenTelemetrySink:
    """Export every search of ``searcher`` as spans; return the sink (``searcher.events.remove`` it).

    Example:
        Not run here: ``searcher`` is the caller's Searcher.

        >>> sink = instrument(searcher, capture_content=False)  # doctest: +SKIP
    """
    sink = OpenTelemetrySink(tracer_provider, **options)
    searcher.events.add(sink)
    return sink


def _name(node: TraceNode) -> str:
    if node.kind == "search":
        return "search unified_search"
    if node.kind == "search_item":
        return f"retrieval {node.type.value if node.type else 'search'}"
    step = str(node.input.get("step", "step"))
    target = next(
        (
            node.input[k]
            for k in ("model", "collection", "provider", "reranker")
            if isinstance(node.input.get(k), str)
        ),
        None,
    )
    operation = "embeddings" if step == "embedding" else step
    return f"{operation} {target}" if target else operation


def _step_attributes(node: TraceNode) -> dict[str, Any]:
    step = str(node.input.get("step", ""))
    found: dict[str, Any] = {}
    for key in SAFE_INPUTS:
        value = node.input.get(key)
        if isinstance(value, str | int | float | bool):
            found[f"unified_search.{key}"] = value
    if step == "embedding":
        found["gen_ai.operation.name"] = "embeddings"
        if isinstance(model := node.input.get("model"), str):
            found["gen_ai.request.model"] = model
    if isinstance(collection := node.input.get("collection"), str):
        found["gen_ai.data_source.id"] = collection
    return found


def _is_client(node: TraceNode) -> bool:
    return node.kind == "search_item" or str(node.input.get("step")) in _CLIENT_STEPS


def _nanos(moment: datetime | None) -> int | None:
    return None if moment is None else int(moment.timestamp() * 1_000_000_000)
