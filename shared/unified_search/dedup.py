"""One item per page, document or row: the same thing found twice is kept once, at its best.

The web providers that found a page, in ``metadata.providers``, add up: a page
Brave found for one sub-query and Exa for another is kept once as found by both.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from unified_search.types import ResultItem
from unified_search.urls import secure_url


def dedup(items: Sequence[ResultItem]) -> list[ResultItem]:
    """Keep one item per identity: the highest weight, then the highest score, then the first seen.

    The survivor takes the position of the first occurrence, so the merged order
    stays stable, the ``https`` URL of a page found under both schemes, and the
    providers of every copy.

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
        best[key] = _kept(winner, other)
    return list(best.values())


def _kept(winner: ResultItem, other: ResultItem | None) -> ResultItem:
    """``winner`` with ``other``'s https URL and providers, copied only when they add something."""
    changes: dict[str, object] = {}
    url = secure_url(winner.url, other.url if other else None)
    if url != winner.url:
        changes["url"] = url
    if other is not None:
        providers = agreeing_providers([winner, other])
        if providers != winner.metadata.get("providers", providers):
            changes["metadata"] = {**winner.metadata, "providers": providers}
    return winner.model_copy(update=changes) if changes else winner


def agreeing_providers(copies: Iterable[ResultItem]) -> list[str]:
    """Every provider that found one of ``copies`` (``metadata.providers`` or ``provider``), once.

    Example:
        >>> a = ResultItem(type="web", metadata={"providers": ["brave"]})
        >>> agreeing_providers([a, ResultItem(type="web", metadata={"provider": "exa"})])
        ['brave', 'exa']
    """
    names: list[str] = []
    for item in copies:
        for name in item.metadata.get("providers") or [item.metadata.get("provider")]:
            if isinstance(name, str) and name not in names:
                names.append(name)
    return names
