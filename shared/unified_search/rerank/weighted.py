"""The default reranker: the source's relevance times the trust in who asked."""

from __future__ import annotations

from collections.abc import Sequence

from unified_search.rerank.base import Lists, RerankerBase, cut, with_rerank_score
from unified_search.types import ResultItem


class WeightedReranker(RerankerBase):
    """Order by ``score × weight``; ties keep their incoming order.

    Example:
        >>> import asyncio
        >>> items = [ResultItem(type="kb", title="a", score=0.9, weight=0.6),
        ...          ResultItem(type="kb", title="b", score=0.7, weight=1.0)]
        >>> [i.title for i in asyncio.run(WeightedReranker().arerank("q", items))]
        ['b', 'a']
    """

    name = "weighted"

    async def _order(
        self, query: str, items: Sequence[ResultItem], top_n: int | None, lists: Lists
    ) -> list[ResultItem]:
        """Return the items by descending ``score × weight``."""
        return weighted_order(items, top_n)


def weighted_order(items: Sequence[ResultItem], top_n: int | None = None) -> list[ResultItem]:
    """Sort by ``score × weight`` (stable), cut to ``top_n`` and record the product."""
    ranked = sorted(enumerate(items), key=lambda pair: (-(pair[1].score * pair[1].weight), pair[0]))
    kept = cut([item for _, item in ranked], top_n)
    return [with_rerank_score(item, item.score * item.weight) for item in kept]
