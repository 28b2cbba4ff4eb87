"""Weighted reciprocal-rank fusion of result lists whose scores are not comparable.

Each list adds ``weight / (k + rank)`` to every item it contains, rank counted
from 1 (``unified_search.fusion.reciprocal_rank`` over the items' keys). ``k``
damps the advantage of the very top ranks, so an item ranked well by several
lists beats one ranked first by a single list. An item that appears twice in
one list counts once, at its best rank, so a list cannot vote twice.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from unified_search.config.search import SearchConfig
from unified_search.dedup import dedup
from unified_search.fusion import RRF_K, reciprocal_rank
from unified_search.rerank.base import Lists, RerankerBase, cut, with_rerank_score
from unified_search.types import ResultItem

logger = logging.getLogger(__name__)

DEFAULT_K = RRF_K


def reciprocal_rank_fusion(
    lists: Sequence[Sequence[ResultItem]],
    *,
    weights: Sequence[float] | None = None,
    k: int = DEFAULT_K,
) -> list[ResultItem]:
    """Fuse ranked ``lists`` into one list, best first.

    Items are identified by ``ResultItem.key``; the kept copy is the one with the
    highest weight, then score (as the engine's deduplication keeps). Its own
    ``score`` is untouched and the fused score is ``metadata["rerank_score"]``.
    Ties go to the item with the best single rank, then to the earlier list.

    Example:
        >>> a, b, c = (ResultItem(type="kb", title=t) for t in "abc")
        >>> [i.title for i in reciprocal_rank_fusion([[a, b], [c, b]])]
        ['b', 'a', 'c']
    """
    fused = reciprocal_rank([[item.key for item in ranked] for ranked in lists], weights, k)
    kept = {item.key: item for item in dedup([item for ranked in lists for item in ranked])}
    return [with_rerank_score(kept[key], score) for key, score in fused]


class RRFReranker(RerankerBase):
    """Fuse the per-request lists by rank; every candidate is kept.

    Each list weighs ``rerank.rrf_weights[i]`` when set, otherwise the highest
    ``weight`` among its items (the trust in who asked, when the engine has
    stamped it; 1 otherwise). Without ``lists`` the candidate list itself is
    the only list, which keeps its order.

    Example:
        >>> import asyncio
        >>> a, b = ResultItem(type="kb", title="a"), ResultItem(type="kb", title="b")
        >>> [i.title for i in asyncio.run(RRFReranker().arerank("q", [a, b], lists=[[b], [b, a]]))]
        ['b', 'a']
    """

    name = "rrf"

    def __init__(self, k: int = DEFAULT_K, weights: Sequence[float] | None = None) -> None:
        if k < 1:
            raise ValueError("k must be at least 1")
        self.k = k
        self.weights = list(weights) if weights is not None else None

    @classmethod
    def from_config(cls, config: SearchConfig) -> RRFReranker:
        """Build from ``rerank.rrf_k`` and ``rerank.rrf_weights``."""
        return cls(config.rerank.rrf_k, config.rerank.rrf_weights)

    async def _order(
        self, query: str, items: Sequence[ResultItem], top_n: int | None, lists: Lists
    ) -> list[ResultItem]:
        """Return the candidates in fused order; candidates in no list follow in their order."""
        sources = [list(ranked) for ranked in lists or [] if ranked] or [list(items)]
        fused = reciprocal_rank_fusion(sources, weights=self._weights(sources), k=self.k)
        scores = {item.key: item.metadata["rerank_score"] for item in fused}
        candidates = {item.key: item for item in items}
        order = [key for key in scores if key in candidates]
        order += [key for key in candidates if key not in scores]
        return cut(
            [with_rerank_score(candidates[key], scores.get(key, 0.0)) for key in order], top_n
        )

    def _weights(self, sources: Sequence[Sequence[ResultItem]]) -> list[float]:
        if self.weights is not None and len(self.weights) == len(sources):
            return self.weights
        if self.weights is not None:
            logger.warning(
                "rerank.rrf_weights has %d weights for %d lists; using the items' weights",
                len(self.weights),
                len(sources),
            )
        return [max(item.weight for item in ranked) for ranked in sources]
