"""Combine the dense and the lexical ranking of one collection into one.

``convex`` (the default) puts each ranking's scores on 0..1 and sums them
with weights; a chunk missing from one ranking gets 0 there. It keeps how far
apart the scores are, which plain reciprocal-rank fusion throws away: on
SciFact it ranked best (see ``benchmarks/kb.py``). The scale divides by the
query's best score and keeps 0 as the floor (``max``, the default): cosine
similarity and BM25 both have a natural zero, so a query whose candidates are
all weak on one side is not stretched into a full 0..1 range there.
``minmax`` also maps the lowest candidate to 0. ``rrf`` uses the rerank
module's reciprocal-rank fusion when it is installed (its ties go to the best
single rank), else the local one below. Other ties are broken by ID so one
corpus gives one order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from unified_search.kb.config import HybridConfig


@dataclass(frozen=True)
class Ranking:
    """IDs best first with their scores (any scale)."""

    ids: list[str]
    scores: list[float]


def minmax(scores: Sequence[float]) -> list[float]:
    """Scale scores to 0..1; a single or constant list maps to 1."""
    if not scores:
        return []
    low, high = min(scores), max(scores)
    if high <= low:
        return [1.0] * len(scores)
    return [(s - low) / (high - low) for s in scores]


def maxscale(scores: Sequence[float]) -> list[float]:
    """Scale scores to 0..1 by the largest, 0 staying 0 (negative scores clip to 0)."""
    high = max(scores, default=0.0)
    if high <= 0:
        return [0.0] * len(scores)
    return [max(s, 0.0) / high for s in scores]


def convex_fusion(
    rankings: Sequence[Ranking],
    weights: Sequence[float],
    scale: Callable[[Sequence[float]], list[float]] = maxscale,
) -> list[tuple[str, float]]:
    """Weighted sum of the scores after ``scale`` (per ranking), best first."""
    fused: dict[str, float] = {}
    for ranking, weight in zip(rankings, weights, strict=True):
        for id_, score in zip(ranking.ids, scale(ranking.scores), strict=True):
            fused[id_] = fused.get(id_, 0.0) + weight * score
    return _sorted(fused)


def local_rrf(
    rankings: Sequence[Ranking], weights: Sequence[float], k: int
) -> list[tuple[str, float]]:
    """Weighted reciprocal-rank fusion: ``sum(w / (k + rank))`` with 1-based ranks."""
    fused: dict[str, float] = {}
    for ranking, weight in zip(rankings, weights, strict=True):
        for rank, id_ in enumerate(ranking.ids, start=1):
            fused[id_] = fused.get(id_, 0.0) + weight / (k + rank)
    return _sorted(fused)


def rrf_fusion(
    rankings: Sequence[Ranking], weights: Sequence[float], k: int
) -> list[tuple[str, float]]:
    """Reciprocal-rank fusion from ``unified_search.rerank.rrf`` when present, else the local one."""
    shared = _shared_rrf()
    if shared is None:
        return local_rrf(rankings, weights, k)
    from unified_search.types import ResultItem, SearchType

    lists = [[ResultItem(type=SearchType.KB, document_id=i) for i in r.ids] for r in rankings]
    fused = shared(lists, weights=list(weights), k=k)
    return [(str(item.document_id), float(item.metadata["rerank_score"])) for item in fused]


def fuse(dense: Ranking, lexical: Ranking, config: HybridConfig) -> list[tuple[str, float]]:
    """Apply the configured fusion to one collection's two rankings."""
    scale = maxscale if config.scale == "max" else minmax
    if config.fusion == "dense":
        return list(zip(dense.ids, dense.scores, strict=True))
    if config.fusion == "lexical":
        return list(zip(lexical.ids, scale(lexical.scores), strict=True))
    weights = [config.dense_weight, 1.0 - config.dense_weight]
    if config.fusion == "rrf":
        return rrf_fusion([dense, lexical], weights, config.rrf_k)
    return convex_fusion([dense, lexical], weights, scale)


def _sorted(fused: dict[str, float]) -> list[tuple[str, float]]:
    return sorted(fused.items(), key=lambda kv: (-kv[1], kv[0]))


def _shared_rrf() -> Any:
    try:
        from unified_search.rerank.rrf import reciprocal_rank_fusion
    except ImportError:
        return None
    return reciprocal_rank_fusion
