"""``mode="auto"``: the question's intent picks fast, deep or answer, as the search-layer design does."""

from __future__ import annotations

import pytest

from unified_search.config import SearchConfig
from unified_search.contract.handler import SearchContext
from unified_search.engine.searcher import Searcher
from unified_search.nlp.intent import STRATEGIES, classify_intent
from unified_search.policy.modes import QueryMode, arun_mode, auto_mode
from unified_search.policy.session import SearchOptions, SearchSession
from unified_search.types import Intent, ResultItem, SearchRequest, SearchResult

#: One question per intent, with the mode the design's table gives it.
DESIGN = [
    ("what is a vector database", Intent.FACTUAL, "answer"),
    ("latest Deno release", Intent.STATUS, "deep"),
    ("Bun vs Deno", Intent.COMPARISON, "deep"),
    ("how to write a Rust CLI", Intent.TUTORIAL, "answer"),
    ("RISC-V", Intent.EXPLORATORY, "deep"),
    ("AI news this week", Intent.NEWS, "deep"),
    ("FastAPI github", Intent.RESOURCE, "fast"),
]


class Pages:
    def __init__(self) -> None:
        self.requests: list[SearchRequest] = []

    async def asearch(self, request: SearchRequest, ctx: SearchContext) -> SearchResult:
        self.requests.append(request)
        item = ResultItem(
            type="web", title=request.query, url=f"https://e.org/{len(self.requests)}"
        )
        return SearchResult(type="web", query=request.query, items=[item])


@pytest.mark.parametrize(("query", "intent", "mode"), DESIGN)
async def test_the_intent_picks_the_designs_mode(query: str, intent: Intent, mode: str) -> None:
    assert classify_intent(query) is intent and STRATEGIES[intent].mode == mode
    pages = Pages()
    async with Searcher({"web": {"providers": ["brave", "exa"]}}, handlers={"web": pages}) as s:
        response = await arun_mode(s, [SearchRequest(query=query)], "auto")
    assert {r.metadata["query_mode"] for r in response.results if r} == {mode}
    expanded = len({r.query for r in pages.requests}) > 1
    assert expanded is (mode != "fast")
    assert ("Give the answer first" in response.context.prompt) is (mode == "answer")
    if mode == "fast":
        assert [r.options["providers"] for r in pages.requests] == [["brave"]]


def test_a_fixed_intent_picks_its_mode_whatever_the_words() -> None:
    config = SearchConfig().merged({"keyword": {"intent": "resource"}})
    assert auto_mode("what is a vector database", config) is QueryMode.FAST


async def test_auto_through_the_session_and_a_tool() -> None:
    pages = Pages()
    async with Searcher(handlers={"web": pages}) as searcher:
        session = SearchSession(searcher)
        response = await session.asearch("what is RRF", SearchOptions(types=["web"], mode="auto"))
        answer = await session.acall_tool("web_search", {"query": "what is RRF"}, mode="auto")
    assert response.results[0] is not None
    assert response.results[0].metadata["query_mode"] == "answer"
    assert "Give the answer first" in answer.text
