"""The reranker contract."""

from __future__ import annotations

from abc import ABC, abstractmethod
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

    async def arerank(
        self,
        query: str,
        items: Sequence[ResultItem],
        *,
        top_n: int | None = None,
        lists: Sequence[Sequence[ResultItem]] | None = None,
    ) -> list[ResultItem]:
        """Return ``items`` in a new order, cut to ``top_n``."""
        ...


Lists = Sequence[Sequence[ResultItem]] | None
"""The per-request lists before merging (``None`` when the caller has none)."""


class RerankerBase(ABC):
    """The input guard every reranker shares: a bad ``top_n`` is refused, empty input answered at once.

    A reranker implements ``_order`` only and is called through ``arerank``.
    """

    name: str

    async def arerank(
        self,
        query: str,
        items: Sequence[ResultItem],
        *,
        top_n: int | None = None,
        lists: Lists = None,
    ) -> list[ResultItem]:
        """Return ``items`` in a new order, cut to ``top_n``."""
        check_top_n(top_n)
        if not items:
            return []
        return await self._order(query, items, top_n, lists)

    @abstractmethod
    async def _order(
        self, query: str, items: Sequence[ResultItem], top_n: int | None, lists: Lists
    ) -> list[ResultItem]:
        """Order ``items`` (never empty; ``top_n`` already checked)."""


def check_top_n(top_n: int | None) -> None:
    """Refuse a ``top_n`` below 1 before any work is done."""
    if top_n is not None and top_n < 1:
        raise ValueError("top_n must be at least 1")


def cut(items: list[ResultItem], top_n: int | None) -> list[ResultItem]:
    """Keep the first ``top_n`` items (all of them when ``top_n`` is ``None``)."""
    check_top_n(top_n)
    return items if top_n is None else items[:top_n]


def with_rerank_score(item: ResultItem, score: float, **extra: object) -> ResultItem:
    """Return a copy of ``item`` carrying ``score`` as its rerank score (and any ``extra`` metadata)."""
    return item.model_copy(update={"metadata": {**item.metadata, **extra, "rerank_score": score}})


def ranked_by(
    items: Sequence[ResultItem], scores: Sequence[float], top_n: int | None, **extra: object
) -> list[ResultItem]:
    """Order ``items`` by descending ``scores`` (ties keep their order), stamped and cut.

    Example:
        >>> a, b = ResultItem(type="kb", title="a"), ResultItem(type="kb", title="b")
        >>> [i.title for i in ranked_by([a, b], [0.1, 0.9], None)]
        ['b', 'a']
    """
    if len(items) != len(scores):
        raise ValueError(f"{len(scores)} scores for {len(items)} items")
    order = sorted(range(len(items)), key=lambda i: (-scores[i], i))
    return cut([with_rerank_score(items[i], float(scores[i]), **extra) for i in order], top_n)


def passage(item: ResultItem, max_chars: int | None = None) -> str:
    """The text a reranker judges: the title and the content, optionally shortened."""
    text = f"{item.title}\n{item.content}".strip()
    return text if max_chars is None else text[:max_chars]
