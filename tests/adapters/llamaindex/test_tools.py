import asyncio
import inspect
import re

import httpx
import pytest
from llama_index.core.tools.calling import acall_tool, call_tool

from llama_index_unified_search import SearchTraceCollector, UnifiedSearchToolSpec
from unified_search.engine.searcher import Searcher
from unified_search.errors import ErrorCode, SearchError
from unified_search.policy.tools import TOOLS, ToolLimits
from unified_search.web.handler import WebHandler


@pytest.fixture
def tools(searcher: Searcher) -> dict:
    return {tool.metadata.name: tool for tool in UnifiedSearchToolSpec(searcher).to_tool_list()}


def _ids(text: str) -> list[str]:
    return re.findall(r'<ref id="(ref_\d+)"', text)


def test_tool_list_names_schemas_and_descriptions(tools: dict) -> None:
    """Names, descriptions and argument schemas are the core's, as in LangChain."""
    assert sorted(tools) == ["db_search", "kb_search", "retrieve_url", "web_search"]
    for name, tool in tools.items():
        assert tool.metadata.description == TOOLS[name].description
        assert tool.metadata.fn_schema is TOOLS[name].args
    props = tools["web_search"].metadata.get_parameters_dict()["properties"]
    assert props["max_results"]["maximum"] == 20
    assert set(props) == {
        "query",
        "max_results",
        "search_depth",
        "include_domains",
        "exclude_domains",
        "time_range",
        "include_answer",
        "include_images",
    }
    assert all(tool.async_fn is not None for tool in tools.values())


async def test_searches_answer_with_a_cited_references_block(tools: dict) -> None:
    """Each tool returns the citation instruction and the XML; ids continue across calls."""
    web = (await acall_tool(tools["web_search"], {"query": "heat pump", "max_results": 1})).content
    assert "cite only these ids" in web and _ids(web) == ["ref_001"] and "Heat pump guide" in web
    kb = (
        await acall_tool(
            tools["kb_search"], {"query": "heat", "collections": ["energy"], "max_results": 2}
        )
    ).content
    assert _ids(kb) == ["ref_002", "ref_003"]
    db = call_tool(tools["db_search"], {"query": "heat pumps in stock"}).content
    assert _ids(db) == ["ref_004"] and "Price 999" in db


def test_sync_and_async_tools_agree(searcher: Searcher) -> None:
    first = UnifiedSearchToolSpec(searcher, request_id="a").call("kb_search", {"query": "heat"})
    second = asyncio.run(
        UnifiedSearchToolSpec(searcher, request_id="b").acall("kb_search", {"query": "heat"})
    )
    assert first.text == second.text and first.response.references


def test_limits_shape_the_tool_list_and_cannot_be_widened(searcher: Searcher) -> None:
    spec = UnifiedSearchToolSpec(searcher, limits=ToolLimits(types=["kb"], collections=["energy"]))
    (kb,) = spec.to_tool_list()
    assert kb.metadata.name == "kb_search"
    refused = call_tool(kb, {"query": "trains", "collections": ["travel"]})
    assert (
        refused.is_error
        and "collection 'travel' is not allowed; allowed: energy" in refused.content
    )


async def test_failure_is_a_tool_error_with_the_code(
    fakes, collector: SearchTraceCollector
) -> None:
    """A failed search becomes an is_error tool output whose text names the code."""
    spec = UnifiedSearchToolSpec(Searcher(handlers={"web": fakes.FailingWeb()}))
    (web,) = spec.to_tool_list(["web_search"])
    output = await acall_tool(web, {"query": "news"})
    assert output.is_error
    assert "NO_API_KEY [tavily]: set TAVILY_API_KEY" in output.content
    assert isinstance(output.exception, SearchError)
    assert collector.progress()[-1] == "Search failed"


@pytest.mark.parametrize(
    ("tool", "args", "message"),
    [
        ("web_search", {"query": "  "}, "query: String should have at least 1 character"),
        ("web_search", {"query": "x", "max_results": 0}, "max_results"),
        ("kb_search", {"query": "x", "collections": ["nope"]}, "unknown collection 'nope'"),
        ("db_search", {"query": "x", "models": ["ghosts"]}, "unknown model 'ghosts'"),
    ],
)
def test_bad_input_is_an_invalid_query_tool_error(
    tools: dict, tool: str, args: dict, message: str
) -> None:
    output = call_tool(tools[tool], args)
    assert output.is_error and "INVALID_QUERY" in output.content and message in output.content
    assert output.exception.code is ErrorCode.INVALID_QUERY


async def test_retrieve_url_reads_through_the_web_source(tools: dict) -> None:
    output = await acall_tool(tools["retrieve_url"], {"url": "https://example.org/a"})
    assert not output.is_error
    assert _ids(output.content) == ["ref_001"] and "Body of https://example.org/a" in output.content
    assert output.raw_output.response.references[0].url == "https://example.org/a"
    failed = call_tool(tools["retrieve_url"], {"url": "https://example.org/missing"})
    assert failed.is_error and "PROVIDER_ERROR [reader]: HTTP 404" in failed.content


def test_retrieve_url_without_a_reader_is_unsupported(fakes) -> None:
    spec = UnifiedSearchToolSpec(Searcher(handlers={"web": fakes.FailingWeb()}))
    with pytest.raises(SearchError, match="cannot retrieve URLs") as caught:
        spec.call("retrieve_url", {"url": "https://example.org/"})
    assert caught.value.code is ErrorCode.UNSUPPORTED


def test_nothing_found_says_so(searcher: Searcher) -> None:
    """An empty result is a plain sentence, not an empty references block."""
    answer = UnifiedSearchToolSpec(searcher).call(
        "kb_search", {"query": "x", "collections": ["archive"]}
    )
    assert answer.text == "No results found for 'x'."


def _real_web_spec() -> UnifiedSearchToolSpec:
    """The builtin WebHandler over a mocked transport and a resolver that says 'public'."""
    page = "<html><head><title>Heat pumps</title></head><body><p>A heat pump moves heat &amp; saves energy.</p></body></html>"

    def serve(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"content-type": "text/html"}, text=page)

    async def public(host: str, port: int) -> list[str]:
        return ["93.184.216.34"] if host == "example.org" else ["127.0.0.1"]

    web = WebHandler(transport=httpx.MockTransport(serve), resolver=public)
    return UnifiedSearchToolSpec(Searcher(handlers={"web": web}))


async def test_retrieve_url_with_the_builtin_web_reader() -> None:
    """The real reader's text comes back; a private address is refused as a tool error."""
    tools = {
        t.metadata.name: t for t in _real_web_spec().to_tool_list(["retrieve_url", "web_search"])
    }
    page = await acall_tool(tools["retrieve_url"], {"url": "https://example.org/heat"})
    assert not page.is_error
    assert 'title="Heat pumps" url="https://example.org/heat"' in page.content
    assert "A heat pump moves heat &amp; saves energy." in page.content
    private = await acall_tool(tools["retrieve_url"], {"url": "http://intranet.local/admin"})
    assert private.is_error and "INVALID_QUERY [reader]: refusing to fetch" in private.content
    unconfigured = await acall_tool(tools["web_search"], {"query": "heat"})
    assert (
        unconfigured.is_error and "UNSUPPORTED: no web provider configured" in unconfigured.content
    )


def test_sync_and_async_twins_have_the_same_signature() -> None:
    """The sync call and its async twin accept exactly the same arguments."""
    sync_fn, async_fn = UnifiedSearchToolSpec.call, UnifiedSearchToolSpec.acall
    assert inspect.signature(sync_fn).parameters == inspect.signature(async_fn).parameters
    assert inspect.iscoroutinefunction(async_fn) and not inspect.iscoroutinefunction(sync_fn)
