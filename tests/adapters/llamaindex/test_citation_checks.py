"""Citation checks in LlamaIndex: the evaluator, the response check and the events."""

from __future__ import annotations

from llama_index.core.base.response.schema import Response
from llama_index.core.schema import NodeWithScore, TextNode

from llama_index_unified_search import (
    CitationEvaluator,
    UnifiedSearchCitationsCheckedEvent,
    acheck_response,
    check_response,
    item_to_node,
)
from llama_index_unified_search.events import from_search_event
from unified_search import CitationReport, ResultItem, Verdict
from unified_search.citations import check_events

OFFICE = "The office opens at nine on weekdays and closes at five."
ANSWER = (
    "The office opens at nine on weekdays #ref:ref_001. Parking is free for visitors #ref:ref_001."
)


def test_the_evaluator_scores_plain_contexts_in_order() -> None:
    result = CitationEvaluator().evaluate(query="q", response=ANSWER, contexts=[OFFICE])
    assert result.passing is False and result.score == 0.5
    assert result.feedback == "unsupported: Parking is free for visitors #ref:ref_001."


async def test_the_evaluator_keeps_the_citation_ids_of_our_nodes() -> None:
    item = ResultItem(type="kb", content=OFFICE, citation_id="ref_004", document_id="hours")
    nodes = [item_to_node(item)]
    response = Response("The office opens at nine on weekdays #ref:ref_004.", source_nodes=nodes)
    result = await CitationEvaluator().aevaluate_response(query="q", response=response)
    assert result.passing is True and result.score == 1.0


def test_any_node_can_be_cited_by_position() -> None:
    nodes = [NodeWithScore(node=TextNode(text=OFFICE), score=0.5)]
    checked = check_response(Response(ANSWER, source_nodes=nodes))
    report = checked.metadata["citation_checks"]
    assert [s.verdict for s in report.sentences] == [Verdict.SUPPORTED, Verdict.UNSUPPORTED]


async def test_the_async_response_check_leaves_the_input_alone() -> None:
    original = Response(
        ANSWER, source_nodes=[NodeWithScore(node=TextNode(text=OFFICE))], metadata={"k": 1}
    )
    checked = await acheck_response(original)
    assert original.metadata == {"k": 1} and checked.metadata["k"] == 1


def test_check_events_map_to_instrumentation_events() -> None:
    [event] = check_events(CitationReport(), "r1")
    mapped = from_search_event(event, span_id=None)
    assert (
        isinstance(mapped, UnifiedSearchCitationsCheckedEvent) and mapped.checks == CitationReport()
    )
