"""Merge the results of several requests into one deduplicated candidate list."""

from __future__ import annotations

from collections.abc import Sequence

from unified_search.config.search import Weights
from unified_search.types import ResultItem, SearchResult, SearchType, Source
from unified_search.urls import secure_url


def weighted_items(result: SearchResult, weights: Weights) -> list[ResultItem]:
    """Stamp each item of ``result`` with the result's source and that source's weight."""
    weight = weights.of(result.source)
    return [stamped(item, result.source, weight) for item in result.items]


def stamped(
    item: ResultItem, source: Source, weight: float, type_: SearchType | None = None
) -> ResultItem:
    """Return ``item`` with this source, weight (and type): one copy, none when it has them."""
    changes: dict[str, object] = {}
    if type_ is not None and item.type is not type_:
        changes["type"] = type_
    if item.weight != weight or item.source is not source:
        changes |= {"weight": weight, "source": source}
    return item.model_copy(update=changes) if changes else item


def dedup(items: Sequence[ResultItem]) -> list[ResultItem]:
    """Keep one item per identity: the highest weight, then the highest score, then the first seen.

    The survivor takes the position of the first occurrence, so the merged order
    stays stable, and the ``https`` URL of a page found under both schemes.

    Example:
        >>> a = ResultItem(type="web", url="https://x.io/a?utm_source=feed", weight=0.6)
        >>> b = ResultItem(type="web", url="http://x.io/a/", weight=1.0)
        >>> [(i.url, i.weight) for i in dedup([a, b])]
        [('https://x.io/a?utm_source=feed', 1.0)]
    """
    best: dict[str, ResultItem] = {}
    for item in items:
        key = item.key
        kept = best.get(key)
        if kept is None or (item.weight, item.score) > (kept.weight, kept.score):
            winner, other = item, kept
        else:
            winner, other = kept, item
        url = secure_url(winner.url, other.url if other else None)
        best[key] = winner if url == winner.url else winner.model_copy(update={"url": url})
    return list(best.values())


def merge(results: Sequence[SearchResult | None], weights: Weights) -> list[ResultItem]:
    """Weigh every finished result's items and deduplicate them across results."""
    return dedup([item for r in results if r is not None for item in weighted_items(r, weights)])
