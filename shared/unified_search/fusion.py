"""Rank fusion: turn several rankings of the same kind of thing into one order.

Pure functions over IDs and scores, shared by the knowledge base (dense +
lexical rankings of one collection) and the rerankers (result lists of several
requests); it imports neither.

- ``convex``: each ranking's scores are put on 0..1 (``maxscale`` or
  ``minmax``) and summed with weights; an ID missing from a ranking gets 0
  there. It keeps how far apart the scores are.
- ``reciprocal_rank``: each ranking adds ``weight / (k + rank)`` to every ID
  it holds, rank counted from 1 (Cormack, Clarke and Büttcher, 2009, with
  ``k = 60``); only the order counts, so scores on any scale mix.

Ties go to the ID with the best single rank, then to the earlier ranking
holding that rank, then to the smaller ID, so one input always gives one order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

Scale = Callable[[Sequence[float]], list[float]]
Fused = list[tuple[str, float]]

#: The rank offset of reciprocal-rank fusion in the original paper.
RRF_K = 60


@dataclass(frozen=True)
class Ranking:
    """IDs best first with their scores (any scale).

    Example:
        >>> Ranking(["a", "b"], [2.0, 1.0]).ids
        ['a', 'b']
    """

    ids: list[str]
    scores: list[float]


def minmax(scores: Sequence[float]) -> list[float]:
    """Scale scores to 0..1, the lowest to 0; a single or constant list maps to 1.

    Example:
        >>> minmax([3.0, 2.0, 1.0])
        [1.0, 0.5, 0.0]
    """
    if not scores:
        return []
    low, high = min(scores), max(scores)
    if high <= low:
        return [1.0] * len(scores)
    return [(s - low) / (high - low) for s in scores]


def maxscale(scores: Sequence[float]) -> list[float]:
    """Scale scores to 0..1 by the largest, 0 staying 0 (negative scores clip to 0).

    Example:
        >>> maxscale([4.0, 1.0, 0.0])
        [1.0, 0.25, 0.0]
    """
    high = max(scores, default=0.0)
    if high <= 0:
        return [0.0] * len(scores)
    return [max(s, 0.0) / high for s in scores]


def convex(rankings: Sequence[Ranking], weights: Sequence[float], scale: Scale = maxscale) -> Fused:
    """Weighted sum of each ranking's scores after ``scale``, best first.

    Example:
        >>> convex([Ranking(["a", "b"], [2.0, 1.0]), Ranking(["b"], [5.0])], [0.5, 0.5])
        [('b', 0.75), ('a', 0.5)]
    """
    weights = check_weights(len(rankings), weights)
    fused: dict[str, float] = {}
    for ranking, weight in zip(rankings, weights, strict=True):
        for id_, score in zip(ranking.ids, scale(ranking.scores), strict=True):
            fused[id_] = fused.get(id_, 0.0) + weight * score
    return _ordered(fused, rankings)


def reciprocal_rank(
    rankings: Sequence[Sequence[str]], weights: Sequence[float] | None = None, k: int = RRF_K
) -> Fused:
    """Weighted reciprocal-rank fusion of ID lists, best first.

    An ID listed twice in one ranking counts once, at its best rank, so a ranking
    cannot vote twice.

    Example:
        >>> [id_ for id_, _ in reciprocal_rank([["a", "b"], ["c", "b"]])]
        ['b', 'a', 'c']
    """
    if k < 1:
        raise ValueError("k must be at least 1")
    weights = check_weights(len(rankings), weights)
    unique = [list(dict.fromkeys(ids)) for ids in rankings]
    fused: dict[str, float] = {}
    for ids, weight in zip(unique, weights, strict=True):
        for rank, id_ in enumerate(ids, start=1):
            fused[id_] = fused.get(id_, 0.0) + weight / (k + rank)
    return _ordered(fused, [Ranking(ids, [0.0] * len(ids)) for ids in unique])


def check_weights(count: int, weights: Sequence[float] | None) -> list[float]:
    """One non-negative weight per ranking (all 1 when ``None``), or ``ValueError``."""
    if weights is None:
        return [1.0] * count
    if len(weights) != count:
        raise ValueError(f"{len(weights)} weights for {count} lists")
    if any(w < 0 for w in weights):
        raise ValueError("list weights must not be negative")
    return [float(w) for w in weights]


def _ordered(fused: dict[str, float], rankings: Sequence[Ranking]) -> Fused:
    best: dict[str, tuple[int, int]] = {}
    for index, ranking in enumerate(rankings):
        for rank, id_ in enumerate(ranking.ids):
            best[id_] = min(best.get(id_, (rank, index)), (rank, index))
    order = sorted(fused, key=lambda id_: (-fused[id_], best[id_], id_))
    return [(id_, fused[id_]) for id_ in order]
