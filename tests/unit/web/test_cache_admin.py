"""The web cache as designed: persistent by default, with statistics and clearing everywhere."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from unified_search.config import SearchConfig
from unified_search.types import ResultItem, SearchRequest
from unified_search.web import cache_stats, clear_cache
from unified_search.web.cache import (
    MemoryCache,
    RedisCache,
    ResultCache,
    SQLiteCache,
    acache_stats,
    aclear_cache,
    default_cache_path,
)
from unified_search.web.extras import ProviderAnswer

ANSWER = ProviderAnswer([ResultItem(type="web", title="A", url="https://a.org/")])


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def exercise(cache: ResultCache) -> None:
    """Two misses, two answers stored, one hit."""
    assert await cache.get("a") is None and await cache.get("b") is None
    await cache.put("a", ANSWER)
    await cache.put("b", ANSWER)
    assert await cache.get("a") == ANSWER


def caches(tmp_path: Path) -> list[Callable[[], ResultCache]]:
    return [
        lambda: MemoryCache(ttl=60, max_entries=10),
        lambda: SQLiteCache(tmp_path / "web.sqlite", ttl=60, max_entries=10),
    ]


@pytest.mark.parametrize("backend", ["memory", "sqlite"])
async def test_stats_count_entries_hits_and_misses_and_clear_resets_them(
    tmp_path: Path, backend: str
) -> None:
    cache = caches(tmp_path)[0 if backend == "memory" else 1]()
    await exercise(cache)
    stats = await cache.astats()
    assert (stats.backend, stats.entries, stats.hits, stats.misses) == (backend, 2, 1, 2)
    assert stats.hit_rate == pytest.approx(1 / 3, abs=1e-4) and stats.ttl == 60
    assert await cache.aclear() == 2
    cleared = await cache.astats()
    assert (cleared.entries, cleared.hits, cleared.misses, cleared.hit_rate) == (0, 0, 0, None)
    assert await cache.get("a") is None
    await cache.aclose()


async def test_expired_answers_are_not_counted_as_held(tmp_path: Path) -> None:
    clock = Clock()
    for cache in (
        MemoryCache(ttl=10, max_entries=5, clock=clock),
        SQLiteCache(tmp_path / "w.sqlite", ttl=10, max_entries=5, clock=clock),
    ):
        await cache.put("a", ANSWER)
        clock.now += 11
        assert (await cache.astats()).entries == 0
        await cache.aclose()


async def test_the_sqlite_counts_are_shared_by_every_process(tmp_path: Path) -> None:
    path = tmp_path / "web.sqlite"
    first = SQLiteCache(path, ttl=60, max_entries=10)
    await exercise(first)
    await first.aclose()
    second = SQLiteCache(path, ttl=60, max_entries=10)  # a restart, or another process
    assert await second.get("b") == ANSWER
    stats = await second.astats()
    assert (stats.entries, stats.hits, stats.misses, stats.location) == (2, 2, 2, str(path))
    await second.aclose()


def test_the_default_cache_is_a_file_in_the_data_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("UNIFIED_SEARCH_HOME", str(tmp_path / "home"))
    assert default_cache_path() == str(tmp_path / "home" / "web-cache.sqlite3")
    stats = cache_stats()
    assert (stats.backend, stats.location, stats.entries) == ("sqlite", default_cache_path(), 0)
    assert clear_cache() == 0


async def test_stats_and_clear_of_the_configured_cache_from_python(tmp_path: Path) -> None:
    config = SearchConfig().merged({"web": {"cache": {"path": str(tmp_path / "c.sqlite")}}})
    cache = SQLiteCache(tmp_path / "c.sqlite", ttl=3600, max_entries=50)
    await exercise(cache)
    await cache.aclose()
    assert (await acache_stats(config)).entries == 2
    assert await aclear_cache(config) == 2
    assert (await acache_stats(config)).entries == 0


@pytest.mark.redis
async def test_redis_stats_and_clear_stay_within_the_prefix(redis_url: str) -> None:
    import redis.asyncio as redis_asyncio

    prefix = f"test:{uuid.uuid4().hex}:"
    other = f"test:{uuid.uuid4().hex}:"
    cache = RedisCache(redis_url, ttl=60, max_entries=10, prefix=prefix)
    neighbour = RedisCache(redis_url, ttl=60, max_entries=10, prefix=other)
    raw = redis_asyncio.from_url(redis_url)
    try:
        await exercise(cache)
        await neighbour.put("a", ANSWER)
        stats = await cache.astats()
        assert (stats.entries, stats.hits, stats.misses) == (2, 1, 2)
        assert stats.location == redis_url
        assert await cache.aclear() == 2
        assert (await cache.astats()).entries == 0 and await cache.get("a") is None
        assert await neighbour.get("a") == ANSWER  # another cache's answers are left alone
    finally:
        for name in (prefix, other):
            keys = [key async for key in raw.scan_iter(match=name + "*")]
            if keys:
                await raw.delete(*keys)
        await raw.aclose()
        await cache.aclose()
        await neighbour.aclose()


def test_a_redis_location_never_shows_its_password() -> None:
    cache = RedisCache("redis://user:s3cret@cache.example:6379/2", ttl=1, max_entries=1)
    assert cache.location == "redis://user:***@cache.example:6379/2"
    assert RedisCache("redis://cache.example", ttl=1, max_entries=1).location == (
        "redis://cache.example"
    )


async def test_a_restart_answers_from_the_persisted_cache(
    kit: Any, api: Any, keys: dict[str, str], sleeps: Any
) -> None:
    from unified_search.web.handler import WebHandler

    config = kit.web_config(["tavily"])
    api.on(kit.HOSTS["tavily"], kit.replay("tavily_search_success"))
    request = SearchRequest(query="heat pumps")
    for _ in range(2):  # the second handler is a new process's, over the same data folder
        handler = WebHandler(config, transport=api.transport, sleep=sleeps, clock=sleeps.clock)
        result = await handler.asearch(request, kit.context(config))
        assert result.items
        await handler.aclose()
    assert len(api.requests) == 1  # the second search was answered by the file
    assert cache_stats(config).hits == 1
