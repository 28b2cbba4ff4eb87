"""Web extras through the tools: Tavily's answer and images when asked, related questions,
and search mode's tool filter and reminder."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from langchain_core.messages import HumanMessage
from langchain_core.tools import tool

from langchain_unified_search import WebSearchTool, search_mode
from unified_search.config import SearchConfig
from unified_search.engine.searcher import Searcher
from unified_search.policy.tools import SEARCH_REMINDER
from unified_search.web.handler import WebHandler

FIXTURES = Path(__file__).parents[2] / "fixtures" / "web"


class Api:
    """Replays one fixture at the transport and keeps every request body sent."""

    def __init__(self, fixture: str) -> None:
        self.answer = json.loads((FIXTURES / f"{fixture}.json").read_text())["response"]
        self.bodies: list[dict[str, Any]] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.bodies.append(json.loads(request.content))
        return httpx.Response(200, json=self.answer)


def web_tool(provider: str, api: Api, monkeypatch: pytest.MonkeyPatch) -> WebSearchTool:
    monkeypatch.setenv(f"{provider.upper()}_API_KEY", "test-key")
    config = SearchConfig.load(profile={"web": {"providers": [provider]}})
    handler = WebHandler(config, transport=httpx.MockTransport(api), cache=None)
    return WebSearchTool(searcher=Searcher(config, handlers={"web": handler}))


def run(tool: WebSearchTool, **args: Any) -> Any:
    return tool.invoke({"name": "web_search", "args": args, "id": "1", "type": "tool_call"})


def test_tavily_answer_and_images_reach_the_model_when_asked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    api = Api("tavily_search_answer_images")
    message = run(
        web_tool("tavily", api, monkeypatch),
        query="who won the 2026 tour de france",
        include_answer=True,
        include_images=True,
    )
    assert api.bodies[0]["include_answer"] is True and api.bodies[0]["include_images"] is True
    content = message.content
    assert '<answer provider="tavily">The 2026 Tour de France was won by' in content
    assert (
        '<image provider="tavily" url="https://images.example/tdf-podium.jpg"></image>' in content
    )
    assert "The final stage on the Champs-Élysées</image>" in content
    assert '<related_question provider="tavily">Who won the green jersey in 2026?' in content
    assert content.index("</references>") < content.index("<web_extras>")
    assert "it cannot be cited" in content
    assert all(ref.id.startswith("ref_") for ref in message.artifact)  # extras are not references


def test_by_default_only_images_with_descriptions_are_asked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Tavily's images come as the browser design asks for them; nothing else extra."""
    api = Api("tavily_search_success")
    run(web_tool("tavily", api, monkeypatch), query="heat pumps")
    assert api.bodies[0].get("include_answer") in (None, False)
    assert api.bodies[0].get("include_raw_content") in (None, False)
    assert api.bodies[0]["include_images"] is True
    assert api.bodies[0]["include_image_descriptions"] is True


def test_related_questions_come_when_the_provider_gives_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    message = run(web_tool("serper", Api("serper_search_success"), monkeypatch), query="ssg")
    assert (
        '<related_question provider="serper">What is the fastest static site generator?'
        in message.content
    )
    assert "<related_search>" in message.content


def test_search_mode_filters_tools_and_reminds(sources: Any) -> None:
    @tool
    def click(selector: str) -> str:
        """Click an element of the page."""
        return selector

    mode = search_mode(searcher=sources.searcher())
    own = [click, *mode.tools]
    assert [t.name for t in mode.filter(own)] == ["web_search", "retrieve_url"]
    assert [t.name for t in mode.filter(own, on=False)] == ["click"]
    reminded = mode.remind("what happened in Rust this week?")
    assert isinstance(reminded, HumanMessage)
    assert reminded.content == f"what happened in Rust this week?\n\n{SEARCH_REMINDER}"
    assert mode.remind(reminded).content == reminded.content  # never twice
    assert "web_search" in SEARCH_REMINDER and "cite" in SEARCH_REMINDER
