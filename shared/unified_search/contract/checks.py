"""What a citation check says about an answer: one verdict per sentence, and the whole report.

These are values shared by the checker (``unified_search.citations.verify``), the
events a check emits, the record store that keeps it and the adapters that show it.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict, Field


class Verdict(StrEnum):
    """What a sentence's citations say about it."""

    SUPPORTED = "supported"
    """A cited reference says it."""
    UNSUPPORTED = "unsupported"
    """It cites references, and none of them says it (or they have no text to say it with)."""
    UNCITED = "uncited"
    """A factual sentence that cites nothing."""
    UNKNOWN_ID = "unknown_id"
    """It cites an ID that matches no reference."""
    NO_CLAIM = "no_claim"
    """It cites nothing and states no fact (a greeting, a heading, a question): nothing to check."""


class _Value(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Span(_Value):
    """A passage of a reference: character offsets into its ``content``."""

    reference_id: str
    start: int = Field(ge=0)
    end: int = Field(ge=0)
    text: str
    page: int | None = None
    """The page the passage starts on, when the reference knows its pages (a PDF chunk)."""


class CitationCheck(_Value):
    """How well one cited reference supports a sentence."""

    id: str
    """The cited ID (or the citation as written, when it names no reference)."""
    known: bool
    score: float = 0.0
    """Support in 0..1: how much of the sentence the best passage of the reference says."""
    supported: bool = False
    span: Span | None = None
    """The best supporting passage of the reference."""
    reason: str | None = None
    """Why it could not be checked (an unknown ID, a reference without text)."""


class SentenceCheck(_Value):
    """The verdict on one sentence of an answer."""

    index: int = Field(ge=0)
    start: int = Field(ge=0)
    """Character offsets of the sentence in the answer."""
    end: int = Field(ge=0)
    text: str
    cited: list[str] = Field(default_factory=list)
    """The IDs the sentence cites, in order (citations as written when they name no ID)."""
    verdict: Verdict
    score: float = 0.0
    """The best support any cited reference gives, in 0..1 (0 when nothing is cited)."""
    span: Span | None = None
    """The best supporting passage among the cited references."""
    citations: list[CitationCheck] = Field(default_factory=list)


class CitationReport(_Value):
    """Every checked sentence of an answer, with counts and the limits that applied.

    Example:
        >>> CitationReport().ok
        True
    """

    sentences: list[SentenceCheck] = Field(default_factory=list)
    counts: dict[Verdict, int] = Field(default_factory=dict)
    """Sentences per verdict."""
    total: int = 0
    """Sentences in the answer (those past ``limit`` included)."""
    limit: str | None = None
    """Set when the cap on checked sentences was reached: which cap, and how much was left."""
    warnings: list[str] = Field(default_factory=list)
    """What the answer did that the check could not use (citations in another format ...)."""
    method: str = ""
    """The evidence used: ``lexical``, ``lexical+embedding``, ``...+cross_encoder``."""
    duration_ms: float = 0.0

    @property
    def ok(self) -> bool:
        """True when no sentence is unsupported, uncited or cites an unknown ID."""
        flagged = (Verdict.UNSUPPORTED, Verdict.UNCITED, Verdict.UNKNOWN_ID)
        return not any(self.counts.get(verdict) for verdict in flagged)

    def flagged(self) -> list[SentenceCheck]:
        """The sentences a reader should look at: unsupported, uncited or citing an unknown ID."""
        return [s for s in self.sentences if s.verdict not in (Verdict.SUPPORTED, Verdict.NO_CLAIM)]


class ChecksStore(Protocol):
    """Where a citation check is kept (``SearchStore`` is one)."""

    async def asave_checks(
        self,
        request_id: str,
        report: CitationReport,
        *,
        chat_id: str | None = None,
        search_id: str | None = None,
    ) -> Any:
        """Keep the check of one answer of ``request_id``."""
        ...
