"""Combine the dense and the lexical ranking of one collection as ``kb.hybrid`` says.

``convex`` (the default) keeps how far apart the scores are, which plain
reciprocal-rank fusion throws away. Its ``max`` scale divides by the query's
best score and keeps 0 as the floor: cosine similarity and BM25 both have a
natural zero, so a query whose candidates are all weak on one side is not
stretched into a full 0..1 range there. The functions themselves live in
``unified_search.fusion``; the figures behind the defaults are in
``benchmarks/kb.py``.
"""

from __future__ import annotations

from unified_search.config.kb import HybridConfig
from unified_search.fusion import Fused, Ranking, convex, maxscale, minmax, reciprocal_rank


def fuse(dense: Ranking, lexical: Ranking, config: HybridConfig) -> Fused:
    """Apply the configured fusion to one collection's two rankings."""
    scale = maxscale if config.scale == "max" else minmax
    if config.fusion == "dense":
        return list(zip(dense.ids, dense.scores, strict=True))
    if config.fusion == "lexical":
        return list(zip(lexical.ids, scale(lexical.scores), strict=True))
    weights = [config.dense_weight, 1.0 - config.dense_weight]
    if config.fusion == "rrf":
        return reciprocal_rank([dense.ids, lexical.ids], weights, config.rrf_k)
    return convex([dense, lexical], weights, scale)
