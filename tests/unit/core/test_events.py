import logging

import pytest

from unified_search.events import (
    EventBus,
    EventName,
    SearchEvent,
    Trace,
    TraceStatus,
    progress_message,
)
from unified_search.types import SearchType


@pytest.mark.parametrize(
    ("kind", "count", "language", "text"),
    [
        ("searching", 0, "en", "Searching…"),
        ("found", 1, "en", "Found 1 reference"),
        ("found", 3, "en", "Found 3 references"),
        ("partial", 1, "en", "Found 1 reference (some sources failed)"),
        ("failed", 0, "en", "Search failed"),
        ("none", 0, "en", "No references found"),
        ("searching", 0, "zh", "正在搜索…"),
        ("found", 2, "zh", "找到 2 条参考资料"),
        ("partial", 2, "zh", "找到 2 条参考资料（部分来源失败）"),
        ("failed", 0, "zh", "搜索失败"),
        ("none", 0, "zh", "未找到参考资料"),
    ],
)
def test_progress_messages(kind: str, count: int, language: str, text: str) -> None:
    assert progress_message(kind, count, language) == text  # type: ignore[arg-type]


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


async def test_trace_tree_records_each_request() -> None:
    events: list[SearchEvent] = []
    trace = Trace(
        EventBus([events.append]), request_id="r1", language="zh", query="q", types=[SearchType.KB]
    )
    await trace.start()
    ok = trace.add_item(SearchType.KB, {"query": "q"})
    bad = trace.add_item(SearchType.WEB, {"query": "q"})
    await trace.item_started(ok)
    await trace.item_log(ok, "info", "3 collections")
    await trace.item_finished(ok, {"result_count": 2})
    await trace.item_started(bad)
    from unified_search.errors import ErrorInfo

    await trace.item_finished(bad, {"result_count": 0}, ErrorInfo(code="TIMEOUT", message="slow"))
    await trace.finish(2, failed=1, total=2, output={"result_count": 2})
    root, first, second = trace.nodes
    assert root.label == "搜索" and first.label == "知识库搜索"
    assert first.parent_id == root.id and first.status is TraceStatus.COMPLETED
    assert first.logs[0].message == "3 collections"
    assert second.status is TraceStatus.FAILED and second.error is not None
    assert root.status is TraceStatus.COMPLETED and root.ended_at is not None
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
    ]
    assert events[-1].message == "找到 2 条参考资料（部分来源失败）"
    assert all(e.request_id == "r1" for e in events)


async def test_everything_failed_marks_the_search_failed() -> None:
    events: list[SearchEvent] = []
    trace = Trace(EventBus([events.append]), request_id="r")
    await trace.finish(0, failed=2, total=2, output={})
    assert trace.root.status is TraceStatus.FAILED
    assert events[-1].message == "Search failed"
