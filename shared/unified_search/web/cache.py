"""Cache of provider answers: TTL + LRU, in a SQLite file (the default), in memory, or in Redis.

By default answers are kept in ``web-cache.sqlite3`` in the data folder
(``unified_search.paths``), so they survive restarts and are shared by the
processes of one machine; ``web.cache.backend: memory`` keeps them in one
process, ``redis`` shares them between machines. Only successful answers are
stored; errors are never cached. The Redis backend also offers a short lock per
key, so identical searches in several processes make one provider call
(``unified_search.web.flight``).

Every backend reports its statistics and can be cleared: ``await cache.astats()``
and ``await cache.aclear()`` on a handler's ``cache``, or ``cache_stats(config)``
and ``clear_cache(config)`` (and their ``a`` twins) for the configured cache
without a handler; the command line has ``unified-search cache stats|clear`` and
the HTTP API ``GET``/``DELETE /api/cache``.
"""

from __future__ import annotations

from unified_search._sync import run_sync
from unified_search.config.search import ConfigLike, as_config
from unified_search.config.web import CacheConfig
from unified_search.paths import data_home
from unified_search.web.cache_base import (
    CacheStats,
    LockingCache,
    ResultCache,
    cache_key,
    dump_answer,
    load_answer,
)
from unified_search.web.cache_local import MemoryCache, SQLiteCache
from unified_search.web.cache_redis import RedisCache

__all__ = [
    "CacheStats",
    "LockingCache",
    "MemoryCache",
    "RedisCache",
    "ResultCache",
    "SQLiteCache",
    "acache_stats",
    "aclear_cache",
    "cache_key",
    "cache_stats",
    "clear_cache",
    "default_cache_path",
    "dump_answer",
    "load_answer",
    "make_cache",
]


def default_cache_path() -> str:
    """The SQLite file of the default cache: ``web-cache.sqlite3`` in the data folder."""
    return str(data_home() / "web-cache.sqlite3")


def make_cache(config: CacheConfig) -> ResultCache | None:
    """Build the configured cache, or ``None`` when caching is off."""
    if not config.enabled:
        return None
    return _backend(config)


def _backend(config: CacheConfig) -> ResultCache:
    if config.backend == "sqlite":
        path = config.path or default_cache_path()
        return SQLiteCache(path, ttl=config.ttl, max_entries=config.max_entries)
    if config.backend == "redis":
        return RedisCache(
            config.url,
            ttl=config.ttl,
            max_entries=config.max_entries,
            prefix=config.prefix,
            timeout=config.timeout,
        )
    return MemoryCache(ttl=config.ttl, max_entries=config.max_entries)


async def acache_stats(config: ConfigLike = None) -> CacheStats:
    """Statistics of the configured cache (``web.cache``), read without a handler.

    A ``memory`` cache lives in its process: this reports a new, empty one; ask a
    handler's ``cache`` instead.
    """
    cache = _backend(as_config(config).web.cache)
    try:
        return await cache.astats()
    finally:
        await cache.aclose()


async def aclear_cache(config: ConfigLike = None) -> int:
    """Empty the configured cache (``web.cache``); return how many answers were dropped."""
    cache = _backend(as_config(config).web.cache)
    try:
        return await cache.aclear()
    finally:
        await cache.aclose()


def cache_stats(config: ConfigLike = None) -> CacheStats:
    """Sync twin of ``acache_stats``."""
    return run_sync(acache_stats(config))


def clear_cache(config: ConfigLike = None) -> int:
    """Sync twin of ``aclear_cache``."""
    return run_sync(aclear_cache(config))
