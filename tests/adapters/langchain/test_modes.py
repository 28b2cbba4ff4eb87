"""Query modes through LangChain: the retriever and the tools take ``mode``."""

from __future__ import annotations

from typing import Any

from langchain_unified_search import UnifiedSearchRetriever, WebSearchTool, search_tools


def test_retriever_searches_deeply_when_asked(sources: Any) -> None:
    retriever = UnifiedSearchRetriever(searcher=sources.searcher(), types=["kb"], k=20)
    retriever.invoke("Postgres vs MySQL")
    assert [r.query for r in sources.kb.calls] == ["Postgres vs MySQL"]
    docs = retriever.invoke("Postgres vs MySQL", mode="deep")
    assert [r.query for r in sources.kb.calls[1:]] == [
        "Postgres vs MySQL",
        "PostgreSQL vs MySQL",
        "PostgreSQL advantages",
        "MySQL advantages",
    ]
    assert {d.metadata["unified_search"]["citation_id"] for d in docs}  # cited as usual


def test_fan_out_is_still_accepted_as_mode(sources: Any) -> None:
    retriever = UnifiedSearchRetriever(searcher=sources.searcher(), types=["kb"], mode="any")
    assert retriever.parallel == "any" and retriever.mode is None
    assert retriever.invoke("heat")


def test_tools_take_a_mode(sources: Any) -> None:
    config = {"web": {"providers": ["tavily", "brave"]}}
    fast = WebSearchTool(searcher=sources.searcher(config), mode="fast")
    fast.invoke({"query": "rust async"})
    assert sources.web.calls[-1].options == {"providers": ["tavily"]}
    [answer, *_] = search_tools(searcher=sources.searcher(config), mode="answer")
    message = answer.invoke(
        {"name": "web_search", "args": {"query": "rust async"}, "id": "1", "type": "tool_call"}
    )
    assert "Give the answer first" in message.content and "ref_001" in message.content
    assert message.artifact and all(ref.id.startswith("ref_") for ref in message.artifact)
