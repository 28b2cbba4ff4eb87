"""Every reranker keeps the contract: new items, none lost, top_n honoured, bad top_n refused."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from unified_search.config import SearchConfig
from unified_search.contract.delegates import Delegates
from unified_search.rerank.base import Reranker
from unified_search.rerank.cross_encoder import CrossEncoderReranker
from unified_search.rerank.delegate import DelegateReranker
from unified_search.rerank.embedding import EmbeddingReranker
from unified_search.rerank.fallback import FallbackReranker
from unified_search.rerank.intent import IntentReranker
from unified_search.rerank.rrf import RRFReranker
from unified_search.rerank.weighted import WeightedReranker
from unified_search.types import ResultItem


def bag_of_letters(texts: list[str]) -> list[list[float]]:
    return [[float(t.lower().count(ch)) for ch in "abcdefghijklmnopqrstuvwxyz"] for t in texts]


def overlap(pairs: list[tuple[str, str]]) -> Sequence[float]:
    return [float(len(set(q.lower().split()) & set(p.lower().split()))) for q, p in pairs]


def reverse_agent(payload: dict[str, list[dict[str, str]]]) -> dict[str, list[str]]:
    return {"order": [item["id"] for item in payload["items"]][::-1]}


def rerankers() -> list[Reranker]:
    config = SearchConfig()
    return [
        WeightedReranker(),
        RRFReranker(),
        IntentReranker(),
        EmbeddingReranker(bag_of_letters),
        CrossEncoderReranker(overlap),
        DelegateReranker("rev", config, Delegates({"rev": reverse_agent})),
        FallbackReranker(RRFReranker()),
    ]


ITEMS = [
    ResultItem(
        type="web",
        url="https://github.com/a",
        title="raft consensus",
        content="leader election",
        score=0.2,
    ),
    ResultItem(
        type="kb",
        document_id="d1",
        title="paxos",
        content="consensus by Lamport",
        score=0.9,
        weight=0.8,
    ),
    ResultItem(
        type="db", record_id="7", model="docs", title="gossip", content="membership", score=0.5
    ),
]


@pytest.fixture(params=rerankers(), ids=lambda r: r.name)
def reranker(request: pytest.FixtureRequest) -> Reranker:
    chosen: Reranker = request.param
    return chosen


async def test_input_is_never_mutated(reranker: Reranker) -> None:
    before = [item.model_dump() for item in ITEMS]
    ranked = await reranker.arerank("raft consensus", ITEMS)
    assert [item.model_dump() for item in ITEMS] == before
    assert all(out is not original for out in ranked for original in ITEMS)


async def test_every_item_is_kept_with_a_rerank_score(reranker: Reranker) -> None:
    ranked = await reranker.arerank("raft consensus", ITEMS)
    assert sorted(i.key for i in ranked) == sorted(i.key for i in ITEMS)
    assert all(isinstance(i.metadata["rerank_score"], float) for i in ranked)


async def test_top_n_cuts_after_ranking(reranker: Reranker) -> None:
    full = await reranker.arerank("raft consensus", ITEMS)
    cut = await reranker.arerank("raft consensus", ITEMS, top_n=2)
    assert [i.key for i in cut] == [i.key for i in full[:2]]


@pytest.mark.parametrize("top_n", [0, -3])
async def test_top_n_below_one_is_refused(reranker: Reranker, top_n: int) -> None:
    with pytest.raises(ValueError, match="top_n"):
        await reranker.arerank("raft", ITEMS, top_n=top_n)


async def test_no_items_gives_no_items(reranker: Reranker) -> None:
    assert await reranker.arerank("raft", []) == []


def test_all_satisfy_the_protocol(reranker: Reranker) -> None:
    assert isinstance(reranker, Reranker)


@pytest.mark.parametrize("query", ["", "   ", "مرحبا بالعالم"])
async def test_empty_or_unsupported_query_still_ranks_everything(
    reranker: Reranker, query: str
) -> None:
    ranked = await reranker.arerank(query, ITEMS)
    assert sorted(i.key for i in ranked) == sorted(i.key for i in ITEMS)
