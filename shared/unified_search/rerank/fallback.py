"""Keep a search answering when its reranker fails: fall back to the weighted order."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from unified_search.rerank.base import Lists, Reranker, RerankerBase
from unified_search.rerank.weighted import weighted_order
from unified_search.types import ResultItem

logger = logging.getLogger(__name__)


class FallbackReranker(RerankerBase):
    """Run ``inner``; if it raises, log a warning and return the ``weighted`` order.

    A bad ``top_n`` is still an error: it is the caller's mistake, not the reranker's.

    Example:
        >>> from unified_search.rerank.rrf import RRFReranker
        >>> FallbackReranker(RRFReranker()).name
        'rrf'
    """

    def __init__(self, inner: Reranker) -> None:
        self.inner = inner
        self.name = inner.name

    async def _order(
        self, query: str, items: Sequence[ResultItem], top_n: int | None, lists: Lists
    ) -> list[ResultItem]:
        """Rerank with ``inner``, or by ``score × weight`` when it fails."""
        try:
            return await self.inner.arerank(query, items, top_n=top_n, lists=lists)
        except Exception as exc:  # any reranker failure degrades to the default order
            logger.warning("reranker %r failed (%s); using the weighted order", self.name, exc)
            return weighted_order(items, top_n)
