"""The search tools: cited content, artifacts, errors for the model, shared citations."""

from __future__ import annotations

import inspect
from typing import Any

import pytest
from langchain_core.messages import ToolMessage
from langchain_core.tools import ToolException

from langchain_unified_search import (
    DBSearchTool,
    KBSearchTool,
    RetrieveURLTool,
    SearchToolException,
    WebSearchTool,
    search_mode,
    search_tools,
)
from langchain_unified_search.tool_base import SearchTool
from unified_search.types import Reference


def call(tool: SearchTool, args: dict[str, Any], **config: Any) -> ToolMessage:
    message = tool.invoke(
        {"name": tool.name, "args": args, "id": "call-1", "type": "tool_call"},
        config={"configurable": config} if config else None,
    )
    assert isinstance(message, ToolMessage)
    return message


async def acall(tool: SearchTool, args: dict[str, Any]) -> ToolMessage:
    message = await tool.ainvoke(
        {"name": tool.name, "args": args, "id": "call-1", "type": "tool_call"}
    )
    assert isinstance(message, ToolMessage)
    return message


def test_web_search_maps_every_argument(sources):
    tool = WebSearchTool(searcher=sources.searcher())
    args = {
        "query": "  rust async  ",
        "max_results": 3,
        "search_depth": "advanced",
        "include_domains": ["rust-lang.org"],
        "exclude_domains": ["spam.example"],
        "time_range": "month",
    }
    message = call(tool, args)
    request = sources.web.calls[0]
    assert request.query == "rust async" and request.limit == 3
    assert request.search_depth == "advanced" and request.time_range == "month"
    assert request.sites == ["rust-lang.org"] and request.exclude_sites == ["spam.example"]
    assert request.source == "user"
    assert len(message.artifact) == 3


def test_content_is_cited_references_and_the_artifact_holds_them(sources):
    tool = WebSearchTool(searcher=sources.searcher())
    message = call(tool, {"query": "tea", "max_results": 2})
    assert message.status == "success"
    assert message.content.splitlines()[0].startswith("Found 2 result(s) for 'tea'.")
    assert '<ref id="ref_001" type="web"' in message.content
    assert 'url="https://example.com/web-0">web-0: text about tea</ref>' in message.content
    assert '<ref id="ref_002"' in message.content
    assert all(isinstance(ref, Reference) for ref in message.artifact)
    assert [ref.id for ref in message.artifact] == ["ref_001", "ref_002"]


def test_citation_format_follows_the_configuration(sources):
    tool = WebSearchTool(searcher=sources.searcher({"citation": {"format": "[{id}]"}}))
    message = call(tool, {"query": "tea", "max_results": 1})
    assert "as [ref_001];" in message.content


def test_kb_and_db_tools_forward_names_and_limits(sources):
    kb, db = KBSearchTool(searcher=sources.searcher()), DBSearchTool(searcher=sources.searcher())
    kb_message = call(kb, {"query": "leave", "collections": ["faq"], "max_results": 2})
    db_message = call(db, {"query": "big orders", "models": ["orders"], "max_results": 3})
    assert sources.kb.calls[0].collections == ["faq"] and sources.kb.calls[0].type == "kb"
    assert sources.db.calls[0].models == ["orders"] and sources.db.calls[0].query == "big orders"
    assert len(kb_message.artifact) == 2 and len(db_message.artifact) == 3
    assert db_message.artifact[0].record_id == "0"


@pytest.mark.parametrize(
    ("tool_class", "args", "expected"),
    [
        (
            KBSearchTool,
            {"query": "x", "collections": ["secret"]},
            "unknown collection 'secret'; valid: handbook, faq",
        ),
        (
            DBSearchTool,
            {"query": "x", "models": ["users"]},
            "unknown model 'users'; valid: orders, customers",
        ),
    ],
)
def test_unknown_names_become_tool_errors_listing_valid_ones(sources, tool_class, args, expected):
    message = call(tool_class(searcher=sources.searcher()), args)
    assert message.status == "error"
    assert message.content == f"Search failed (INVALID_QUERY): {expected}"
    assert message.artifact is None


def test_failure_raises_tool_exception_with_the_code(sources):
    """Without a tool call the exception carries the core error code."""
    tool = WebSearchTool(searcher=sources.searcher(), handle_tool_error=False)
    with pytest.raises(SearchToolException) as info:
        tool.invoke({"query": "make it fail"})
    assert isinstance(info.value, ToolException)
    assert info.value.code == "RATE_LIMITED" and info.value.provider == "fake"
    assert str(info.value) == "Search failed (RATE_LIMITED [fake]): too many requests"


async def test_async_failure_is_a_tool_error_message(sources):
    message = await acall(WebSearchTool(searcher=sources.searcher()), {"query": "fail please"})
    assert message.status == "error" and "RATE_LIMITED" in message.content


@pytest.mark.parametrize(
    ("args", "fields"),
    [
        ({"query": "x", "max_results": 0}, ["max_results"]),
        ({"query": "x", "max_results": 21}, ["max_results"]),
        ({"query": "x", "search_depth": "deep"}, ["search_depth"]),
        ({"query": "x", "time_range": "decade"}, ["time_range"]),
        ({"max_results": 3}, ["query"]),
        ({"query": "x", "sites": ["a.com"]}, ["sites"]),
    ],
)
def test_invalid_arguments_name_the_field(sources, args, fields):
    message = call(WebSearchTool(searcher=sources.searcher()), args)
    assert message.status == "error"
    assert message.content.startswith("Invalid tool arguments. ")
    for field in fields:
        assert f"{field}: " in message.content
    assert sources.web.calls == []


@pytest.mark.parametrize("tool_class", [WebSearchTool, KBSearchTool])
async def test_empty_query_is_an_argument_error(sources, tool_class):
    message = await acall(tool_class(searcher=sources.searcher()), {"query": "   "})
    assert message.status == "error"
    assert (
        message.content == "Invalid tool arguments. query: String should have at least 1 character"
    )


def test_empty_db_question_is_an_argument_error(sources):
    message = call(DBSearchTool(searcher=sources.searcher()), {"query": ""})
    assert "query: String should have at least 1 character" in message.content


def test_no_results_is_said_plainly(sources):
    sources.kb.size = 0
    message = call(KBSearchTool(searcher=sources.searcher()), {"query": "nothing"})
    assert message.status == "success"
    assert message.content == "No results found for 'nothing'."
    assert message.artifact == []


def test_retrieve_url_reads_the_page_through_the_web_handler(sources):
    tool = RetrieveURLTool(searcher=sources.searcher())
    message = call(tool, {"url": "https://example.com/post"})
    assert sources.web.retrieved == ["https://example.com/post"]
    assert message.artifact[0].content == "full text of https://example.com/post"
    assert message.artifact[0].source == "user" and message.artifact[0].id == "ref_001"
    assert "#ref:ref_001" in message.content and '<ref id="ref_001"' in message.content


def test_retrieve_url_refusal_is_a_tool_error(sources):
    message = call(RetrieveURLTool(searcher=sources.searcher()), {"url": "file:///etc/passwd"})
    assert message.status == "error"
    assert (
        message.content == "Search failed (INVALID_QUERY): not an http(s) URL: 'file:///etc/passwd'"
    )


def test_retrieve_url_without_retrieve_support(sources):
    class SearchOnly:
        async def asearch(self, request, ctx):
            raise AssertionError("not used")

    searcher = sources.searcher()
    searcher.register("web", SearchOnly())
    message = call(RetrieveURLTool(searcher=searcher), {"url": "https://example.com"})
    assert message.content == "Search failed (UNSUPPORTED): the web handler cannot retrieve URLs"


def test_tool_calls_of_one_request_share_citation_ids(sources):
    """With a request_id in the run config, later calls continue the numbering."""
    web, retrieve, kb, _ = search_tools(searcher=sources.searcher())
    first = call(web, {"query": "a", "max_results": 2}, request_id="turn-1")
    second = call(kb, {"query": "b", "max_results": 2}, request_id="turn-1")
    third = call(retrieve, {"url": "https://example.com/x"}, request_id="turn-1")
    ids = [ref.id for m in (first, second, third) for ref in m.artifact]
    assert ids == ["ref_001", "ref_002", "ref_003", "ref_004", "ref_005"]
    assert '<ref id="ref_003" type="kb"' in second.content
    other = call(kb, {"query": "b", "max_results": 1}, request_id="turn-2")
    assert [ref.id for ref in other.artifact] == ["ref_001"]


def test_tools_built_together_share_one_scope_without_run_ids(sources):
    """Without a request_id the tool set is the scope: no two calls show the same ID."""
    web, retrieve, kb, db = search_tools(searcher=sources.searcher())
    messages = [
        call(web, {"query": "a", "max_results": 2}),
        call(kb, {"query": "b", "max_results": 2}),
        call(db, {"query": "c", "max_results": 2}),
        call(retrieve, {"url": "https://example.com/x"}),
    ]
    ids = [ref.id for m in messages for ref in m.artifact]
    assert ids == [f"ref_{i:03d}" for i in range(1, 8)]
    lone = call(KBSearchTool(searcher=sources.searcher()), {"query": "b", "max_results": 1})
    assert [ref.id for ref in lone.artifact] == ["ref_001"]


def test_search_tools_share_one_searcher(sources):
    tools = search_tools(searcher=sources.searcher())
    assert [t.name for t in tools] == ["web_search", "retrieve_url", "kb_search", "db_search"]
    assert len({id(t.engine) for t in tools}) == 1 and len({id(t.session) for t in tools}) == 1


def test_search_mode_has_only_web_tools_and_asks_for_citations(sources):
    mode = search_mode(searcher=sources.searcher({"citation": {"format": "[^{id}]"}}))
    assert [t.name for t in mode.tools] == ["web_search", "retrieve_url"]
    assert mode.tools[0].engine is mode.tools[1].engine
    assert "[^ref_001]" in mode.system_prompt and "[^ref_001][^ref_002]" in mode.system_prompt
    assert "research assistant" in mode.system_prompt
    assert mode.system_message.content == mode.system_prompt


def test_schemas_describe_every_field_for_the_model():
    for tool_class in (WebSearchTool, RetrieveURLTool, KBSearchTool, DBSearchTool):
        schema = tool_class(config={}).tool_call_schema.model_json_schema()
        assert schema["properties"]
        for name, prop in schema["properties"].items():
            assert prop.get("description"), f"{tool_class.__name__}.{name} has no description"


def test_sync_and_async_run_share_a_signature():
    """Both entry points accept the same arguments, so they cannot drift."""
    sync = inspect.signature(SearchTool._run).parameters
    async_ = inspect.signature(SearchTool._arun).parameters
    assert list(sync) == list(async_)
