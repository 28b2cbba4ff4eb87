"""The design's defaults, seen through LangChain: tool result counts, keywords, provider choice."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from langchain_core.messages import HumanMessage

from langchain_unified_search import AutoSearch, KBSearchTool, UnifiedSearchRetriever, WebSearchTool
from unified_search.config import SearchConfig
from unified_search.engine.searcher import Searcher
from unified_search.web.handler import WebHandler

TAVILY = json.loads(
    (Path(__file__).parents[2] / "fixtures" / "web" / "tavily_search_success.json").read_text()
)
QUESTION = "Could you tell me how heat pumps actually work when it is freezing outside?"


class Tavily:
    """The Tavily API at the transport: answers the fixture, keeps every request body."""

    def __init__(self) -> None:
        self.bodies: list[dict[str, Any]] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.bodies.append(json.loads(request.content))
        return httpx.Response(200, json=TAVILY["response"])


def keyed_searcher(api: Tavily, profile: dict[str, Any] | None = None) -> Searcher:
    """A Searcher whose web provider comes from the environment alone (no web.providers)."""
    config = SearchConfig.load(profile=profile)
    handler = WebHandler(config, transport=httpx.MockTransport(api), cache=None)
    return Searcher(config, handlers={"web": handler})


def test_tools_return_ten_results_by_default_and_cap_them(sources: Any) -> None:
    web = WebSearchTool(searcher=sources.searcher())
    web.invoke({"query": "heat pumps"})
    kb = KBSearchTool(searcher=sources.searcher())
    kb.invoke({"query": "heat pumps"})
    assert sources.web.calls[-1].limit == 10 and sources.kb.calls[-1].limit == 10
    for tool, too_many in ((web, 21), (kb, 51)):
        message = tool.invoke(
            {
                "name": tool.name,
                "args": {"query": "x", "max_results": too_many},
                "id": "1",
                "type": "tool_call",
            }
        )
        assert message.status == "error" and "max_results" in message.content


def test_the_tavily_key_alone_chooses_the_provider(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAVILY_API_KEY", "tvly-test")
    monkeypatch.setenv("BRAVE_API_KEY", "brave-test")  # Tavily still comes first
    api = Tavily()
    docs = UnifiedSearchRetriever(searcher=keyed_searcher(api), types=["web"]).invoke("heat pumps")
    assert docs and {d.metadata["unified_search"]["type"] for d in docs} == {"web"}
    assert len(api.bodies) == 1 and api.bodies[0]["query"] == "heat pumps"


def test_automatic_searches_send_keywords_typed_ones_the_question(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TAVILY_API_KEY", "tvly-test")
    api = Tavily()
    searcher = keyed_searcher(api)
    AutoSearch(searcher=searcher, types=["web"]).invoke([HumanMessage(QUESTION)])
    UnifiedSearchRetriever(searcher=searcher, types=["web"]).invoke(QUESTION)
    automatic, typed = (body["query"] for body in api.bodies)
    assert {"heat", "pumps", "freezing"} <= set(automatic.split()) and "Could" not in automatic
    assert typed == QUESTION


def test_keyword_extraction_can_be_off_or_widened(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAVILY_API_KEY", "tvly-test")
    api = Tavily()
    off = keyed_searcher(api, {"uses": {"keyword": None}})
    AutoSearch(searcher=off, types=["web"]).invoke([HumanMessage(QUESTION)])
    wide = keyed_searcher(api, {"keyword": {"sources": ["user", "hook", "auto"]}})
    UnifiedSearchRetriever(searcher=wide, types=["web"]).invoke(QUESTION)
    as_typed, shortened = (body["query"] for body in api.bodies)
    assert as_typed == QUESTION and shortened != QUESTION and "heat" in shortened


def test_no_provider_names_every_variable_to_set() -> None:
    retriever = UnifiedSearchRetriever(searcher=keyed_searcher(Tavily()), types=["web"])
    with pytest.raises(Exception) as info:
        retriever.invoke("heat pumps")
    message = str(info.value)
    assert "no web provider configured" in message
    for variable in (
        "TAVILY_API_KEY",
        "SERPER_API_KEY",
        "BRAVE_API_KEY",
        "EXA_API_KEY",
        "SERPAPI_API_KEY",
        "SEARXNG_URL",
    ):
        assert variable in message
    assert message.index("TAVILY_API_KEY") < message.index("SERPER_API_KEY")
