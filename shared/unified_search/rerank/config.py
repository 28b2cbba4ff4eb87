"""Configuration of reranking (the ``rerank`` section)."""

from __future__ import annotations

from pydantic import Field

from unified_search._section import Section


class RerankConfig(Section):
    """Reranking settings."""

    top_n: int = Field(default=10, ge=1, le=1000)
    """Items kept after reranking when a request sets no ``rerank.top_n``."""
