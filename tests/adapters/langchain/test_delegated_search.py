"""AutoSearch with ``uses.search`` naming an agent: the agent answers, citations are injected."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import HumanMessage
from langchain_core.runnables import RunnableLambda

from langchain_unified_search import AutoSearch
from langchain_unified_search.auto_search import MARKER
from unified_search.engine.searcher import Searcher


def test_auto_search_is_handed_to_a_langchain_runnable(sources: Any) -> None:
    seen: list[dict[str, Any]] = []

    def research(payload: dict[str, Any]) -> list[dict[str, Any]]:
        seen.append(payload)
        return [
            {"title": "Leave policy", "document_id": "leave", "content": "25 days a year."},
            {"title": "Carry-over", "document_id": "carry", "content": "Up to 5 days."},
        ]

    searcher = Searcher(
        {"uses": {"search": "hr-agent"}, "kb": {"collections": ["handbook"]}},
        handlers={"kb": sources.kb},
        agents={"hr-agent": RunnableLambda(research)},
    )
    state = AutoSearch(searcher=searcher, types=["kb"]).invoke(
        [HumanMessage("how many vacation days?")]
    )
    assert sources.kb.calls == []  # the builtin source was never asked
    assert seen == [
        {
            "query": "how many vacation days?",
            "sources": [{"type": "kb", "limit": 10, "collections": ["handbook"]}],
        }
    ]
    refs = state["context"].references
    assert [(r.id, r.title, r.source.value) for r in refs] == [
        ("ref_001", "Leave policy", "auto"),
        ("ref_002", "Carry-over", "auto"),
    ]
    note = next(m for m in state["messages"] if (m.id or "").startswith(MARKER))
    assert 'id="ref_001"' in str(note.content) and "25 days a year." in str(note.content)
