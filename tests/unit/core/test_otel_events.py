"""The OpenTelemetry sink on hand-made events: skipped and cancelled requests, bounds, orphans."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from unified_search.contract.events import EventName, SearchEvent, TraceNode, TraceStatus
from unified_search.engine.otel import OpenTelemetrySink
from unified_search.errors import ErrorInfo

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def sink_and_exporter(**options: int) -> tuple[OpenTelemetrySink, InMemorySpanExporter]:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    return OpenTelemetrySink(provider, **options), exporter


def event(name: EventName, node: TraceNode, search: str = "s1") -> SearchEvent:
    return SearchEvent(name=name, request_id="r1", search_id=search, node=node)


def node(kind: str, node_id: str, parent: str | None = None, **fields: object) -> TraceNode:
    return TraceNode(id=node_id, kind=kind, parent_id=parent, started_at=T0, **fields)  # type: ignore[arg-type]


def test_skipped_and_cancelled_requests_and_a_step_never_ended() -> None:
    sink, exporter = sink_and_exporter()
    root = node("search", "s1")
    sink(event(EventName.SEARCH_START, root))
    skipped = node("search_item", "i1", "s1", type="web", status=TraceStatus.SKIPPED, ended_at=T0)
    sink(event(EventName.SEARCH_ITEM_COMPLETE, skipped))
    running = node("search_item", "i2", "s1", type="kb")
    sink(event(EventName.SEARCH_ITEM_START, running))
    cancelled = running.model_copy(
        update={"status": TraceStatus.CANCELLED, "ended_at": T0 + timedelta(seconds=1)}
    )
    sink(event(EventName.SEARCH_ITEM_FAILED, cancelled))
    step = node("search_step", "x1", "s1", input={"step": "rerank", "reranker": "rrf"})
    sink(event(EventName.SEARCH_STEP_START, step))
    done = root.model_copy(
        update={
            "status": TraceStatus.FAILED,
            "ended_at": T0 + timedelta(seconds=2),
            "error": ErrorInfo(code="UNKNOWN", message="every source failed"),
        }
    )
    sink(event(EventName.SEARCH_COMPLETE, done))
    spans = {s.name: s for s in exporter.get_finished_spans()}
    assert set(spans) == {"search unified_search", "retrieval web", "retrieval kb", "rerank rrf"}
    assert spans["retrieval web"].attributes["unified_search.status"] == "skipped"
    assert spans["retrieval kb"].attributes["error.type"] == "cancelled"
    assert spans["search unified_search"].attributes["error.type"] == "UNKNOWN"
    assert spans["retrieval kb"].end_time - spans["retrieval kb"].start_time == 1_000_000_000
    assert not sink._open


def test_open_spans_are_bounded() -> None:
    sink, exporter = sink_and_exporter(max_open=2)
    for number in range(4):
        sink(event(EventName.SEARCH_START, node("search", f"s{number}"), search=f"s{number}"))
    assert len(sink._open) == 2 and len(exporter.get_finished_spans()) == 2


def test_events_without_a_node_are_ignored() -> None:
    sink, exporter = sink_and_exporter()
    sink(SearchEvent(name=EventName.SEARCH_PROGRESS, request_id="r1", message="Searching..."))
    assert exporter.get_finished_spans() == ()
