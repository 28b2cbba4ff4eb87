from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from unified_search.fusion import (
    Ranking,
    check_weights,
    convex,
    maxscale,
    minmax,
    reciprocal_rank,
)

ids = st.lists(st.sampled_from("abcdefgh"), unique=True, max_size=8)
scores = st.floats(min_value=-5, max_value=50, allow_nan=False)


def rankings(draw: st.DrawFn) -> Ranking:
    chosen = draw(ids)
    return Ranking(chosen, draw(st.lists(scores, min_size=len(chosen), max_size=len(chosen))))


ranking = st.composite(rankings)()


def test_minmax_edges() -> None:
    assert minmax([]) == []
    assert minmax([3.0]) == [1.0]
    assert minmax([1.0, 3.0, 2.0]) == [0.0, 1.0, 0.5]


def test_maxscale_keeps_zero_as_the_floor() -> None:
    assert maxscale([]) == []
    assert maxscale([0.0, 0.0]) == [0.0, 0.0]
    assert maxscale([4.0, 2.0, -1.0]) == [1.0, 0.5, 0.0]


def test_convex_keeps_score_gaps_and_breaks_ties_by_best_rank() -> None:
    dense = Ranking(["a", "b", "c"], [0.9, 0.85, 0.1])
    lexical = Ranking(["c", "b", "a"], [10.0, 9.0, 1.0])
    fused = convex([dense, lexical], [0.5, 0.5], minmax)
    # a and c tie at 0.5, both first somewhere: the earlier ranking's first wins.
    assert [i for i, _ in fused] == ["b", "a", "c"]
    assert fused[0][1] == pytest.approx(0.5 * 0.75 / 0.8 + 0.5 * 8 / 9)


@given(st.lists(ranking, min_size=1, max_size=3), st.data())
def test_convex_covers_the_union_within_the_weight_total(
    found: list[Ranking], data: st.DataObject
) -> None:
    weights = data.draw(st.lists(st.floats(0, 1), min_size=len(found), max_size=len(found)))
    fused = convex(found, weights)
    assert {i for i, _ in fused} == {i for r in found for i in r.ids}
    assert all(-1e-9 <= s <= sum(weights) + 1e-9 for _, s in fused)
    assert [s for _, s in fused] == sorted((s for _, s in fused), reverse=True)


@given(st.lists(ids, min_size=1, max_size=4))
def test_reciprocal_rank_counts_each_list_once_per_id(lists: list[list[str]]) -> None:
    doubled = [[*chosen, *chosen] for chosen in lists]
    assert reciprocal_rank(doubled) == reciprocal_rank(lists)


def test_reciprocal_rank_rewards_agreement_and_honours_weights() -> None:
    assert [i for i, _ in reciprocal_rank([["a", "b"], ["c", "b"]])] == ["b", "a", "c"]
    assert [i for i, _ in reciprocal_rank([["a"], ["c"]], [1.0, 2.0])] == ["c", "a"]
    assert reciprocal_rank([["a"]], k=1) == [("a", 0.5)]


@pytest.mark.parametrize(
    ("count", "weights", "message"),
    [(2, [1.0], "1 weights for 2 lists"), (1, [-1.0], "must not be negative")],
)
def test_bad_weights_are_refused(count: int, weights: list[float], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        check_weights(count, weights)


def test_reciprocal_rank_needs_a_positive_k() -> None:
    with pytest.raises(ValueError, match="k must be at least 1"):
        reciprocal_rank([["a"]], k=0)
