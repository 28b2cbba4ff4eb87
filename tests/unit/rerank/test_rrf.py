"""Weighted reciprocal-rank fusion and the rrf reranker."""

from __future__ import annotations

import pytest

from unified_search.config import SearchConfig
from unified_search.rerank.rrf import RRFReranker, reciprocal_rank_fusion
from unified_search.types import ResultItem


def page(name: str, score: float = 0.0, weight: float = 1.0) -> ResultItem:
    return ResultItem(
        type="web", url=f"https://example.com/{name}", title=name, score=score, weight=weight
    )


def titles(items: list[ResultItem]) -> list[str]:
    return [item.title for item in items]


def test_hand_checked_fusion_scores() -> None:
    """a: 1/61 + 1/62 and b: 1/62 + 1/61 tie; both have a rank 1, a's in an earlier list; then d (1/61), c (1/63)."""
    a, b, c, d = page("a"), page("b"), page("c"), page("d")
    fused = reciprocal_rank_fusion([[a, b, c], [d, a], [b]])
    assert titles(fused) == ["a", "b", "d", "c"]
    scores = {i.title: i.metadata["rerank_score"] for i in fused}
    assert scores["a"] == pytest.approx(1 / 61 + 1 / 62)
    assert scores["b"] == pytest.approx(1 / 62 + 1 / 61)
    assert scores["c"] == pytest.approx(1 / 63)


def test_weights_change_the_winner() -> None:
    a, b = page("a"), page("b")
    assert titles(reciprocal_rank_fusion([[a], [b]], weights=[1.0, 2.0])) == ["b", "a"]
    assert titles(reciprocal_rank_fusion([[a], [b]], weights=[2.0, 1.0])) == ["a", "b"]


def test_duplicates_within_one_list_count_once() -> None:
    """A list naming an item twice must not vote twice; it counts at its first rank."""
    a, b = page("a"), page("b")
    fused = reciprocal_rank_fusion([[a, a, b], [b]], k=1)
    scores = {i.title: i.metadata["rerank_score"] for i in fused}
    assert scores["a"] == pytest.approx(1 / 2)
    assert scores["b"] == pytest.approx(1 / 3 + 1 / 2)
    assert titles(fused) == ["b", "a"]


def test_same_page_under_two_urls_is_one_item() -> None:
    """Identity is ResultItem.key: tracking parameters and trailing slashes do not split an item."""
    first = ResultItem(type="web", url="https://example.com/a?utm_source=x", title="a", weight=0.6)
    second = ResultItem(type="web", url="https://example.com/a/", title="a", weight=1.0, score=0.3)
    fused = reciprocal_rank_fusion([[first], [second]])
    assert len(fused) == 1
    assert fused[0].weight == 1.0 and fused[0].score == 0.3  # highest weight copy, its own score


def test_k_flattens_rank_differences() -> None:
    a, b = page("a"), page("b")
    small = reciprocal_rank_fusion([[a, b]], k=1)
    large = reciprocal_rank_fusion([[a, b]], k=1000)
    ratio_small = small[0].metadata["rerank_score"] / small[1].metadata["rerank_score"]
    ratio_large = large[0].metadata["rerank_score"] / large[1].metadata["rerank_score"]
    assert ratio_small > ratio_large > 1


def test_source_scores_stay_untouched() -> None:
    fused = reciprocal_rank_fusion([[page("a", score=0.42)]])
    assert fused[0].score == 0.42


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"k": 0}, "k must"),
        ({"weights": [1.0]}, "1 weights for 2 lists"),
        ({"weights": [1.0, -1.0]}, "negative"),
    ],
)
def test_bad_arguments(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        reciprocal_rank_fusion([[page("a")], [page("b")]], **kwargs)  # type: ignore[arg-type]


def test_empty_lists() -> None:
    assert reciprocal_rank_fusion([]) == []
    assert reciprocal_rank_fusion([[], []]) == []


async def test_reranker_fuses_lists_and_keeps_every_candidate() -> None:
    a, b, c, lone = page("a"), page("b"), page("c"), page("lone")
    candidates = [a, b, c, lone]
    ranked = await RRFReranker().arerank("q", candidates, lists=[[c, b], [b, a]])
    assert titles(ranked) == ["b", "c", "a", "lone"]
    assert ranked[-1].metadata["rerank_score"] == 0.0


async def test_reranker_without_lists_keeps_candidate_order() -> None:
    items = [page("x", score=0.1), page("y", score=0.9)]
    assert titles(await RRFReranker().arerank("q", items)) == ["x", "y"]


async def test_reranker_uses_item_weights_as_list_weights() -> None:
    """A list whose items carry a low trust weight counts less."""
    user, auto = page("user", weight=1.0), page("auto", weight=0.6)
    ranked = await RRFReranker().arerank("q", [auto, user], lists=[[auto], [user]])
    assert titles(ranked) == ["user", "auto"]


async def test_reranker_uses_configured_k_and_weights() -> None:
    config = SearchConfig.load(profile={"rerank": {"rrf_k": 1, "rrf_weights": [1.0, 3.0]}})
    reranker = RRFReranker.from_config(config)
    a, b = page("a"), page("b")
    ranked = await reranker.arerank("q", [a, b], lists=[[a], [b]])
    assert titles(ranked) == ["b", "a"]
    assert ranked[0].metadata["rerank_score"] == pytest.approx(3 / 2)


async def test_reranker_top_n() -> None:
    items = [page(n) for n in "abc"]
    assert titles(await RRFReranker().arerank("q", items, top_n=2)) == ["a", "b"]
