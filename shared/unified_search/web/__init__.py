"""Web search: providers, URL retrieval, shared HTTP, caching."""

from __future__ import annotations

from unified_search.web.cache import (
    CacheStats,
    acache_stats,
    aclear_cache,
    cache_stats,
    clear_cache,
)

__all__ = [
    "CacheStats",
    "acache_stats",
    "aclear_cache",
    "cache_stats",
    "clear_cache",
]
