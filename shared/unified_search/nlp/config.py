"""Configuration of keyword extraction (the ``keyword`` section)."""

from __future__ import annotations

from pydantic import Field

from unified_search._section import Section


class KeywordConfig(Section):
    """Keyword extraction settings."""

    max_keywords: int = Field(default=10, ge=1, le=100)
