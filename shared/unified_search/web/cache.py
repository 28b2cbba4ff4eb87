"""Cache of provider answers: TTL + LRU, in memory, in a SQLite file, or in Redis.

The key is the normalised query plus everything that changes the answer
(provider, depth, limit, engine, domains, dates, topic, options). Only
successful answers are stored; errors are never cached. The Redis backend also
offers a short lock per key, so identical searches in several processes make
one provider call (``unified_search.web.flight``).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import sqlite3
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from unified_search._loops import PerLoop
from unified_search._optional import require
from unified_search.config.web import CacheConfig
from unified_search.paths import data_home
from unified_search.types import ResultItem, SearchRequest
from unified_search.web.extras import ProviderAnswer, WebExtras
from unified_search.web.provider import CallSettings

Clock = Callable[[], float]


class ResultCache(Protocol):
    """Where answers are kept between searches."""

    async def get(self, key: str) -> ProviderAnswer | None:
        """Return the fresh answer stored under ``key``, or ``None``."""
        ...

    async def put(self, key: str, answer: ProviderAnswer) -> None:
        """Store ``answer`` under ``key`` for the configured TTL."""
        ...

    async def aclose(self) -> None:
        """Release connections."""
        ...


@runtime_checkable
class LockingCache(ResultCache, Protocol):
    """A cache shared by several processes, with a short lock per key."""

    async def claim(self, key: str, ttl: float) -> bool:
        """Take the lock of ``key`` for ``ttl`` seconds; ``False`` if another holds it."""
        ...

    async def renew(self, key: str) -> bool:
        """Give our lock of ``key`` its full ``ttl`` again; ``False`` when it is no longer ours."""
        ...

    async def claimed(self, key: str) -> bool:
        """Tell whether anyone holds the lock of ``key``."""
        ...

    async def release(self, key: str) -> None:
        """Give our lock of ``key`` back (harmless when it has expired or passed to another)."""
        ...


def cache_key(provider: str, request: SearchRequest, settings: CallSettings) -> str:
    """Return the cache key of one provider call.

    Example:
        >>> a = cache_key("tavily", SearchRequest(query="Heat  Pumps"), CallSettings(limit=5))
        >>> a == cache_key("tavily", SearchRequest(query="heat pumps"), CallSettings(limit=5))
        True
    """
    payload = {
        "query": " ".join(request.query.casefold().split()),
        "provider": provider,
        "depth": settings.depth,
        "limit": settings.limit,
        "engine": settings.engine,
        "sites": sorted(request.sites),
        "exclude": sorted(request.exclude_sites),
        "time_range": request.time_range,
        "topic": request.topic,
        "country": request.country,
        "language": request.language,
        "start_date": request.start_date,
        "end_date": request.end_date,
        "include": [request.include_answer, request.include_raw_content, request.include_images],
        "options": {k: v for k, v in request.options.items() if k != "providers"},
    }
    text = json.dumps(payload, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def dump_answer(answer: ProviderAnswer) -> str:
    """Serialise an answer for storage."""
    items = [item.model_dump(mode="json") for item in answer.items]
    return json.dumps({"items": items, "extras": answer.extras.model_dump(mode="json")})


def load_answer(text: str | bytes) -> ProviderAnswer:
    """Rebuild a stored answer (entries of earlier versions hold a bare list of items)."""
    data = json.loads(text)
    if isinstance(data, list):
        data = {"items": data}
    items = [ResultItem.model_validate(raw) for raw in data["items"]]
    return ProviderAnswer(items, WebExtras.model_validate(data.get("extras") or {}))


class MemoryCache:
    """In-process cache, safe to share between the caller's loop and the sync twins' loop.

    Example:
        >>> cache = MemoryCache(ttl=60, max_entries=2)
        >>> asyncio.run(cache.get("missing")) is None
        True
    """

    def __init__(self, *, ttl: float, max_entries: int, clock: Clock = time.monotonic) -> None:
        self.ttl = ttl
        self.max_entries = max_entries
        self._clock = clock
        self._entries: OrderedDict[str, tuple[float, str]] = OrderedDict()
        self._lock = threading.Lock()

    async def get(self, key: str) -> ProviderAnswer | None:
        """Return a fresh answer and mark it recently used; drop expired ones."""
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return None
            if entry[0] <= self._clock():
                del self._entries[key]
                return None
            self._entries.move_to_end(key)
        return load_answer(entry[1])

    async def put(self, key: str, answer: ProviderAnswer) -> None:
        """Store an answer, evicting the least recently used beyond ``max_entries``."""
        with self._lock:
            self._entries[key] = (self._clock() + self.ttl, dump_answer(answer))
            self._entries.move_to_end(key)
            while len(self._entries) > self.max_entries:
                self._entries.popitem(last=False)

    def __len__(self) -> int:
        return len(self._entries)

    async def aclose(self) -> None:
        """Nothing to release."""


class SQLiteCache:
    """Persistent cache in one SQLite file; blocking calls run in a worker thread.

    Example:
        Not run here: it writes a file in /tmp.

        >>> cache = SQLiteCache("/tmp/web-cache.sqlite", ttl=3600, max_entries=1000)  # doctest: +SKIP
    """

    def __init__(
        self, path: str | Path, *, ttl: float, max_entries: int, clock: Clock = time.time
    ) -> None:
        self.ttl = ttl
        self.max_entries = max_entries
        self._clock = clock
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(path), check_same_thread=False)
        self._lock = threading.Lock()
        with self._lock, self._db:
            # WAL + NORMAL: a hit updates its last-use time without waiting for an fsync.
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS web_cache "
                "(key TEXT PRIMARY KEY, value TEXT NOT NULL, expires REAL NOT NULL, used REAL NOT NULL)"
            )

    async def get(self, key: str) -> ProviderAnswer | None:
        """Return a fresh answer, refreshing its last use."""
        value = await asyncio.to_thread(self._get, key)
        return None if value is None else load_answer(value)

    async def put(self, key: str, answer: ProviderAnswer) -> None:
        """Store an answer and evict expired and least recently used rows."""
        await asyncio.to_thread(self._put, key, dump_answer(answer))

    async def aclose(self) -> None:
        """Close the database file."""
        with self._lock:
            self._db.close()

    def _get(self, key: str) -> str | None:
        now = self._clock()
        with self._lock, self._db:
            row = self._db.execute(
                "SELECT value FROM web_cache WHERE key = ? AND expires > ?", (key, now)
            ).fetchone()
            if row is not None:
                self._db.execute("UPDATE web_cache SET used = ? WHERE key = ?", (now, key))
        return None if row is None else str(row[0])

    def _put(self, key: str, value: str) -> None:
        now = self._clock()
        with self._lock, self._db:
            self._db.execute(
                "INSERT OR REPLACE INTO web_cache (key, value, expires, used) VALUES (?, ?, ?, ?)",
                (key, value, now + self.ttl, now),
            )
            self._db.execute("DELETE FROM web_cache WHERE expires <= ?", (now,))
            self._db.execute(
                "DELETE FROM web_cache WHERE key NOT IN "
                "(SELECT key FROM web_cache ORDER BY used DESC LIMIT ?)",
                (self.max_entries,),
            )


class RedisCache:
    """Cache shared by several processes through Redis (``pip install "unified-search[redis]"``).

    Redis expires entries by itself (TTL); a sorted set of last-use times keeps
    at most ``max_entries``. Every socket has connect and read timeouts, so a
    hung server fails fast instead of holding the search.

    Example:
        Not run here: it needs a Redis server.

        >>> cache = RedisCache("redis://127.0.0.1:6379/0", ttl=3600, max_entries=1000)  # doctest: +SKIP
    """

    def __init__(
        self,
        url: str,
        *,
        ttl: float,
        max_entries: int,
        prefix: str = "unified-search:web:",
        timeout: float = 1.0,
    ) -> None:
        redis_asyncio = require("redis.asyncio", extra="redis", purpose="the redis cache")
        self._held: dict[str, Any] = {}
        self.ttl = ttl
        self.max_entries = max_entries
        self.prefix = prefix
        self._clients: PerLoop[Any] = PerLoop(
            lambda: redis_asyncio.from_url(
                url, socket_connect_timeout=timeout, socket_timeout=timeout
            ),
            lambda client: client.aclose(),
        )

    async def get(self, key: str) -> ProviderAnswer | None:
        """Return a fresh answer and record its use."""
        client = self._clients.get()
        value = await client.get(self.prefix + key)
        if value is None:
            return None
        await client.zadd(self._lru, {key: time.time()})
        return load_answer(value)

    async def claim(self, key: str, ttl: float) -> bool:
        """Take the key's lock (redis-py's token lock, expiring) unless another process holds it."""
        lock = self._clients.get().lock(
            self._lock(key),
            timeout=ttl,
            blocking=False,
            thread_local=False,
            raise_on_release_error=False,
        )
        if not await lock.acquire():
            return False
        self._held[key] = lock
        return True

    async def renew(self, key: str) -> bool:
        """Reset our lock's expiry; ``False`` when it expired or another process took it."""
        from redis.exceptions import LockError  # the redis extra, present when this cache is

        lock = self._held.get(key)
        if lock is None:
            return False
        try:
            await lock.reacquire()
        except LockError:
            return False
        return True

    async def claimed(self, key: str) -> bool:
        """Tell whether the key's lock is held."""
        return bool(await self._clients.get().exists(self._lock(key)))

    async def release(self, key: str) -> None:
        """Drop our lock (only if it is still ours: the token is checked on the server)."""
        lock = self._held.pop(key, None)
        if lock is not None:
            await lock.release()

    async def put(self, key: str, answer: ProviderAnswer) -> None:
        """Store an answer with a TTL and trim the least recently used beyond ``max_entries``."""
        client = self._clients.get()
        await client.set(self.prefix + key, dump_answer(answer), px=int(self.ttl * 1000))
        await client.zadd(self._lru, {key: time.time()})
        excess = await client.zcard(self._lru) - self.max_entries
        if excess > 0:
            evicted = [name for name, _ in await client.zpopmin(self._lru, excess)]
            await client.delete(*[self.prefix + _text(name) for name in evicted])

    async def aclose(self) -> None:
        """Close the connections of every loop."""
        await self._clients.aclose()

    @property
    def _lru(self) -> str:
        return self.prefix + "__lru__"

    def _lock(self, key: str) -> str:
        return self.prefix + "__lock__:" + key


def make_cache(config: CacheConfig) -> ResultCache | None:
    """Build the configured cache, or ``None`` when caching is off."""
    if not config.enabled:
        return None
    if config.backend == "sqlite":
        path = config.path or data_home() / "web-cache.sqlite3"
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


def _text(value: str | bytes) -> str:
    return value.decode() if isinstance(value, bytes) else value
