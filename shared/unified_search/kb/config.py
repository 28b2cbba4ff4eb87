"""Configuration of knowledge-base search (the ``kb`` section)."""

from __future__ import annotations

from pydantic import Field

from unified_search._section import Section


class KBConfig(Section):
    """Knowledge-base settings."""

    collections: list[str] = Field(default_factory=list)
    """Collections searched when a request names none."""
    threshold: float = Field(default=0.7, ge=0.0, le=1.0)
    """Minimum cosine similarity (0..1) of a dense match."""
    max_results: int = Field(default=10, ge=1, le=100)
