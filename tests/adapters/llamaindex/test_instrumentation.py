import asyncio
from typing import Any

import pytest
from llama_index.core.instrumentation import get_dispatcher  # type: ignore[attr-defined]
from llama_index.core.instrumentation.dispatcher import instrument_tags
from llama_index.core.instrumentation.span_handlers import SimpleSpanHandler

from llama_index_unified_search import (
    SearchTraceCollector,
    UnifiedSearchCompleteEvent,
    UnifiedSearchItemFailedEvent,
    UnifiedSearchProgressEvent,
    UnifiedSearchResultEvent,
    UnifiedSearchRetriever,
    UnifiedSearchStartEvent,
    UnifiedSearchStepCompleteEvent,
    UnifiedSearchStepStartEvent,
)
from llama_index_unified_search.events import EVENT_CLASSES
from unified_search.contract.events import EventName, TraceStatus
from unified_search.contract.handler import SearchContext
from unified_search.contract.steps import StepName
from unified_search.engine.searcher import Searcher
from unified_search.types import ResultItem, SearchRequest, SearchResult

ORDER_ONE_SOURCE = [
    "search_start",
    "search_progress",
    "search_item_start",
    "search_item_complete",
    "search_step_start",
    "search_step_complete",
    "search_result",
    "search_result",
    "search_result",
    "search_complete",
    "search_progress",
    "search_progress",
]


async def _retrieve(retriever: UnifiedSearchRetriever, use_async: bool, query: str = "heat") -> Any:
    return (
        await retriever.aretrieve(query)
        if use_async
        else await asyncio.to_thread(retriever.retrieve, query)
    )


def test_one_event_class_per_core_event() -> None:
    """Every core event name has its own BaseEvent subclass, named after itself."""
    assert set(EVENT_CLASSES) == set(EventName)
    assert len(set(EVENT_CLASSES.values())) == len(EventName)
    assert EVENT_CLASSES[EventName.SEARCH_START].class_name() == "UnifiedSearchStartEvent"


@pytest.mark.parametrize("use_async", [False, True])
async def test_collector_receives_the_events_in_order(
    searcher: Searcher, collector: SearchTraceCollector, use_async: bool
) -> None:
    await _retrieve(UnifiedSearchRetriever(searcher), use_async)
    (search_id,) = collector.search_ids()
    events = collector.events(search_id)
    assert [e.name.value for e in events] == ORDER_ONE_SOURCE
    assert isinstance(events[0], UnifiedSearchStartEvent)
    assert isinstance(events[4], UnifiedSearchStepStartEvent)
    assert isinstance(events[5], UnifiedSearchStepCompleteEvent)
    assert isinstance(events[-4], UnifiedSearchResultEvent)
    assert isinstance(events[-3], UnifiedSearchCompleteEvent)
    assert isinstance(events[-1], UnifiedSearchProgressEvent) and events[-1].done
    assert collector.progress(search_id) == ["Searching...", "Found 3 references"]
    assert collector.done(search_id)
    assert [r.id for r in collector.results(search_id)] == ["ref_001", "ref_002", "ref_003"]
    step = events[5].node
    assert step is not None and step.kind == "search_step" and step.label == "Rerank"
    assert step.output["duration_ms"] >= 0


@pytest.mark.parametrize("use_async", [False, True])
async def test_steps_timed_by_a_source_reach_the_search_span(
    collector: SearchTraceCollector, use_async: bool
) -> None:
    """Steps a source times, on the loop or in a worker thread, arrive inside the search's span."""

    class Timed:
        async def asearch(self, request: SearchRequest, ctx: SearchContext) -> SearchResult:
            async with ctx.step(StepName.DSL_BUILD):
                pass

            def blocking() -> None:
                with ctx.step(StepName.DB_QUERY, model="orders") as step:
                    step.output["rows"] = 1

            await asyncio.to_thread(blocking)
            item = ResultItem(type="db", model="orders", record_id="1", title="Order 1")
            return SearchResult(type="db", query=request.query, items=[item])

    searcher = Searcher(handlers={"db": Timed()})
    await _retrieve(UnifiedSearchRetriever(searcher, types=["db"]), use_async)
    (search_id,) = collector.search_ids()
    steps = [n for n in collector.trace(search_id) if n.kind == "search_step"]
    assert [(n.input["step"], n.status) for n in steps] == [
        ("dsl_build", TraceStatus.COMPLETED),
        ("db_query", TraceStatus.COMPLETED),
        ("rerank", TraceStatus.COMPLETED),
    ]
    assert steps[1].output["rows"] == 1 and steps[1].type is not None
    assert len({e.span_id for e in collector.events(search_id)}) == 1


@pytest.mark.parametrize("use_async", [False, True])
async def test_trace_tree_and_failures(
    fakes, collector: SearchTraceCollector, use_async: bool
) -> None:
    """The collected tree has the search root and one child per request, failures included."""
    searcher = Searcher(handlers={"kb": fakes.FakeKB(), "web": fakes.FailingWeb()})
    await _retrieve(UnifiedSearchRetriever(searcher, types=["kb", "web"]), use_async)
    (search_id,) = collector.search_ids()
    root, *nodes = collector.trace(search_id)
    children = [node for node in nodes if node.kind == "search_item"]
    assert [node.input["step"] for node in nodes if node.kind == "search_step"] == ["rerank"]
    assert root.kind == "search" and root.status is TraceStatus.COMPLETED
    assert root.output["result_count"] == 3
    assert {c.type.value: c.status for c in children} == {
        "kb": TraceStatus.COMPLETED,
        "web": TraceStatus.FAILED,
    }
    assert all(c.parent_id == root.id for c in children)
    failed = [e for e in collector.events(search_id) if isinstance(e, UnifiedSearchItemFailedEvent)]
    assert failed[0].node.error.code.value == "NO_API_KEY"
    assert collector.progress(search_id)[-1] == "Found 3 references (some sources failed)"


@pytest.mark.parametrize("use_async", [False, True])
async def test_each_search_has_a_span_and_its_events_belong_to_it(
    searcher: Searcher, collector: SearchTraceCollector, use_async: bool
) -> None:
    """A span handler sees one span per search, nested in the retrieve span; events carry its id."""
    spans = SimpleSpanHandler()
    root = get_dispatcher()
    root.add_span_handler(spans)
    try:
        retriever = UnifiedSearchRetriever(searcher)
        await _retrieve(retriever, use_async)
        await _retrieve(retriever, use_async)
    finally:
        root.span_handlers.remove(spans)
    search_spans = [s for s in spans.completed_spans if s.id_.startswith(("search-", "asearch-"))]
    assert len(search_spans) == 2
    assert all(s.parent_id and "Retriever" in s.parent_id for s in search_spans)
    for search_id, span in zip(collector.search_ids(), search_spans, strict=True):
        assert {e.span_id for e in collector.events(search_id)} == {span.id_}


@pytest.mark.parametrize("use_async", [False, True])
async def test_events_carry_the_callers_instrument_tags(
    searcher: Searcher, collector: SearchTraceCollector, use_async: bool
) -> None:
    """Tags set around a call reach the events, also from the sync path's background loop."""
    with instrument_tags({"tenant": "acme"}):
        await _retrieve(UnifiedSearchRetriever(searcher), use_async)
    assert [e.tags.get("tenant") for e in collector.events()] == ["acme"] * len(ORDER_ONE_SOURCE)


async def test_collector_separates_concurrent_searches(
    searcher: Searcher, collector: SearchTraceCollector
) -> None:
    retriever = UnifiedSearchRetriever(searcher)
    await asyncio.gather(retriever.aretrieve("a"), retriever.aretrieve("b"))
    ids = collector.search_ids()
    assert len(ids) == 2
    assert all([e.name.value for e in collector.events(i)] == ORDER_ONE_SOURCE for i in ids)
    collector.clear()
    assert collector.events() == []


def test_a_failing_event_handler_never_breaks_the_search(searcher: Searcher) -> None:
    class Broken(SearchTraceCollector):
        def handle(self, event: Any, **kwargs: Any) -> None:
            raise RuntimeError("observer bug")

    root = get_dispatcher()
    broken = Broken()
    root.add_event_handler(broken)
    try:
        assert len(UnifiedSearchRetriever(searcher).retrieve("heat")) == 3
    finally:
        root.event_handlers.remove(broken)
