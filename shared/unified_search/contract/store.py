"""What the engine needs from a record store: keep each search, number citations, close.

``SearchStore`` (SQLite or PostgreSQL) is the implementation; any object with
these methods can stand in for it (a test double, a store of your own).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol, runtime_checkable

from unified_search.config.search import SearchConfig
from unified_search.contract.response import SearchResponse
from unified_search.errors import SearchError


class CitationLedger(Protocol):
    """What numbering needs from a record store (``SearchStore`` has it)."""

    async def aallocate_citations(
        self, scope: str, keys: Sequence[str], *, floor: int = 0
    ) -> dict[str, int]:
        """Number ``keys`` in ``scope`` atomically."""
        ...

    async def aremember_citations(self, scope: str, indices: Mapping[str, int]) -> None:
        """Record indices handed out in memory."""
        ...


@runtime_checkable
class RecordStore(CitationLedger, Protocol):
    """Keep the record of every search, and the citation numbering of its scopes."""

    async def arecord(
        self,
        response: SearchResponse,
        config: SearchConfig,
        citations: Mapping[str, int] | None = None,
    ) -> SearchError | None:
        """Keep the records of ``response``; return what went wrong instead of raising."""
        ...

    async def aclose(self) -> None:
        """Write what is pending and release the connections."""
        ...
