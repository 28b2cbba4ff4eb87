"""What one call to the Searcher returns."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from unified_search.contract.events import TraceNode
from unified_search.errors import ErrorInfo
from unified_search.types import (
    Reference,
    ReferenceContext,
    ResultItem,
    SearchRequest,
    SearchResult,
)

Status = Literal["ok", "partial", "failed", "empty"]


class SearchResponse(BaseModel):
    """The ranked, cited items of one call, with each request's own result and the trace.

    ``results`` is aligned with ``requests``: ``None`` where a request had not
    finished when ``any``/``race`` returned.
    """

    model_config = ConfigDict(frozen=True)

    request_id: str
    """The citation scope: the IDs of ``items`` are unique within it."""
    search_id: str | None = None
    """This one search (the root node of ``trace``)."""
    chat_id: str | None = None
    requests: list[SearchRequest]
    results: list[SearchResult | None]
    items: list[ResultItem] = Field(default_factory=list)
    """Merged, deduplicated, reranked and cited, best first."""
    context: ReferenceContext = Field(default_factory=ReferenceContext)
    duration_ms: float = 0.0
    trace: list[TraceNode] = Field(default_factory=list)
    warnings: list[ErrorInfo] = Field(default_factory=list)
    """What failed around an answer that still came: the search record or its citation
    numbering not stored (``provider="store"``; ``retryable`` when it is queued and retried)."""

    @property
    def references(self) -> list[Reference]:
        """The cited references, best first."""
        return self.context.references

    @property
    def errors(self) -> list[ErrorInfo]:
        """Every failure: whole requests first, then partial failures within requests."""
        done = [result for result in self.results if result is not None]
        whole = [result.error for result in done if result.error is not None]
        return whole + [failure for result in done for failure in result.failures]

    @property
    def status(self) -> Status:
        """``ok``, ``partial`` (something failed), ``failed`` (everything failed) or ``empty``.

        A source failing, or the answer not being stored (``warnings``), makes it ``partial``.
        """
        done = [result for result in self.results if result is not None]
        if done and all(result.error is not None for result in done):
            return "failed"
        if self.errors or self.warnings:
            return "partial"
        return "ok" if self.items else "empty"
