"""One item per page, document or row: the same thing found twice is kept once, at its best."""

from __future__ import annotations

from collections.abc import Sequence

from unified_search.types import ResultItem
from unified_search.urls import secure_url


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
