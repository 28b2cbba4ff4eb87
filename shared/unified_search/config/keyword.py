"""Configuration of keyword extraction and query expansion (the ``keyword`` section)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from unified_search.config.section import Section
from unified_search.types import Intent, Source


class KeywordConfig(Section):
    """Keyword extraction and query expansion settings.

    Example:
        >>> KeywordConfig(max_keywords=5, synonyms={"tf": "TensorFlow"}).synonyms["tf"]
        'TensorFlow'
    """

    max_keywords: int = Field(default=10, ge=1, le=100)
    """Most keywords extracted from one query or text."""
    phrase_min_count: int = Field(default=2, ge=1, le=100)
    """A pair of adjacent words seen this often is kept together as one phrase."""
    stop_words: list[str] = Field(default_factory=list)
    """Extra words never returned as keywords (added to the builtin English and Chinese lists)."""
    synonyms: dict[str, str] = Field(default_factory=dict)
    """Extra abbreviations and their expansions for query expansion (``k8s: Kubernetes``);
    these override the builtin table entry by entry (case-insensitive keys)."""
    language: Literal["auto", "en", "zh"] = "auto"
    """The other language a deep search also words a technical query in: ``zh`` adds the
    Chinese wording of an English query, ``en`` the English wording of a Chinese one (as
    always); ``auto`` follows ``options.language``. Keywords themselves are extracted in the
    language of each text (English and Chinese, mixed text included)."""
    intent: Intent | None = None
    """The intent of every query instead of the one its words signal (``--intent``): it sets
    the deep search's sub-queries and freshness, ``mode: auto``'s mode and the intent
    reranker's weights."""
    max_sub_queries: int = Field(default=4, ge=1, le=10)
    """Most queries a deep search sends per source, the original query included."""
    sources: list[Source] = Field(default_factory=lambda: [Source.AUTO])
    """Searches whose web query becomes its keywords (``uses.keyword``): automatic ones, whose
    query is a whole chat message; add ``user`` and ``hook`` to shorten typed queries too."""
