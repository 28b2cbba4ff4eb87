"""How a database search read its question, as kept on the ``SearchResult``.

Every database result carries it in ``SearchResult.metadata["understanding"]``:
the one-line reading of the DSL that ran ("understood as …"), the words
nothing understood, the spellings corrected, and warnings (a delegate's DSL
that failed validation and what answered instead). ``Understanding.of`` reads
it back, typed, from a result or a stored record.

Example:
    >>> Understanding(understood="books where genre = Fantasy").line()
    'understood as: books where genre = Fantasy'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

#: The ``SearchResult.metadata`` key holding an ``Understanding``.
KEY = "understanding"


class Understanding(BaseModel):
    """What a database search understood, and what it did not.

    Example:
        >>> u = Understanding(understood="orders", not_understood=["wobbly"])
        >>> u.line()
        'understood as: orders; not understood: wobbly'
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    understood: str = ""
    """The DSL that ran (or would have run), in one line of English."""
    not_understood: list[str] = Field(default_factory=list)
    """Words of the question no rule, column or value claimed; they never become filters."""
    corrections: list[str] = Field(default_factory=list)
    """Words read differently from how they were written (``custmers → customers``)."""
    warnings: list[str] = Field(default_factory=list)
    """What went wrong on the way, for example a delegate's DSL that failed validation."""
    generator: str = "builtin"
    """Who wrote the DSL: ``builtin``, an agent name or ``mcp:<server>.<tool>``."""

    def line(self) -> str:
        """Return ``understood as: …`` (and the words not understood, when there are some)."""
        text = f"understood as: {self.understood}" if self.understood else "nothing understood"
        if self.not_understood:
            text += f"; not understood: {', '.join(self.not_understood)}"
        return text

    def as_metadata(self) -> dict[str, Any]:
        """Return the JSON form kept under ``metadata["understanding"]``."""
        return self.model_dump(mode="json")

    @classmethod
    def of(cls, result: Any) -> Understanding | None:
        """Read the understanding of a ``SearchResult`` (or anything with ``metadata``), if any."""
        metadata = getattr(result, "metadata", None)
        data = metadata.get(KEY) if isinstance(metadata, dict) else None
        return cls.model_validate(data) if isinstance(data, dict) else None


def understandings(results: Iterable[Any]) -> list[Understanding]:
    """Return how each database result among ``results`` read its question, in order."""
    found = (Understanding.of(result) for result in results if result is not None)
    return [u for u in found if u is not None]


def understood_json(results: Iterable[Any]) -> list[dict[str, Any]]:
    """The JSON a program or an HTTP client sees: each understanding with its one-line form."""
    return [{"line": u.line(), **u.as_metadata()} for u in understandings(results)]
