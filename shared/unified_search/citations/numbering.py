"""Citation numbering per scope: in memory, and persisted when a record store is configured.

Without a store the numbering lives in this process only (see
``CitationRegistry``): a restart, or another process, starts a scope again at
``ref_001``. With a store every number is kept in its citation ledger, so two
processes continuing one scope never hand out the same ID and a restart goes on
where the scope stopped.

A scope the engine generated itself (``new_scope``) is known to nobody else
until its first answer is out, so its first numbering is done in memory with no
database round trip of its own and written afterwards, before the answer, with
the search record (``SearchStore.arecord``; ``aremember`` writes it alone). Every later numbering of any scope goes
through the store in one short transaction. When the store fails, numbering
continues in memory, above every index this process has seen, and the result
says the IDs were not persisted.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from unified_search._random_ids import random_hex
from unified_search.citations.ids import CitationAllocator, CitationRegistry
from unified_search.contract.store import CitationLedger
from unified_search.errors import SearchError
from unified_search.types import ResultItem, citation_id, citation_index

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Numbered:
    """Items with their citation IDs, and whether the numbering is persisted.

    ``persisted`` is ``None`` without a store. ``unwritten`` holds the indices
    numbered in memory for a fresh scope, to be written with ``Numbering.aremember``.
    """

    items: list[ResultItem]
    persisted: bool | None = None
    problem: SearchError | None = None
    """Why the store could not number the items (they were numbered in memory)."""
    unwritten: dict[str, int] = field(default_factory=dict)


class Numbering:
    """Hand out citation IDs per scope, persisted in ``ledger`` when there is one.

    Example:
        >>> numbering = Numbering()
        >>> scope = numbering.new_scope()
        >>> len(scope)
        32
    """

    def __init__(
        self, ledger: CitationLedger | None = None, *, fresh_capacity: int = 65536
    ) -> None:
        self.ledger = ledger
        self._memory = CitationRegistry()
        self._lock = threading.Lock()
        self._fresh: OrderedDict[str, None] = OrderedDict()
        self._fresh_capacity = fresh_capacity

    def new_scope(self) -> str:
        """Return a fresh random scope; its first numbering needs no store round trip."""
        scope = random_hex()
        with self._lock:
            self._fresh[scope] = None
            while len(self._fresh) > self._fresh_capacity:
                self._fresh.popitem(last=False)
        return scope

    def allocator(self, scope: str) -> CitationAllocator:
        """The in-memory numbering of ``scope`` (what this process has seen of it)."""
        return self._memory.for_request(scope)

    async def anumber(self, scope: str, items: Sequence[ResultItem]) -> Numbered:
        """Give ``items`` their citation IDs in ``scope``, in the given order."""
        allocator = self.allocator(scope)
        if self.ledger is None:
            return Numbered(allocator.assign(items))
        if self._take_fresh(scope):
            cited = allocator.assign(items)
            unwritten = {item.key: citation_index(item.citation_id or "") for item in cited}
            return Numbered(cited, persisted=True, unwritten=unwritten)
        try:
            indices = await self._from_ledger(self.ledger, scope, allocator, items)
        except SearchError as exc:
            logger.error("citation IDs of %s kept in memory only: %s", scope, exc)
            return Numbered(allocator.assign(items), persisted=False, problem=exc)
        return Numbered(_with_ids(items, indices), persisted=True)

    async def aremember(self, scope: str, indices: Mapping[str, int]) -> str | None:
        """Write the in-memory numbering of a fresh scope; return the problem if it failed."""
        if self.ledger is None or not indices:
            return None
        try:
            await self.ledger.aremember_citations(scope, indices)
        except SearchError as exc:
            logger.error("citation IDs of %s kept in memory only: %s", scope, exc)
            return str(exc)
        return None

    def _take_fresh(self, scope: str) -> bool:
        """Tell whether ``scope`` is still unknown to others (true once only)."""
        with self._lock:
            if scope not in self._fresh:
                return False
            del self._fresh[scope]
            return True

    async def _from_ledger(
        self,
        ledger: CitationLedger,
        scope: str,
        allocator: CitationAllocator,
        items: Sequence[ResultItem],
    ) -> dict[str, int]:
        # Indices this process handed out but may not have written yet (a fresh scope whose
        # write is on its way) are reused as they are, and new ones start above them.
        keys = [item.key for item in items]
        local = allocator.known(keys)
        missing = [key for key in keys if key not in local]
        stored = await ledger.aallocate_citations(scope, missing, floor=allocator.last)
        allocator.learn(stored, items)
        return {**local, **stored}


def _with_ids(items: Sequence[ResultItem], indices: Mapping[str, int]) -> list[ResultItem]:
    return [
        item.model_copy(update={"citation_id": citation_id(indices[item.key])}) for item in items
    ]
