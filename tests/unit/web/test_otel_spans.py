"""The trace tree exported as OpenTelemetry spans, read back from the SDK's in-memory exporter."""

from __future__ import annotations

from typing import Any

import pytest
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanKind, StatusCode

from unified_search import Reference, averify_citations
from unified_search.contract.handler import SearchContext
from unified_search.contract.steps import StepName
from unified_search.engine.otel import OpenTelemetrySink, instrument
from unified_search.engine.searcher import Searcher
from unified_search.errors import ErrorCode, SearchError
from unified_search.records.store import SearchStore
from unified_search.types import ResultItem, SearchRequest, SearchResult, SearchType

TAVILY = "api.tavily.com"
QUERY = "how do heat pumps work in cold climates"


class FakeKB:
    """A knowledge-base handler timing the steps the real one times, in a worker thread's way."""

    async def asearch(self, request: SearchRequest, ctx: SearchContext) -> SearchResult:
        with ctx.step(StepName.EMBEDDING, model="all-MiniLM-L6-v2-int8") as step:
            step.output["dimensions"] = 384
        for name in (StepName.LEXICAL_SEARCH, StepName.VECTOR_SEARCH, StepName.FUSION):
            with ctx.step(name, collection="help"):
                pass
        item = ResultItem(type=SearchType.KB, content="Heat pumps move heat.", document_id="d1")
        return SearchResult(type=SearchType.KB, query=request.query, items=[item], total=1)


class BrokenDB:
    async def asearch(self, request: SearchRequest, ctx: SearchContext) -> SearchResult:
        raise SearchError(ErrorCode.RATE_LIMITED, "slow down", provider="db")


@pytest.fixture(autouse=True)
def _keys(keys: dict[str, str]) -> None:
    """Every provider has its (fake) key."""


@pytest.fixture
def exporter() -> InMemorySpanExporter:
    return InMemorySpanExporter()


@pytest.fixture
def provider(exporter: InMemorySpanExporter) -> TracerProvider:
    tracer_provider = TracerProvider()
    tracer_provider.add_span_processor(SimpleSpanProcessor(exporter))
    return tracer_provider


async def search(
    api: Any, kit: Any, make_handler: Any, provider: TracerProvider, tmp_path: Any, **options: Any
) -> Any:
    api.on(TAVILY, kit.replay("tavily_search_success"))
    config = kit.web_config(["tavily"])
    handlers = {"web": make_handler(config), "kb": FakeKB(), "db": BrokenDB()}
    store = SearchStore(f"sqlite:///{tmp_path / 'records.sqlite3'}")
    async with Searcher(config, handlers=handlers, store=store) as searcher:
        instrument(searcher, provider, **options)
        return await searcher.aall(
            [{"query": QUERY, "type": t} for t in ("web", "kb", "db")], chat_id="chat-7"
        )


def by_name(spans: tuple[ReadableSpan, ...]) -> dict[str, ReadableSpan]:
    return {span.name: span for span in spans}


async def test_one_span_per_search_source_and_step(
    api: Any, kit: Any, make_handler: Any, provider: TracerProvider, exporter: Any, tmp_path: Any
) -> None:
    response = await search(api, kit, make_handler, provider, tmp_path)
    spans = by_name(exporter.get_finished_spans())
    root = spans["search unified_search"]
    assert {
        "retrieval web",
        "retrieval kb",
        "retrieval db",
        "provider_call tavily",
        "embeddings all-MiniLM-L6-v2-int8",
        "lexical_search help",
        "vector_search help",
        "fusion help",
        "rerank weighted",
        "record_write",
    } <= set(spans)
    assert len(exporter.get_finished_spans()) == len(response.trace)
    trace_id = root.context.trace_id
    assert all(s.context.trace_id == trace_id for s in spans.values())
    for source in ("web", "kb", "db"):
        item = spans[f"retrieval {source}"]
        assert item.parent is not None and item.parent.span_id == root.context.span_id
        assert item.kind is SpanKind.CLIENT
        assert item.attributes["gen_ai.operation.name"] == "retrieval"
        assert item.attributes["gen_ai.data_source.id"] == source
    web = spans["retrieval web"]
    call = spans["provider_call tavily"]
    assert call.parent is not None and call.parent.span_id == web.context.span_id
    assert call.attributes["unified_search.result_count"] > 0
    embedding = spans["embeddings all-MiniLM-L6-v2-int8"]
    assert embedding.attributes["gen_ai.operation.name"] == "embeddings"
    assert embedding.attributes["gen_ai.request.model"] == "all-MiniLM-L6-v2-int8"
    assert embedding.attributes["unified_search.dimensions"] == 384
    assert spans["fusion help"].attributes["gen_ai.data_source.id"] == "help"
    assert spans["record_write"].attributes["unified_search.stored"] is True
    assert root.attributes["gen_ai.conversation.id"] == "chat-7"
    assert root.attributes["unified_search.result_count"] == len(response.items)
    for span in spans.values():
        assert span.end_time is not None and span.start_time is not None
        assert span.end_time >= span.start_time
        assert "unified_search.duration_ms" in span.attributes


async def test_a_failed_source_carries_its_error_code(
    api: Any, kit: Any, make_handler: Any, provider: TracerProvider, exporter: Any, tmp_path: Any
) -> None:
    await search(api, kit, make_handler, provider, tmp_path)
    failed = by_name(exporter.get_finished_spans())["retrieval db"]
    assert failed.status.status_code is StatusCode.ERROR
    assert failed.attributes["error.type"] == "RATE_LIMITED"
    assert "slow down" not in str(failed.attributes)


@pytest.mark.parametrize("capture", [False, True])
async def test_query_text_is_exported_only_when_asked(
    api: Any,
    kit: Any,
    make_handler: Any,
    provider: TracerProvider,
    exporter: Any,
    tmp_path: Any,
    capture: bool,
) -> None:
    await search(api, kit, make_handler, provider, tmp_path, capture_content=capture)
    spans = exporter.get_finished_spans()
    shown = [str(dict(span.attributes or {})) for span in spans]
    assert any(QUERY in text for text in shown) is capture
    assert not any("tvly-secret" in text for text in shown)
    if capture:
        item = by_name(spans)["retrieval web"]
        assert item.attributes["gen_ai.retrieval.query.text"] == QUERY


async def test_the_search_is_a_child_of_the_callers_span(
    api: Any, kit: Any, make_handler: Any, provider: TracerProvider, exporter: Any, tmp_path: Any
) -> None:
    with provider.get_tracer("app").start_as_current_span("handle request") as outer:
        await search(api, kit, make_handler, provider, tmp_path)
    root = by_name(exporter.get_finished_spans())["search unified_search"]
    assert root.parent is not None and root.parent.span_id == outer.get_span_context().span_id


async def test_a_citation_check_is_one_span_with_its_counts(
    provider: TracerProvider, exporter: Any
) -> None:
    ref = Reference(
        id="ref_001",
        index=1,
        type="kb",
        source="user",
        weight=1.0,
        score=1.0,
        content="Heat pumps move heat from cold air into the house.",
    )
    sink = OpenTelemetrySink(provider)
    await averify_citations(
        "Heat pumps move heat from cold air #ref:ref_001. Cats purr loudly #ref:ref_001.",
        [ref],
        sinks=[sink],
        embedding=None,
    )
    [span] = exporter.get_finished_spans()
    assert span.name == "citation_check"
    assert span.attributes["unified_search.supported"] == 1
    assert span.attributes["unified_search.unsupported"] == 1
