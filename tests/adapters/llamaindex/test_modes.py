"""Query modes through LlamaIndex: the retriever and the tool spec take ``mode``."""

from __future__ import annotations

from llama_index_unified_search import UnifiedSearchRetriever, UnifiedSearchToolSpec
from unified_search.contract.handler import SearchContext
from unified_search.engine.searcher import Searcher
from unified_search.types import ResultItem, SearchRequest, SearchResult


class Pages:
    """A web source answering each query with two pages."""

    def __init__(self) -> None:
        self.calls: list[SearchRequest] = []

    async def asearch(self, request: SearchRequest, ctx: SearchContext) -> SearchResult:
        self.calls.append(request)
        items = [
            ResultItem(
                type="web", title=f"{request.query} {n}", url=f"https://x.org/{len(self.calls)}/{n}"
            )
            for n in (1, 2)
        ]
        return SearchResult(type="web", query=request.query, items=items)


def test_retriever_modes() -> None:
    pages = Pages()
    searcher = Searcher({"web": {"providers": ["exa", "tavily"]}}, handlers={"web": pages})
    UnifiedSearchRetriever(searcher, types=["web"], mode="fast").retrieve("vector databases")
    assert [(c.query, c.options) for c in pages.calls] == [
        ("vector databases", {"providers": ["exa"]})
    ]
    nodes = UnifiedSearchRetriever(searcher, types=["web"], mode="deep", top_k=50).retrieve(
        "what is a vector database"
    )
    assert [c.query for c in pages.calls[1:]] == [
        "what is a vector database",
        "vector database definition",
        "vector database explained",
    ]
    assert len(nodes) == 6


def test_tool_spec_answer_mode() -> None:
    searcher = Searcher({"web": {"providers": ["tavily"]}}, handlers={"web": Pages()})
    spec = UnifiedSearchToolSpec(searcher, mode="answer")
    answer = spec.call("web_search", {"query": "what is a vector database"})
    assert "Give the answer first" in answer.text
    assert len(answer.response.references) == 6  # 3 sub-queries x 2 pages: the 6 to 15 shape
    assert "Group what the results say into the topics" in answer.text
    assert "Give the answer first" in answer.response.context.prompt
