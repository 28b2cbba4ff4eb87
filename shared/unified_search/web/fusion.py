"""Merge the answers of several providers into one list, one item per page.

Pages are matched by canonical URL (``unified_search.urls``). The merged item
keeps the best-scored copy's title, its URL (or an ``https`` one when the
best copy's is ``http``), the longest snippet, and lists every provider that
found the page in ``metadata.providers``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from unified_search.dedup import agreeing_providers
from unified_search.types import ResultItem
from unified_search.urls import secure_url


def fuse(lists: Sequence[Sequence[ResultItem]], limit: int) -> list[ResultItem]:
    """Merge ``lists`` by page, order by best score (ties keep first-seen order), keep ``limit``.

    Example:
        >>> a = ResultItem(type="web", url="https://x.io/a", score=0.4, metadata={"providers": ["tavily"]})
        >>> b = ResultItem(type="web", url="http://www.x.io/a/?utm_source=feed", score=0.9, metadata={"providers": ["exa"]})
        >>> [i.metadata["providers"] for i in fuse([[a], [b]], 10)]
        [['tavily', 'exa']]
    """
    groups: dict[str, list[ResultItem]] = {}
    for items in lists:
        for item in items:
            groups.setdefault(item.key, []).append(item)
    merged = [combine(group) for group in groups.values()]
    merged.sort(key=lambda item: item.score, reverse=True)
    return merged[:limit]


def combine(group: Sequence[ResultItem]) -> ResultItem:
    """Fold copies of one page into a single item."""
    best = max(group, key=lambda item: item.score)
    if len(group) == 1:
        return best
    metadata: dict[str, Any] = {}
    for item in reversed(group):  # the best copy's values win, others only fill gaps
        metadata.update(item.metadata)
    metadata.update(best.metadata)
    metadata["providers"] = agreeing_providers(group)
    content = max((item.content for item in group), key=len)
    url = best.url
    for item in group:
        url = secure_url(url, item.url)
    return best.model_copy(update={"content": content, "metadata": metadata, "url": url})
