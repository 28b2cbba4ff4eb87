"""Search mode for LlamaIndex agents, and web extras in the tool answer."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from llama_index.core.tools import FunctionTool

from llama_index_unified_search import UnifiedSearchToolSpec, search_mode
from unified_search.config import SearchConfig
from unified_search.engine.searcher import Searcher
from unified_search.policy.tools import SEARCH_REMINDER
from unified_search.web.extras import WebExtras
from unified_search.web.handler import WebHandler

FIXTURE = Path(__file__).parents[2] / "fixtures" / "web" / "tavily_search_answer_images.json"


def test_search_mode_tools_prompt_and_reminder() -> None:
    mode = search_mode(config={"citation": {"format": "[^{id}]"}})
    assert [t.metadata.name for t in mode.tools] == ["web_search", "retrieve_url"]
    assert "[^ref_001]" in mode.system_prompt
    browse = FunctionTool.from_defaults(fn=lambda url: url, name="open_tab", description="Open.")
    assert [t.metadata.name for t in mode.filter([browse, *mode.tools])] == [
        "web_search",
        "retrieve_url",
    ]
    assert [t.metadata.name for t in mode.filter([browse, *mode.tools], on=False)] == ["open_tab"]
    assert mode.remind("news?") == f"news?\n\n{SEARCH_REMINDER}"


def test_tool_answer_carries_the_answer_and_images(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAVILY_API_KEY", "test-key")
    response = json.loads(FIXTURE.read_text())["response"]
    config = SearchConfig.load(profile={"web": {"providers": ["tavily"]}})
    transport = httpx.MockTransport(lambda request: httpx.Response(200, json=response))
    searcher = Searcher(
        config, handlers={"web": WebHandler(config, transport=transport, cache=None)}
    )
    answer = UnifiedSearchToolSpec(searcher).call(
        "web_search", {"query": "tour de france", "include_answer": True, "include_images": True}
    )
    extras = WebExtras.of_response(answer.response)
    assert extras.answer and extras.answer.startswith("The 2026 Tour de France")
    assert [image.url for image in extras.images][:1] == ["https://images.example/tdf-podium.jpg"]
    assert "<web_extras>" in answer.text
