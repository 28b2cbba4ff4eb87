"""Configuration of web search (the ``web`` section)."""

from __future__ import annotations

from pydantic import Field

from unified_search._section import Section


class WebConfig(Section):
    """Web search settings."""

    providers: list[str] = Field(default_factory=list)
    """Providers to query in parallel (``tavily``, ``serper`` ...); empty means none configured."""
    max_results: int = Field(default=10, ge=1, le=100)
    """Most results per request when the request sets no ``limit``."""
