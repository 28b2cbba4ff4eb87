import asyncio
import logging

import pytest

from unified_search.config import SearchConfig
from unified_search.contract import steps
from unified_search.contract.events import EventBus, EventName, SearchEvent, TraceStatus
from unified_search.contract.handler import SearchContext
from unified_search.contract.steps import StepName
from unified_search.engine.trace import Trace
from unified_search.engine.wording import label, progress_message
from unified_search.errors import ErrorInfo
from unified_search.types import SearchType


@pytest.mark.parametrize(
    ("kind", "count", "language", "text"),
    [
        ("searching", 0, "en", "Searching..."),
        ("found", 1, "en", "Found 1 reference"),
        ("found", 3, "en", "Found 3 references"),
        ("partial", 1, "en", "Found 1 reference (some sources failed)"),
        ("failed", 0, "en", "Search failed"),
        ("none", 0, "en", "No references found"),
        ("searching", 0, "zh", "正在搜索..."),
        ("found", 1, "zh", "找到 1 条参考资料"),
        ("found", 2, "zh", "找到 2 条参考资料"),
        ("partial", 2, "zh", "找到 2 条参考资料（部分来源失败）"),
        ("failed", 0, "zh", "搜索失败"),
        ("none", 0, "zh", "未找到相关资料"),
    ],
)
def test_progress_messages_have_the_design_wording(
    kind: str, count: int, language: str, text: str
) -> None:
    assert progress_message(kind, count, language) == text  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("key", "en", "zh"),
    [
        ("search", "Search", "搜索"),
        ("web", "Web Search", "网页搜索"),
        ("kb", "Knowledge Base Search", "知识库搜索"),
        ("db", "Database Search", "数据库搜索"),
        *[(step.value, None, None) for step in StepName],
    ],
)
def test_every_node_has_a_label_in_both_languages(key: str, en: str | None, zh: str | None) -> None:
    assert label(key, "en") == (en or label(key, "en")) and label(key, "en") != key
    assert label(key, "zh") == (zh or label(key, "zh")) and label(key, "zh") != label(key, "en")


def test_an_unknown_step_is_labelled_by_its_name() -> None:
    assert label("my_custom_step", "zh") == "my_custom_step"


async def test_failing_sink_is_logged_and_others_still_receive(
    caplog: pytest.LogCaptureFixture,
) -> None:
    received: list[SearchEvent] = []

    def broken(event: SearchEvent) -> None:
        raise RuntimeError("observer bug")

    async def collector(event: SearchEvent) -> None:
        received.append(event)

    bus = EventBus([broken, collector])
    with caplog.at_level(logging.ERROR):
        await bus.emit(SearchEvent(name=EventName.SEARCH_START, request_id="r"))
    assert len(received) == 1
    assert "observer bug" in caplog.text


async def test_trace_tree_records_each_request_with_summary_logs() -> None:
    events: list[SearchEvent] = []
    trace = Trace(
        EventBus([events.append]), request_id="r1", language="zh", query="q", types=[SearchType.KB]
    )
    await trace.start()
    ok = trace.add_item(SearchType.KB, {"query": "q"})
    bad = trace.add_item(SearchType.WEB, {"query": "q"})
    await trace.item_started(ok)
    await trace.item_log(ok, "info", "3 collections", {"collections": 3})
    await trace.item_finished(ok, {"result_count": 2, "duration_ms": 5.0})
    await trace.item_started(bad)
    await trace.item_finished(bad, {"result_count": 0}, ErrorInfo(code="TIMEOUT", message="slow"))
    await trace.finish(2, failed=1, total=2, output={"result_count": 2, "duration_ms": 9.0})
    root, first, second = trace.nodes
    assert root.label == "搜索" and first.label == "知识库搜索" and second.label == "网页搜索"
    assert first.parent_id == root.id and first.status is TraceStatus.COMPLETED
    assert [(log.message, log.data) for log in first.logs] == [
        ("3 collections", {"collections": 3}),
        ("知识库搜索完成", {"count": 2, "duration_ms": 5.0}),
    ]
    assert second.status is TraceStatus.FAILED and second.error is not None
    assert second.logs[-1].level == "warn" and second.logs[-1].message == "网页搜索失败"
    assert second.logs[-1].data == {"error": "slow", "code": "TIMEOUT"}
    assert root.status is TraceStatus.COMPLETED and root.ended_at is not None
    assert [(log.message, log.data) for log in root.logs] == [
        ("开始搜索", {"query": "q", "types": ["kb"]}),
        ("搜索完成", {"total": 2, "duration_ms": 9.0}),
    ]
    names = [e.name.value for e in events]
    assert names == [
        "search_start",
        "search_progress",
        "search_item_start",
        "search_item_log",
        "search_item_complete",
        "search_item_start",
        "search_item_failed",
        "search_complete",
        "search_progress",
        "search_progress",
    ]
    progress = [(e.message, e.done) for e in events if e.name is EventName.SEARCH_PROGRESS]
    outcome = "找到 2 条参考资料（部分来源失败）"
    assert progress == [("正在搜索...", False), (outcome, False), (outcome, True)]
    assert all(e.request_id == "r1" and e.search_id == root.id for e in events)


async def test_everything_failed_marks_the_search_failed() -> None:
    events: list[SearchEvent] = []
    trace = Trace(EventBus([events.append]), request_id="r")
    await trace.finish(0, failed=2, total=2, output={})
    assert trace.root.status is TraceStatus.FAILED
    assert trace.root.logs[-1].message == "Search failed" and trace.root.logs[-1].level == "warn"
    assert [(e.message, e.done) for e in events[-2:]] == [
        ("Search failed", False),
        ("Search failed", True),
    ]


async def test_async_steps_are_announced_as_they_start_and_end() -> None:
    events: list[SearchEvent] = []
    trace = Trace(EventBus([events.append]), request_id="r", language="zh")
    item = trace.add_item(SearchType.DB, {"query": "q"})
    async with trace.step(item, StepName.DSL_BUILD, uses="builtin") as step:
        assert [e.name for e in events] == [EventName.SEARCH_STEP_START]
        running = events[0].node
        step.output["plans"] = 1
    assert running is not None and running.status is TraceStatus.RUNNING
    ended = events[-1].node
    assert events[-1].name is EventName.SEARCH_STEP_COMPLETE and ended is not None
    assert ended.id == running.id and ended.kind == "search_step" and ended.parent_id == item
    assert ended.label == "生成查询 DSL" and ended.type is SearchType.DB
    assert ended.input == {"step": "dsl_build", "uses": "builtin"}
    assert ended.output["plans"] == 1 and ended.output["duration_ms"] >= 0
    assert ended.started_at is not None and ended.ended_at is not None
    assert trace.nodes[-1] == ended


class StepClock:
    """The steps' clock (``perf_counter``), moved by the test."""

    def __init__(self) -> None:
        self.now = 100.0

    def perf_counter(self) -> float:
        return self.now


async def test_steps_timed_in_worker_threads_are_announced_before_the_next_event(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    clock = StepClock()
    monkeypatch.setattr(steps, "time", clock)
    events: list[SearchEvent] = []
    trace = Trace(EventBus([events.append]), request_id="r")
    item = trace.add_item(SearchType.KB, {"query": "q"})
    await trace.item_started(item)

    def blocking() -> None:
        with trace.step(item, StepName.EMBEDDING, model="m"):
            clock.now += 0.025  # the embedding takes 25 ms
        with trace.step(item, StepName.VECTOR_SEARCH, collection="docs"):
            pass

    await asyncio.to_thread(blocking)
    await trace.item_finished(item, {"result_count": 0})
    names = [e.name.value for e in events]
    assert names == [
        "search_item_start",
        "search_step_start",
        "search_step_complete",
        "search_step_start",
        "search_step_complete",
        "search_item_complete",
    ]
    embedding = events[2].node
    assert embedding is not None and embedding.output["duration_ms"] == pytest.approx(25)
    assert events[1].node is not None and events[1].node.id == embedding.id
    assert [n.label for n in trace.nodes if n.kind == "search_step"] == [
        "Embedding",
        "Vector Search",
    ]


@pytest.mark.parametrize("use_async", [True, False])
async def test_a_failing_step_is_recorded_and_the_error_goes_on(use_async: bool) -> None:
    events: list[SearchEvent] = []
    trace = Trace(EventBus([events.append]), request_id="r")
    item = trace.add_item(SearchType.DB, {"query": "q"})
    with pytest.raises(RuntimeError, match="database went away"):
        if use_async:
            async with trace.step(item, StepName.DB_QUERY, model="orders"):
                raise RuntimeError("database went away")
        else:
            with trace.step(item, StepName.DB_QUERY, model="orders"):
                raise RuntimeError("database went away")
    await trace.item_finished(item, {"result_count": 0})
    step = next(n for n in trace.nodes if n.kind == "search_step")
    assert step.status is TraceStatus.FAILED and step.error is not None
    assert "database went away" in step.error.message
    assert EventName.SEARCH_STEP_FAILED in [e.name for e in events]


async def test_nothing_is_announced_to_nobody_but_the_trace_keeps_its_steps() -> None:
    trace = Trace(EventBus(), request_id="r")
    item = trace.add_item(SearchType.KB, {"query": "q"})
    with trace.step(item, StepName.EMBEDDING):
        pass
    async with trace.step(item, StepName.LEXICAL_SEARCH):
        pass
    await trace.item_finished(item, {"result_count": 0})
    assert [n.input["step"] for n in trace.nodes if n.kind == "search_step"] == [
        "embedding",
        "lexical_search",
    ]
    assert not trace._pending


async def test_outside_a_search_a_step_only_times() -> None:
    step = SearchContext(config=SearchConfig(), request_id="r").step
    async with step(StepName.RERANK) as timed:
        pass
    assert timed.duration_ms is not None and timed.owner is None
