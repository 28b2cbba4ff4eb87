"""Merge the results of several requests into one deduplicated candidate list."""

from __future__ import annotations

from collections.abc import Sequence

from unified_search.config.search import Weights
from unified_search.dedup import dedup
from unified_search.engine.mirrors import merge_mirrors
from unified_search.types import ResultItem, SearchResult, SearchType, Source


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


def merge(results: Sequence[SearchResult | None], weights: Weights) -> list[ResultItem]:
    """Weigh every finished result's items, deduplicate them, and merge mirrors of one document."""
    items = dedup([item for r in results if r is not None for item in weighted_items(r, weights)])
    return merge_mirrors(items)
