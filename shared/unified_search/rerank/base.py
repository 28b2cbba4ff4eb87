"""The reranker contract."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from unified_search.types import ResultItem


@runtime_checkable
class Reranker(Protocol):
    """Order candidates for a query and keep the best ``top_n``.

    A reranker returns new items (never changes its input), keeps every item
    unless ``top_n`` cuts it, and records its score in ``metadata["rerank_score"]``.
    ``lists`` carries the per-request lists before merging, for rerankers that
    fuse ranks rather than scores.
    """

    name: str

    async def rerank(
        self,
        query: str,
        items: Sequence[ResultItem],
        *,
        top_n: int | None = None,
        lists: Sequence[Sequence[ResultItem]] | None = None,
    ) -> list[ResultItem]:
        """Return ``items`` in a new order, cut to ``top_n``."""
        ...


def cut(items: list[ResultItem], top_n: int | None) -> list[ResultItem]:
    """Keep the first ``top_n`` items (all of them when ``top_n`` is ``None``)."""
    if top_n is not None and top_n < 1:
        raise ValueError("top_n must be at least 1")
    return items if top_n is None else items[:top_n]


def with_rerank_score(item: ResultItem, score: float) -> ResultItem:
    """Return a copy of ``item`` carrying ``score`` as its rerank score."""
    return item.model_copy(update={"metadata": {**item.metadata, "rerank_score": score}})
