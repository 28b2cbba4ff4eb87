"""UnifiedSearchCallbackHandler: trace trees with timings, counts and errors; progress text."""

from __future__ import annotations

import uuid

import pytest

from langchain_unified_search import (
    KBSearchTool,
    UnifiedSearchCallbackHandler,
    UnifiedSearchRetriever,
)


@pytest.mark.parametrize("use_async", [False, True])
async def test_trace_tree_has_timings_counts_and_errors(sources, use_async):
    progress: list[str] = []
    handler = UnifiedSearchCallbackHandler(on_progress=progress.append)
    retriever = UnifiedSearchRetriever(searcher=sources.searcher(), types=["web", "kb", "db"], k=4)
    config = {"callbacks": [handler], "configurable": {"request_id": "req-1"}}
    if use_async:
        await retriever.ainvoke("q", config, models=["nope"])
    else:
        retriever.invoke("q", config, models=["nope"])
    trace = handler.last
    assert trace is not None and trace.request_id == "req-1"
    assert handler.traces == {trace.root.id: trace}
    assert trace.root.kind == "search" and trace.root.status == "completed"
    assert sorted(node.type for node in trace.children.values()) == ["db", "kb", "web"]
    assert all(node.parent_id == trace.root.id for node in trace.children.values())
    assert trace.result_count == 4 and trace.failed == 1
    assert [e.code for e in trace.errors] == ["INVALID_QUERY"]
    assert trace.duration_ms() is not None and trace.duration_ms() >= 0
    for node in trace.children.values():
        assert trace.duration_ms(node) is not None
    assert progress == ["Searching...", "Found 4 references (some sources failed)"]
    assert trace.progress == progress and trace.done
    assert [r.id for r in trace.results] == ["ref_001", "ref_002", "ref_003", "ref_004"]
    rerank = [node for node in trace.steps.values() if node.input["step"] == "rerank"]
    assert len(rerank) == 1 and rerank[0].status == "completed"
    assert rerank[0].parent_id == trace.root.id and trace.duration_ms(rerank[0]) is not None
    assert trace.nodes[-1] == rerank[0]


def test_each_search_gets_its_own_trace(sources):
    handler = UnifiedSearchCallbackHandler()
    retriever = UnifiedSearchRetriever(searcher=sources.searcher(), types=["kb"])
    retriever.invoke("a", {"callbacks": [handler]})
    tool = KBSearchTool(searcher=sources.searcher())
    tool.invoke({"query": "b"}, {"callbacks": [handler]})
    same_scope = {"callbacks": [handler], "configurable": {"thread_id": "t"}}
    retriever.invoke("c", same_scope)
    retriever.invoke("d", same_scope)
    assert len(handler.traces) == 4
    assert [t.root.input["query"] for t in handler.traces.values()] == ["a", "b", "c", "d"]
    assert [t.request_id for t in handler.traces.values()][2:] == ["t", "t"]


def test_progress_in_the_configured_language(sources):
    progress: list[str] = []
    handler = UnifiedSearchCallbackHandler(on_progress=progress.append)
    searcher = sources.searcher({"options": {"language": "zh"}})
    UnifiedSearchRetriever(searcher=searcher, types=["kb"], k=2).invoke(
        "q", {"callbacks": [handler]}
    )
    assert progress == ["正在搜索...", "找到 2 条参考资料"]
    trace = handler.last
    assert trace is not None and trace.done
    assert [log.message for log in trace.root.logs] == ["开始搜索", "搜索完成"]


def test_a_failing_progress_function_never_breaks_the_search(sources, caplog):
    def broken(text: str) -> None:
        raise RuntimeError("display gone")

    handler = UnifiedSearchCallbackHandler(on_progress=broken)
    retriever = UnifiedSearchRetriever(searcher=sources.searcher(), types=["kb"], k=2)
    assert len(retriever.invoke("q", {"callbacks": [handler]})) == 2
    assert "progress callback" in caplog.text
    assert handler.last is not None and handler.last.result_count == 2


def test_other_custom_events_are_ignored():
    handler = UnifiedSearchCallbackHandler()
    handler.on_custom_event("my_event", {"x": 1}, run_id=uuid.uuid4())
    assert handler.traces == {} and handler.last is None
