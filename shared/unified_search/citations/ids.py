"""Citation IDs: ``ref_001`` ... in final rank order, unique within one citation scope.

IDs are unique within one citation scope (the ``request_id`` of a search), even
across several searches made in it; the same item cited twice in one scope keeps
its first ID. The allocators here keep the numbering in memory;
``unified_search.citations.numbering`` persists it in a record store.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence

from unified_search.types import ResultItem, Source, citation_id, citation_index


class CitationAllocator:
    """Hand out ``ref_NNN`` IDs for one citation scope in memory; safe across threads and tasks.

    The counter only goes up, so an ID is never handed out twice. The IDs of the
    ``remember`` most recently cited items are kept, so the same item cited again
    keeps its ID; an item forgotten beyond that gets a new one (never an old one).
    """

    def __init__(self, remember: int = 4096) -> None:
        self._lock = threading.Lock()
        self._remember = remember
        self._ids: OrderedDict[str, int] = OrderedDict()
        self._last = 0
        self._user_count = 0

    def assign(self, items: Iterable[ResultItem]) -> list[ResultItem]:
        """Return copies of ``items`` carrying their citation IDs, in the given order."""
        listed = list(items)
        indices = self.take([item.key for item in listed], listed)
        return [
            item.model_copy(update={"citation_id": citation_id(indices[item.key])})
            for item in listed
        ]

    def take(self, keys: Sequence[str], items: Sequence[ResultItem] = ()) -> dict[str, int]:
        """Return the index of every key, numbering the unknown ones after the last index."""
        user = {item.key for item in items if item.source is Source.USER}
        with self._lock:
            for key in keys:
                if key not in self._ids:
                    self._last += 1
                    self._user_count += key in user
                self._keep(key, self._ids.get(key, self._last))
            return {key: self._ids[key] for key in keys}

    def known(self, keys: Iterable[str]) -> dict[str, int]:
        """Return the indices this allocator remembers for ``keys`` (unknown keys are left out)."""
        with self._lock:
            return {key: self._ids[key] for key in keys if key in self._ids}

    def learn(self, indices: Mapping[str, int], items: Sequence[ResultItem] = ()) -> None:
        """Adopt indices handed out elsewhere (the store), raising the counter past them."""
        user = {item.key for item in items if item.source is Source.USER}
        with self._lock:
            for key, index in indices.items():
                self._user_count += key not in self._ids and key in user
                self._keep(key, index)
                self._last = max(self._last, index)

    def _keep(self, key: str, index: int) -> None:
        self._ids[key] = index
        self._ids.move_to_end(key)
        while len(self._ids) > self._remember:
            self._ids.popitem(last=False)

    @property
    def last(self) -> int:
        """The highest index handed out (0 before the first)."""
        return self._last

    @property
    def count(self) -> int:
        """How many references this scope has cited (the highest index)."""
        return self._last

    @property
    def user_count(self) -> int:
        """How many of them came from user-requested searches."""
        return self._user_count


class CitationRegistry:
    """One allocator per citation scope, forgetting the least recently used beyond ``capacity``.

    A forgotten scope restarts at ``ref_001`` in memory: keep the numbering of
    long-lived scopes in a record store (see ``unified_search.citations.numbering``).
    """

    def __init__(self, capacity: int = 4096) -> None:
        self._lock = threading.Lock()
        self._capacity = capacity
        self._allocators: OrderedDict[str, CitationAllocator] = OrderedDict()

    def for_request(self, request_id: str) -> CitationAllocator:
        """Return the allocator of ``request_id``, creating it on first use."""
        with self._lock:
            allocator = self._allocators.pop(request_id, None) or CitationAllocator()
            self._allocators[request_id] = allocator
            while len(self._allocators) > self._capacity:
                self._allocators.popitem(last=False)
            return allocator


def cite_together(items: Iterable[ResultItem]) -> list[ResultItem]:
    """Give items gathered from several places citation IDs that are unique among them.

    Items may come from different searches, scopes or loaders (an ensemble of
    retrievers, a user's documents next to search results). An item keeps its
    citation ID unless an earlier, different item holds it, so IDs a search
    handed out still resolve in the record store; the others, and items without
    an ID, are numbered after the highest ID in use, in the order given. The same
    item given twice gets the same ID. Nothing is dropped.

    Example:
        >>> a = ResultItem(type="kb", document_id="a", citation_id="ref_001")
        >>> b = ResultItem(type="kb", document_id="b", citation_id="ref_001")
        >>> [item.citation_id for item in cite_together([a, b, ResultItem(type="kb", content="c")])]
        ['ref_001', 'ref_002', 'ref_003']
    """
    listed = [(_identity(item), item) for item in items]
    first: dict[str, ResultItem] = {}
    for key, item in listed:
        first.setdefault(key, item)
    holders: dict[str, str] = {}
    for key, item in first.items():
        if item.citation_id is not None and _valid_id(item.citation_id):
            holders.setdefault(item.citation_id, key)
    last = max((citation_index(cid) for cid in holders), default=0)
    ids: dict[str, str] = {}
    for key, item in first.items():
        if item.citation_id is not None and holders.get(item.citation_id) == key:
            ids[key] = item.citation_id
        else:
            last += 1
            ids[key] = citation_id(last)
    return [
        item if item.citation_id == ids[key] else item.model_copy(update={"citation_id": ids[key]})
        for key, item in listed
    ]


def _identity(item: ResultItem) -> str:
    """What makes two given items the same: their key, and their metadata when they have no ID.

    Two loader documents with the same text but different sources stay two references.
    """
    if item.url or item.document_id or item.record_id is not None:
        return item.key
    return item.key + json.dumps(item.metadata, sort_keys=True, default=repr)


def _valid_id(cid: str) -> bool:
    try:
        citation_index(cid)
    except ValueError:
        return False
    return True
