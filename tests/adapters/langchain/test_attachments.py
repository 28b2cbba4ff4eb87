"""Attachments through LangChain: the retriever cites what the user attached, first."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import HumanMessage

from langchain_unified_search import AutoSearch, UnifiedSearchRetriever

ROW = {"type": "db_row", "model": "orders", "record_id": "42", "data": {"status": "late"}}


def test_retriever_cites_attachments_as_user_references(sources: Any) -> None:
    retriever = UnifiedSearchRetriever(searcher=sources.searcher(), types=["kb"], k=3)
    docs = retriever.invoke("why is my order late?", attachments=[ROW])
    first = docs[0].metadata["unified_search"]
    assert first["citation_id"] == "ref_001" and first["source"] == "user"
    assert (first["model"], first["record_id"], docs[0].page_content) == (
        "orders",
        "42",
        "status: late",
    )
    assert [d.metadata["unified_search"]["type"] for d in docs] == ["db", "kb", "kb"]


def test_attachments_can_make_automatic_search_unnecessary(sources: Any) -> None:
    searcher = sources.searcher({"options": {"skip_threshold": 1}})
    state = AutoSearch(searcher=searcher, types=["kb"], attachments=[ROW]).invoke(
        [HumanMessage("why is my order late?")]
    )
    assert sources.kb.calls == []
    assert [r.title for r in state["context"].references] == ["orders 42"]
