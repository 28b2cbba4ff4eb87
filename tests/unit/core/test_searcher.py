import asyncio
import logging
from collections.abc import Sequence
from typing import Any

import pytest
from pydantic import ValidationError

from unified_search.contract.events import SearchEvent, TraceStatus
from unified_search.contract.handler import SearchContext
from unified_search.engine.searcher import Searcher
from unified_search.errors import ErrorCode, SearchError
from unified_search.policy.deep import adeep_search
from unified_search.rerank import registry
from unified_search.types import ResultItem, SearchRequest, SearchResult, SearchType


class FakeHandler:
    """Answers after ``delay`` seconds (never when ``None``) with ``count`` items, or fails with ``error``.

    ``cancelled`` tells whether a search was cancelled while it waited.
    """

    def __init__(
        self,
        delay: float | None = 0.0,
        count: int = 2,
        error: Exception | None = None,
        prefix: str = "",
    ) -> None:
        self.delay, self.count, self.error, self.prefix = delay, count, error, prefix
        self.seen: list[tuple[SearchRequest, SearchContext]] = []
        self.closed = False
        self.cancelled = False

    async def asearch(self, request: SearchRequest, ctx: SearchContext) -> SearchResult:
        self.seen.append((request, ctx))
        await ctx.log("info", f"searching {request.query}")
        try:
            if self.delay is None:
                await asyncio.Event().wait()
            await asyncio.sleep(self.delay or 0.0)
        except asyncio.CancelledError:
            self.cancelled = True
            raise
        if self.error is not None:
            raise self.error
        items = [
            ResultItem(
                type=request.type,
                title=f"{self.prefix}{request.type.value} {i}",
                content=f"content {i}",
                document_id=f"{self.prefix}{i}",
                record_id=f"{self.prefix}{i}",
                url=f"https://example.com/{self.prefix}{i}",
                score=1.0 - i / 10,
            )
            for i in range(self.count)
        ]
        return SearchResult(type=request.type, query=request.query, items=items)

    async def aclose(self) -> None:
        self.closed = True


def _searcher(**handlers: FakeHandler) -> Searcher:
    return Searcher(handlers=handlers)


async def test_all_merges_weighs_and_cites() -> None:
    searcher = _searcher(web=FakeHandler(0.01), kb=FakeHandler(0.02), db=FakeHandler(0.0))
    response = await searcher.aall(
        [
            {"query": "q", "type": "web", "source": "auto"},
            {"query": "q", "type": "kb", "source": "hook"},
            {"query": "q", "type": "db"},
        ]
    )
    assert response.status == "ok"
    assert [r.type for r in response.results if r] == [SearchType.WEB, SearchType.KB, SearchType.DB]
    # score x weight: db 1.0, 0.9 (user); kb 0.8, 0.72 (hook); web 0.6, 0.54 (auto)
    assert [i.type.value for i in response.items] == ["db", "db", "kb", "kb", "web", "web"]
    assert [i.citation_id for i in response.items] == [f"ref_{n:03d}" for n in range(1, 7)]
    assert [r.id for r in response.references] == [i.citation_id for i in response.items]
    assert response.items[0].metadata["rerank_score"] == pytest.approx(1.0)
    assert "<references>" in response.context.xml and response.context.prompt


async def test_one_failing_source_never_blocks_the_others() -> None:
    boom = SearchError(ErrorCode.RATE_LIMITED, "slow down", provider="p")
    searcher = _searcher(
        web=FakeHandler(error=boom), kb=FakeHandler(), db=FakeHandler(error=RuntimeError("db down"))
    )
    response = await searcher.aall([{"query": "q", "type": t} for t in ("web", "kb", "db")])
    web, kb, db = response.results
    assert web is not None and web.error is not None and web.error.code is ErrorCode.RATE_LIMITED
    assert db is not None and db.error is not None and db.error.code is ErrorCode.UNKNOWN
    assert "db down" in db.error.message
    assert kb is not None and kb.ok and len(response.items) == 2
    assert response.status == "partial"
    assert [e.code for e in response.errors] == [ErrorCode.RATE_LIMITED, ErrorCode.UNKNOWN]


async def test_every_source_failing_is_reported_not_raised() -> None:
    searcher = _searcher(kb=FakeHandler(error=RuntimeError("x")))
    response = await searcher.asearch({"query": "q", "type": "kb"})
    assert response.status == "failed" and response.items == []
    assert response.trace[0].status is TraceStatus.FAILED


async def test_timeout_becomes_the_request_error() -> None:
    hung = FakeHandler(None)
    searcher = Searcher({"options": {"timeout": 0.5}}, handlers={"kb": hung, "db": FakeHandler()})
    response = await searcher.aall([{"query": "q", "type": "kb"}, {"query": "q", "type": "db"}])
    kb, db = response.results
    assert kb is not None and kb.error is not None and kb.error.code is ErrorCode.TIMEOUT
    assert hung.cancelled
    assert db is not None and db.ok


async def test_race_returns_first_and_cancels_the_rest(hang_guard: Any) -> None:
    slow = FakeHandler(None)
    searcher = _searcher(kb=slow, db=FakeHandler(0.0))
    response = await hang_guard(
        searcher.arace([{"query": "q", "type": "kb"}, {"query": "q", "type": "db"}]), "race()"
    )
    assert response.results[0] is None and response.results[1] is not None
    items = [n.status for n in response.trace if n.kind == "search_item"]
    assert items == [TraceStatus.CANCELLED, TraceStatus.COMPLETED]
    assert slow.cancelled


async def test_any_waits_for_a_result_with_items(hang_guard: Any) -> None:
    hung = FakeHandler(None)
    searcher = _searcher(kb=FakeHandler(0.0, count=0), db=FakeHandler(0.02), web=hung)
    response = await hang_guard(
        searcher.aany([{"query": "q", "type": t} for t in ("kb", "db", "web")]), "any()"
    )
    kb, db, web = response.results
    assert kb is not None and kb.items == []
    assert db is not None and len(db.items) == 2
    assert web is None and hung.cancelled


async def test_citation_ids_continue_within_a_request_context() -> None:
    searcher = _searcher(kb=FakeHandler(prefix="a"), db=FakeHandler(prefix="b"))
    first = await searcher.asearch({"query": "q", "type": "kb"}, request_id="req-1")
    second = await searcher.asearch({"query": "q", "type": "db"}, request_id="req-1")
    again = await searcher.asearch({"query": "q", "type": "kb"}, request_id="req-1")
    other = await searcher.asearch({"query": "q", "type": "db"}, request_id="req-2")
    assert [i.citation_id for i in first.items] == ["ref_001", "ref_002"]
    assert [i.citation_id for i in second.items] == ["ref_003", "ref_004"]
    assert [i.citation_id for i in again.items] == ["ref_001", "ref_002"]
    assert [i.citation_id for i in other.items] == ["ref_001", "ref_002"]


async def test_concurrent_searches_in_one_context_get_unique_ids() -> None:
    searcher = Searcher(handlers={"kb": FakeHandler(0.001, count=3)})
    responses = await asyncio.gather(
        *(
            searcher.asearch({"query": f"q{i}", "type": "kb"}, request_id="shared")
            for i in range(10)
        )
    )
    # the same three chunks each time: they keep the same three IDs
    assert {i.citation_id for r in responses for i in r.items} == {"ref_001", "ref_002", "ref_003"}


async def test_duplicates_across_sources_keep_the_most_trusted() -> None:
    searcher = _searcher(web=FakeHandler())
    response = await searcher.aall(
        [
            {"query": "q", "type": "web", "source": "auto"},
            {"query": "q", "type": "web", "source": "user"},
        ]
    )
    assert len(response.items) == 2
    assert all(i.weight == 1.0 for i in response.items)


async def test_top_n_from_call_request_and_config() -> None:
    searcher = Searcher({"rerank": {"top_n": 3}}, handlers={"kb": FakeHandler(count=8)})
    assert len((await searcher.asearch({"query": "q", "type": "kb"})).items) == 3
    assert (
        len((await searcher.asearch({"query": "q", "type": "kb", "rerank": {"top_n": 5}})).items)
        == 5
    )
    assert len((await searcher.asearch({"query": "q", "type": "kb"}, top_n=1)).items) == 1
    with pytest.raises(ValueError):
        await searcher.asearch({"query": "q", "type": "kb"}, top_n=0)


async def test_auto_search_skipped_once_user_references_suffice() -> None:
    kb = FakeHandler(count=3)
    searcher = Searcher(
        {"options": {"skip_threshold": 3}}, handlers={"kb": kb, "db": FakeHandler(prefix="d")}
    )
    await searcher.asearch({"query": "q", "type": "kb"}, request_id="r")
    response = await searcher.asearch(
        {"query": "q", "type": "db", "source": "auto"}, request_id="r"
    )
    result = response.results[0]
    assert result is not None and "skip_threshold=3" in result.metadata["skipped"]
    assert response.items == [] and response.trace[1].status is TraceStatus.SKIPPED
    attached = await searcher.asearch(
        {"query": "q", "type": "db", "source": "auto"}, provided_references=3
    )
    assert attached.items == []
    fresh = await searcher.asearch({"query": "q", "type": "db", "source": "auto"})
    assert len(fresh.items) == 2


async def test_disabled_search_skips_auto_requests_only() -> None:
    searcher = Searcher({"uses": {"search": "disabled"}}, handlers={"kb": FakeHandler()})
    auto = await searcher.asearch({"query": "q", "type": "kb", "source": "auto"})
    user = await searcher.asearch({"query": "q", "type": "kb"})
    assert auto.items == [] and len(user.items) == 2


async def test_events_and_failing_sinks(caplog: pytest.LogCaptureFixture) -> None:
    events: list[SearchEvent] = []

    def broken(event: SearchEvent) -> None:
        raise RuntimeError("ui crashed")

    searcher = Searcher(
        handlers={"kb": FakeHandler(), "db": FakeHandler(error=RuntimeError("x"))}, sinks=[broken]
    )
    with caplog.at_level(logging.ERROR):
        response = await searcher.aall(
            [{"query": "q", "type": "kb"}, {"query": "q", "type": "db"}],
            sinks=[events.append],
            chat_id="c1",
        )
    assert len(response.items) == 2
    assert "ui crashed" in caplog.text
    names = [e.name.value for e in events]
    assert names[0] == "search_start"
    assert names[-3:] == ["search_complete", "search_progress", "search_progress"]
    assert {"search_item_complete", "search_item_failed", "search_item_log"} <= set(names)
    assert events[-1].message == "Found 2 references (some sources failed)"
    assert all(e.chat_id == "c1" for e in events)


async def test_handler_receives_context() -> None:
    kb = FakeHandler()
    searcher = Searcher({"kb": {"threshold": 0.3}}, handlers={"kb": kb})
    await searcher.asearch(
        {"query": "q", "type": "kb"},
        user={"tenant_id": 7},
        overrides={"kb": {"threshold": 0.9}},
        request_id="r9",
    )
    _, ctx = kb.seen[0]
    assert ctx.config.kb.threshold == 0.9 and searcher.config.kb.threshold == 0.3
    assert ctx.user == {"tenant_id": 7} and ctx.request_id == "r9"


async def test_bad_input_is_rejected_before_searching() -> None:
    kb = FakeHandler()
    searcher = _searcher(kb=kb)
    with pytest.raises(ValueError, match="must not be empty"):
        await searcher.aall([])
    with pytest.raises(ValidationError):
        await searcher.asearch({"query": " ", "type": "kb"})
    with pytest.raises(TypeError):
        await searcher.aall({"query": "q"})  # type: ignore[arg-type]
    with pytest.raises(SearchError) as info:
        await searcher.asearch({"query": "q", "type": "kb", "rerank": {"uses": "nonexistent"}})
    assert "weighted" in info.value.message
    with pytest.raises(ValueError, match="valid modes"):
        await searcher.arun([{"query": "q", "type": "kb"}], mode="fastest")
    assert kb.seen == []


async def test_failing_reranker_falls_back_to_weighted(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    class Broken:
        name = "broken"

        async def arerank(
            self, query: str, items: Sequence[ResultItem], **kwargs: object
        ) -> list[ResultItem]:
            raise RuntimeError("model missing")

    monkeypatch.setitem(registry.RERANKERS, "broken", lambda config, delegates, http: Broken())
    searcher = Searcher({"uses": {"rerank": "broken"}}, handlers={"kb": FakeHandler(count=3)})
    with caplog.at_level(logging.WARNING):
        response = await searcher.asearch({"query": "q", "type": "kb"})
    assert [i.title for i in response.items] == ["kb 0", "kb 1", "kb 2"]
    assert "using the weighted order" in caplog.text


async def test_missing_builtin_handler_is_a_result_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from unified_search.engine import searcher as engine

    monkeypatch.setitem(
        engine.DEFAULT_HANDLERS,
        SearchType.KB,
        ("unified_search.no_such_module", "X", "unified-search[kb]"),
    )
    response = await Searcher().asearch({"query": "q", "type": "kb"})
    result = response.results[0]
    assert result is not None and result.error is not None
    assert (
        result.error.code is ErrorCode.UNSUPPORTED and "unified-search[kb]" in result.error.message
    )


def test_register_rejects_non_handlers() -> None:
    with pytest.raises(TypeError):
        Searcher().register("kb", object())  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        Searcher().register("images", FakeHandler())


def test_sync_twins_outside_any_loop() -> None:
    kb = FakeHandler()
    with Searcher(handlers={"kb": kb}) as searcher:
        response = searcher.search({"query": "q", "type": "kb"})
        assert len(response.items) == 2
        assert len(searcher.all([{"query": "q", "type": "kb"}]).items) == 2
        assert searcher.race([{"query": "q", "type": "kb"}]).results[0] is not None
        assert searcher.any([{"query": "q", "type": "kb"}]).results[0] is not None
        assert searcher.run([{"query": "q", "type": "kb"}], mode="all").status == "ok"
    assert kb.closed


async def test_sync_twin_works_inside_a_running_loop() -> None:
    """Like a Jupyter cell: a sync call while an event loop is running in this thread."""
    searcher = _searcher(kb=FakeHandler())
    response = searcher.search({"query": "q", "type": "kb"})
    assert len(response.items) == 2


async def test_async_context_manager_closes_handlers() -> None:
    kb = FakeHandler()
    async with Searcher(handlers={"kb": kb}) as searcher:
        await searcher.asearch({"query": "q", "type": "kb"})
    assert kb.closed


def test_config_from_dict_and_file(tmp_path) -> None:
    file = tmp_path / "search.yml"
    file.write_text("rerank:\n  top_n: 4\n", encoding="utf-8")
    assert Searcher(str(file)).config.rerank.top_n == 4
    assert Searcher({"rerank": {"top_n": 2}}).config.rerank.top_n == 2


@pytest.mark.parametrize(
    "call",
    [
        lambda s: s.asearch({"query": "q", "type": "kb"}, top_m=1),
        lambda s: s.aall([{"query": "q", "type": "kb"}], requst_id="r"),
        lambda s: adeep_search(s, "q", types=["kb"], limt=1),
    ],
)
async def test_a_misspelled_option_is_refused_not_ignored(call) -> None:
    searcher = _searcher(kb=FakeHandler())
    with pytest.raises(TypeError, match=r"unexpected option\(s\) \['(top_m|requst_id|limt)'\]"):
        await call(searcher)
