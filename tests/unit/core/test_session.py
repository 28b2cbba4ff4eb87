"""The search policy: scopes, run identifiers, options, failure policy, tools and limits."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest
from pydantic import ValidationError
from sqlalchemy import create_engine

from unified_search.contract.handler import SearchContext
from unified_search.engine.searcher import Searcher
from unified_search.errors import ErrorCode, SearchError
from unified_search.policy.session import RunIds, SearchOptions, SearchSession, checked
from unified_search.policy.tools import TOOLS, ToolLimits, tool_specs
from unified_search.records.store import SearchStore
from unified_search.types import ResultItem, SearchRequest, SearchResult, SearchType


@dataclass
class Source:
    """Answers with one item per word of the query; ``fail`` in the query raises."""

    kind: SearchType
    calls: list[SearchRequest] = field(default_factory=list)

    async def asearch(self, request: SearchRequest, ctx: SearchContext) -> SearchResult:
        self.calls.append(request)
        if "fail" in request.query:
            raise SearchError(ErrorCode.RATE_LIMITED, "slow down", provider=self.kind.value)
        items = [
            ResultItem(
                type=self.kind,
                title=w,
                content=w,
                document_id=w,
                record_id=w,
                url=f"https://x.org/{w}",
            )
            for w in request.query.split()
        ]
        return SearchResult(type=self.kind, query=request.query, items=items)

    async def aretrieve(self, url: str, ctx: SearchContext) -> ResultItem:
        return ResultItem(type="web", url=url, title="page", content=f"text of {url}")


def engine(store: SearchStore | None = None) -> Searcher:
    handlers = {kind: Source(kind) for kind in SearchType}
    return Searcher(handlers=handlers, store=store)


def ids(response) -> list[str]:
    return [item.citation_id for item in response.items]


# -- run identifiers ----------------------------------------------------------------------


def test_run_ids_pick_the_first_given_and_ignore_other_keys():
    assert RunIds.from_values({"thread_id": 7, "checkpoint_ns": "", "x": object()}).scope == "7"
    both = RunIds.from_values({"request_id": "r", "thread_id": "t", "chat_id": "c"})
    assert both.scope == "r"
    assert RunIds.from_values({"chat_id": "c", "request_id": ""}).scope == "c"
    assert RunIds.from_values(None).scope is None


@pytest.mark.parametrize("value", ["x" * 256, "a\nb", "a\x00b", "\u200bzero-width"])
@pytest.mark.parametrize("name", ["request_id", "thread_id", "chat_id"])
def test_bad_run_ids_are_validation_errors_naming_the_field(name, value):
    with pytest.raises(ValidationError, match=name):
        RunIds.from_values({name: value})


# -- options --------------------------------------------------------------------------------


def test_options_validate_and_merge_per_call_values():
    options = SearchOptions(types=["kb"], k=3, request_fields={"threshold": 0.4})
    assert options.merged({"k": 5}).k == 5 and options.k == 3
    with pytest.raises(TypeError, match=r"\['top_k'\]"):
        options.merged({"top_k": 1})
    with pytest.raises(ValidationError, match="request_fields"):
        SearchOptions(request_fields={"query": "x"})
    with pytest.raises(ValidationError, match="threshold"):
        SearchOptions(request_fields={"threshold": 3})


def test_without_types_every_configured_source_is_searched():
    requests = SearchOptions().build("q", [SearchType.KB, SearchType.DB])
    assert [r.type for r in requests] == ["kb", "db"]
    assert all(r.source == "user" for r in requests)


@pytest.mark.parametrize(
    ("options", "searched"),
    [
        (SearchOptions(collections=["help"]), ["kb"]),
        (SearchOptions(models=["products"]), ["db"]),
        (SearchOptions(collections=["help"], models=["products"]), ["kb", "db"]),
        (SearchOptions(collections=["help"], types=["db"]), ["db"]),
    ],
)
async def test_without_types_the_sources_the_options_name_are_searched(options, searched):
    """The CLI's --collection searches the knowledge base; so do ``collections`` here."""
    response = await SearchSession(engine()).asearch("q", options)
    assert [request.type.value for request in response.requests] == searched


# -- scopes ---------------------------------------------------------------------------------


async def test_a_search_without_a_chat_is_stored_under_its_scope(tmp_path: Path):
    """Whoever searched can find its record by chat, whatever the call gave."""
    with SearchStore(f"sqlite:///{tmp_path / 'records.sqlite3'}") as store:
        shared, own = SearchSession(engine(store)), SearchSession(engine(store), shared_scope=False)
        answers = [
            await shared.asearch("a", SearchOptions(types=["kb"])),
            await own.asearch("b", SearchOptions(types=["kb"])),
            await own.asearch("c", SearchOptions(types=["kb"]), run=RunIds(request_id="r9")),
            await own.asearch("d", SearchOptions(types=["kb"]), run=RunIds(thread_id="t9")),
        ]
        assert [a.chat_id for a in answers] == [shared.scope, answers[1].request_id, "r9", "t9"]
        for answer in answers:
            [record] = store.find_searches(chat_id=answer.chat_id)
            assert record.request_id == answer.request_id


async def test_a_session_is_one_scope_and_run_ids_choose_another():
    session = SearchSession(engine())
    options = SearchOptions(types=["kb"])
    first = await session.asearch("a b", options)
    second = await session.asearch("c", options)
    assert ids(first) + ids(second) == ["ref_001", "ref_002", "ref_003"]
    assert first.request_id == second.request_id == session.scope
    other = await session.asearch("c", options, run=RunIds(thread_id="t1"))
    assert ids(other) == ["ref_001"] and other.request_id == "t1"


async def test_without_a_shared_scope_each_call_is_its_own():
    session = SearchSession(engine(), shared_scope=False)
    options = SearchOptions(types=["kb"])
    first = await session.asearch("a", options)
    second = await session.asearch("b", options)
    assert ids(first) == ids(second) == ["ref_001"] and first.request_id != second.request_id


# -- failure policy -------------------------------------------------------------------------


async def test_total_failure_raises_the_first_error():
    session = SearchSession(engine())
    with pytest.raises(SearchError, match="RATE_LIMITED") as caught:
        await session.asearch("fail", SearchOptions(types=["web", "kb"]))
    assert caught.value.retryable
    assert (await session.asearch("ok", SearchOptions(types=["kb"]))).status == "ok"


async def test_partial_failure_is_returned_and_strict_raises_it():
    searcher = engine()
    searcher.register("web", _Failing())
    session = SearchSession(searcher)
    partial = await session.asearch("tea", SearchOptions(types=["web", "kb"]))
    assert partial.status == "partial" and ids(partial) == ["ref_001"]
    assert [e.code for e in partial.errors] == ["NO_API_KEY"]
    with pytest.raises(SearchError, match="NO_API_KEY"):
        await session.asearch("tea", SearchOptions(types=["web", "kb"], strict=True))
    assert checked(partial) is partial


class _Failing:
    async def asearch(self, request: SearchRequest, ctx: SearchContext) -> SearchResult:
        raise SearchError(ErrorCode.NO_API_KEY, "set TAVILY_API_KEY", provider="tavily")


# -- tools and limits -----------------------------------------------------------------------


async def test_tools_of_a_session_share_its_scope_retrieve_included():
    session = SearchSession(engine())
    web = await session.acall_tool("web_search", {"query": "a b", "max_results": 2})
    page = await session.acall_tool("retrieve_url", {"url": "https://x.org/page"})
    kb = await session.acall_tool("kb_search", {"query": "c"})
    db = await session.acall_tool("db_search", {"query": "d"})
    shown = [r.id for a in (web, page, kb, db) for r in a.response.references]
    assert shown == ["ref_001", "ref_002", "ref_003", "ref_004", "ref_005"]
    assert '<ref id="ref_003"' in page.text and str(page) == page.text


async def test_bad_tool_arguments_and_unknown_tools_are_coded_errors():
    session = SearchSession(engine())
    with pytest.raises(SearchError, match="max_results") as caught:
        await session.acall_tool("web_search", {"query": "x", "max_results": 99})
    assert caught.value.code is ErrorCode.INVALID_QUERY
    with pytest.raises(SearchError, match="unknown tool 'shell'") as caught:
        await session.acall_tool("shell", {})
    assert caught.value.code is ErrorCode.UNSUPPORTED


async def test_limits_narrow_every_request_and_refuse_widening():
    searcher = engine()
    session = SearchSession(searcher)
    limits = ToolLimits(
        max_results=2,
        include_domains=["python.org"],
        exclude_domains=["spam.python.org"],
        time_range="month",
        collections=["docs"],
        models=["orders"],
    )
    await session.acall_tool(
        "web_search", {"query": "a b c", "max_results": 10, "time_range": "year"}, limits=limits
    )
    web = searcher.handler(SearchType.WEB).calls[-1]
    assert (web.limit, web.sites, web.exclude_sites, web.time_range) == (
        2,
        ["python.org"],
        ["spam.python.org"],
        "month",
    )
    await session.acall_tool(
        "web_search",
        {"query": "a", "time_range": "day", "include_domains": ["docs.python.org"]},
        limits=limits,
    )
    web = searcher.handler(SearchType.WEB).calls[-1]
    assert (web.sites, web.time_range) == (["docs.python.org"], "day")
    refused = [
        (
            "web_search",
            {"query": "a", "include_domains": ["evil.com"]},
            "domain 'evil.com' is not allowed",
        ),
        ("kb_search", {"query": "a", "collections": ["hr"]}, "collection 'hr' is not allowed"),
        ("db_search", {"query": "a", "models": ["users"]}, "table 'users' is not allowed"),
        ("retrieve_url", {"url": "https://evil.com/x"}, "outside the allowed domains"),
        ("retrieve_url", {"url": "https://spam.python.org/x"}, "excluded domain"),
    ]
    for name, args, message in refused:
        with pytest.raises(SearchError, match=message):
            await session.acall_tool(name, args, limits=limits)
    await session.acall_tool("kb_search", {"query": "a"}, limits=limits)
    assert searcher.handler(SearchType.KB).calls[-1].collections == ["docs"]


def test_limits_choose_the_tools_offered():
    assert [s.name for s in tool_specs(ToolLimits(types=["kb", "db"]))] == [
        "kb_search",
        "db_search",
    ]
    assert [s.name for s in tool_specs()] == list(TOOLS)


# -- persisted numbering --------------------------------------------------------------------


async def test_a_fresh_scope_needs_no_store_round_trip_before_answering(tmp_path: Path):
    store = SearchStore(f"sqlite:///{tmp_path / 's.sqlite3'}")
    calls: list[str] = []
    original = store.aallocate_citations

    async def counting(*args, **kwargs):
        calls.append("allocate")
        return await original(*args, **kwargs)

    store.aallocate_citations = counting  # type: ignore[method-assign]
    searcher = engine(store)
    first = await searcher.asearch({"query": "a b", "type": "kb"})
    assert calls == [] and ids(first) == ["ref_001", "ref_002"]
    again = await searcher.asearch({"query": "b c", "type": "kb"}, request_id=first.request_id)
    assert calls == ["allocate"] and ids(again) == ["ref_002", "ref_003"]
    restarted = engine(SearchStore(store.url))
    later = await restarted.asearch({"query": "d a", "type": "kb"}, request_id=first.request_id)
    assert ids(later) == ["ref_004", "ref_001"]
    assert restarted.store.get_reference(first.request_id, 4).title == "d"
    await searcher.aclose()
    await restarted.aclose()


async def test_a_store_that_goes_down_never_blocks_the_search(tmp_path: Path):
    store = SearchStore(f"sqlite:///{tmp_path / 's.sqlite3'}")
    searcher = engine(store)
    first = await searcher.asearch({"query": "a b", "type": "kb"}, request_id="chat-1")
    assert first.trace[0].output["citations_persisted"] is True
    good = store.engine
    store.engine = create_engine(f"sqlite:///{tmp_path / 'missing' / 'gone.sqlite3'}")
    down = await searcher.asearch({"query": "b c", "type": "kb"}, request_id="chat-1")
    assert ids(down) == ["ref_002", "ref_003"]  # in memory, above what this process saw
    root = down.trace[0]
    assert root.output["citations_persisted"] is False
    assert any("citation IDs were not persisted" in log.message for log in root.logs)
    assert down.status == "partial" and down.errors == []
    assert {w.provider for w in down.warnings} == {"store"}
    store.engine = good
    # The record written while the store was down is retried once it is back.
    assert [r.id for r in store.get_references("chat-1")] == ["ref_001", "ref_002", "ref_003"]
    back = await searcher.asearch({"query": "e", "type": "kb"}, request_id="chat-1")
    assert ids(back) == ["ref_004"]  # never an index handed out while the store was down
    await searcher.aclose()
