"""The answer cache: TTL, LRU, keys, and the SQLite and Redis backends."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from unified_search.config.web import CacheConfig
from unified_search.types import ResultItem, SearchRequest
from unified_search.web.cache import MemoryCache, RedisCache, SQLiteCache, cache_key, make_cache
from unified_search.web.extras import ProviderAnswer, RelatedQuestion, WebExtras
from unified_search.web.provider import CallSettings

ITEMS = [
    ResultItem(
        type="web",
        title="A",
        url="https://a.org/",
        content="alpha",
        score=0.5,
        metadata={"providers": ["exa"]},
    ),
    ResultItem(type="web", title="B", url="https://b.org/", content="beta"),
]


EXTRAS = WebExtras(related_questions=[RelatedQuestion(provider="serper", question="Why?")])
A = ProviderAnswer(ITEMS, EXTRAS)
B = ProviderAnswer(ITEMS[:1])
EMPTY = ProviderAnswer([])


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_key_normalises_the_query_and_separates_everything_else() -> None:
    base = cache_key("tavily", SearchRequest(query="Heat  Pumps"), CallSettings(limit=5))
    assert base == cache_key("tavily", SearchRequest(query="heat pumps "), CallSettings(limit=5))
    assert base == cache_key(
        "tavily",
        SearchRequest(query="heat pumps", options={"providers": ["x"]}),
        CallSettings(limit=5),
    )
    different = [
        cache_key("exa", SearchRequest(query="heat pumps"), CallSettings(limit=5)),
        cache_key("tavily", SearchRequest(query="heat pumps"), CallSettings(limit=6)),
        cache_key(
            "tavily", SearchRequest(query="heat pumps"), CallSettings(limit=5, depth="advanced")
        ),
        cache_key(
            "tavily", SearchRequest(query="heat pumps", sites=["a.org"]), CallSettings(limit=5)
        ),
        cache_key(
            "tavily", SearchRequest(query="heat pumps", time_range="day"), CallSettings(limit=5)
        ),
        cache_key(
            "tavily",
            SearchRequest(query="heat pumps", options={"engine": "bing"}),
            CallSettings(limit=5),
        ),
    ]
    assert len({base, *different}) == 7


async def test_memory_cache_expires_and_evicts_least_recently_used() -> None:
    clock = Clock()
    cache = MemoryCache(ttl=10, max_entries=2, clock=clock)
    await cache.put("a", A)
    await cache.put("b", B)
    assert await cache.get("a") == A  # "a" is now the most recently used
    await cache.put("c", EMPTY)
    assert await cache.get("b") is None and await cache.get("c") == EMPTY
    clock.now += 10
    assert await cache.get("a") is None and len(cache) == 1


async def test_sqlite_cache_persists_across_instances(tmp_path: Path) -> None:
    clock = Clock()
    path = tmp_path / "cache" / "web.sqlite"
    first = SQLiteCache(path, ttl=10, max_entries=2, clock=clock)
    await first.put("a", A)
    await first.aclose()
    second = SQLiteCache(path, ttl=10, max_entries=2, clock=clock)
    assert await second.get("a") == A
    clock.now += 1
    await second.put("b", A)
    clock.now += 1
    await second.get("a")
    clock.now += 1
    await second.put("c", A)
    assert await second.get("b") is None and await second.get("a") == A
    clock.now += 20
    assert await second.get("a") is None
    await second.aclose()


@pytest.mark.redis
async def test_redis_cache_ttl_and_lru(redis_url: str) -> None:
    import redis.asyncio as redis_asyncio

    prefix = f"test:{uuid.uuid4().hex}:"
    cache = RedisCache(redis_url, ttl=30, max_entries=2, prefix=prefix)
    raw = redis_asyncio.from_url(redis_url)
    try:
        await cache.put("a", A)
        await cache.put("b", B)
        assert await cache.get("a") == A
        await cache.put("c", EMPTY)
        assert await cache.get("b") is None
        assert await cache.get("a") == A and await cache.get("c") == EMPTY
        ttl = await raw.pttl(prefix + "a")
        assert 0 < ttl <= 30_000
    finally:
        keys = [key async for key in raw.scan_iter(match=prefix + "*")]
        if keys:
            await raw.delete(*keys)
        await raw.aclose()
        await cache.aclose()


def test_make_cache_follows_the_config(tmp_path: Path) -> None:
    default = make_cache(CacheConfig())
    assert isinstance(default, SQLiteCache)  # persistent by default, in the data folder
    assert default.path.name == "web-cache.sqlite3"
    assert isinstance(make_cache(CacheConfig(backend="memory")), MemoryCache)
    assert make_cache(CacheConfig(enabled=False)) is None
    sqlite = make_cache(CacheConfig(backend="sqlite", path=str(tmp_path / "c.sqlite")))
    assert isinstance(sqlite, SQLiteCache)
    assert isinstance(make_cache(CacheConfig(backend="redis")), RedisCache)


def test_cache_config_rejects_bad_values() -> None:
    from pydantic import ValidationError

    with pytest.raises(ValidationError, match="backend"):
        CacheConfig(backend="memcached")  # type: ignore[arg-type]
    with pytest.raises(ValidationError, match="ttl"):
        CacheConfig(ttl=0)
