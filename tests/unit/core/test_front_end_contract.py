"""The design's front-end contract: snippets, graph fields, trace-log node IDs, the final prompt.

Today's names stay beside the design's, and every serialised form loads back.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from unified_search.contract.events import SearchEvent, TraceLog, TraceNode
from unified_search.contract.handler import SearchContext
from unified_search.engine.searcher import Searcher
from unified_search.policy.modes import arun_mode
from unified_search.records.store import SearchStore
from unified_search.types import (
    SNIPPET_CHARS,
    GraphNode,
    Reference,
    Relation,
    ResultItem,
    SearchRequest,
    SearchResult,
    snippet_of,
)


class Pages:
    """Answers with three web pages of long text."""

    async def asearch(self, request: SearchRequest, ctx: SearchContext) -> SearchResult:
        await ctx.log("info", "asked the pages", {"query": request.query})
        items = [
            ResultItem(
                type="web",
                title=f"page {n}",
                url=f"https://example.com/{n}",
                content=f"Page {n} explains vector databases. " * 40,
                score=1 - n / 10,
            )
            for n in range(3)
        ]
        return SearchResult(type="web", query=request.query, items=items)


@given(st.text(max_size=1000))
def test_a_snippet_is_one_short_line_from_the_start_of_the_content(text: str) -> None:
    snippet = snippet_of(text)
    flat = " ".join(text.split())
    assert "\n" not in snippet and len(snippet) <= SNIPPET_CHARS
    assert snippet == flat or (snippet.endswith("…") and flat.startswith(snippet[:-1].rstrip()))


def test_every_reference_has_a_snippet_and_loads_back_with_it() -> None:
    reference = Reference(
        id="ref_001", index=1, type="kb", source="user", weight=1.0, score=0.5, content="a\nb"
    )
    dumped = reference.model_dump(mode="json")
    assert dumped["snippet"] == "a b" and dumped["content"] == "a\nb"
    assert Reference.model_validate(dumped) == reference


async def test_stored_and_clicked_references_carry_snippets_and_the_record_the_final_prompt(
    tmp_path: Path,
) -> None:
    store = SearchStore(f"sqlite:///{tmp_path / 'records.sqlite3'}")
    async with Searcher(handlers={"web": Pages()}, store=store) as searcher:
        response = await arun_mode(
            searcher, [SearchRequest(query="what is a vector database")], "answer"
        )
        stored = await store.aget_reference(response.request_id, 1)
        records = await store.aget_searches(response.request_id)
    assert stored is not None and stored.snippet.startswith("Page 0 explains vector databases.")
    assert len(stored.snippet) <= SNIPPET_CHARS and stored.model_dump()["snippet"]
    assert "Give the answer first" in response.context.prompt
    assert {record.prompt for record in records} == {response.context.prompt}


def test_relations_speak_subject_predicate_object_beside_todays_names() -> None:
    relation = Relation(subject="Marie Curie", predicate="works_at", object="CNRS")
    assert (relation.source, relation.type, relation.target) == ("Marie Curie", "works_at", "CNRS")
    dumped = relation.model_dump(mode="json")
    assert {k: dumped[k] for k in ("subject", "predicate", "object")} == {
        "subject": "Marie Curie",
        "predicate": "works_at",
        "object": "CNRS",
    }
    assert Relation.model_validate(dumped) == relation
    assert Relation(source="a", target="b").object == "b"
    with pytest.raises(ValueError, match="subject and source"):
        Relation(subject="a", source="b", target="c")


def test_graph_nodes_have_an_id_a_description_and_metadata() -> None:
    node = GraphNode(name="CNRS", type="org", description="a lab", metadata={"links": 3})
    assert node.id == "org:CNRS"
    assert GraphNode.model_validate(node.model_dump(mode="json")) == node
    assert GraphNode(id="e7", name="CNRS").id == "e7"


async def test_every_trace_log_names_its_node() -> None:
    events: list[SearchEvent] = []
    async with Searcher(handlers={"web": Pages()}, sinks=[events.append]) as searcher:
        response = await searcher.asearch({"query": "vector databases"})
    nodes: list[TraceNode] = [*response.trace, *(e.node for e in events if e.node)]
    logs = [(node.id, log) for node in nodes for log in node.logs]
    assert {log.message for _, log in logs} >= {"asked the pages"}
    assert all(log.node_id == node_id for node_id, log in logs)
    first: TraceLog = logs[0][1]
    assert first.model_dump(mode="json")["timestamp"] == int(first.at.timestamp() * 1000)
