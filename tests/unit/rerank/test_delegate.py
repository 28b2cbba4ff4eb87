"""The agent / MCP reranker: robust parsing of LLM answers, nothing lost, nothing swapped."""

from __future__ import annotations

from typing import Any

import pytest

from unified_search.config import SearchConfig
from unified_search.contract.delegates import Delegates
from unified_search.rerank.delegate import DelegateReranker, apply_order, parse_order, payload
from unified_search.types import ResultItem

ITEMS = [
    ResultItem(type="kb", document_id=str(n), title=f"doc {n}", content="x" * 50)
    for n in range(1, 5)
]


def ids(items: list[ResultItem]) -> list[str | None]:
    return [item.document_id for item in items]


def test_payload_numbers_items_and_shortens_content() -> None:
    sent = payload("q", ITEMS, 2, max_chars=10)
    assert [i["id"] for i in sent["items"]] == ["ref_001", "ref_002", "ref_003", "ref_004"]
    assert sent["items"][0]["content"] == "x" * 10
    assert sent["top_n"] == 2 and sent["query"] == "q"


@pytest.mark.parametrize(
    "answer",
    [
        {"order": ["ref_003", "ref_001", "ref_004", "ref_002"]},
        {"items": [{"citation_id": "ref_003"}, {"citation_id": "ref_001"}, {"id": "ref_004"}]},
        ["ref_003", "ref_001", "ref_004"],
        '{"order": ["ref_003", "ref_001", "ref_004"]}',
        "1. ref_003 (best)\n2. ref_001\nsome chatter\n3. ref_004",
    ],
)
def test_accepted_answer_shapes(answer: Any) -> None:
    assert ids(apply_order(ITEMS, answer, None)) == ["3", "1", "4", "2"]


def test_out_of_range_duplicate_and_malformed_entries_are_skipped() -> None:
    answer = {
        "order": ["ref_009", "ref_002", "ref_002", "ref_000", 7, None, {"id": "2"}, "ref_001"]
    }
    assert ids(apply_order(ITEMS, answer, None)) == ["2", "1", "3", "4"]


def test_missing_items_keep_old_order_at_the_end() -> None:
    ranked = apply_order(ITEMS, {"order": ["ref_004"]}, None)
    assert ids(ranked) == ["4", "1", "2", "3"]
    scores = [i.metadata["rerank_score"] for i in ranked]
    assert scores == sorted(scores, reverse=True)


def test_scores_given_by_the_agent_are_recorded_but_do_not_reorder() -> None:
    answer = {"items": [{"id": "ref_002", "score": 0.1}, {"id": "ref_001", "score": 0.9}]}
    ranked = apply_order(ITEMS, answer, 3)
    assert ids(ranked) == ["2", "1", "3"]
    assert [i.metadata["rerank_score"] for i in ranked[:2]] == [0.1, 0.9]


@pytest.mark.parametrize(
    "answer", [None, 42, {"ranking": []}, {"order": []}, "no ids here", {"order": ["ref_999"]}]
)
def test_unusable_answers_are_errors(answer: Any) -> None:
    with pytest.raises(ValueError):
        apply_order(ITEMS, answer, None)


def test_parse_order_keeps_the_written_order() -> None:
    assert parse_order({"order": ["ref_002", "ref_001"]}) == [("ref_002", None), ("ref_001", None)]


async def test_agent_reranker_calls_the_agent_with_the_payload() -> None:
    seen: list[dict[str, Any]] = []

    async def agent(request: dict[str, Any]) -> dict[str, Any]:
        seen.append(request)
        return {"order": ["ref_002"]}

    reranker = DelegateReranker("llm", SearchConfig(), Delegates({"llm": agent}))
    ranked = await reranker.arerank("query", ITEMS, top_n=2)
    assert ids(ranked) == ["2", "1"]
    assert seen[0]["query"] == "query" and len(seen[0]["items"]) == 4
    assert len(seen[0]["items"][0]["content"]) == 50


async def test_mcp_reranker_goes_through_delegates() -> None:
    class FakeMCP(Delegates):
        async def call(self, uses: str, payload: Any, config: SearchConfig) -> Any:
            self.uses = uses
            return '{"order": ["ref_004", "ref_003"]}'

    delegates = FakeMCP()
    reranker = DelegateReranker("mcp:rank.rerank", SearchConfig(), delegates)
    assert ids(await reranker.arerank("q", ITEMS)) == ["4", "3", "1", "2"]
    assert delegates.uses == "mcp:rank.rerank"
