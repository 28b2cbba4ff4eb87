"""Web-answer cache shared by several machines through Redis (the ``redis`` extra)."""

from __future__ import annotations

import time
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from unified_search._loops import PerLoop
from unified_search._optional import require
from unified_search.web.cache_base import CacheStats, dump_answer, load_answer
from unified_search.web.extras import ProviderAnswer


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
        self.location = _without_password(url)
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
        await client.hincrby(self._counts, "misses" if value is None else "hits", 1)
        if value is None:
            return None
        await client.zadd(self._lru, {key: time.time()})
        return load_answer(value)

    async def astats(self) -> CacheStats:
        """What the server holds under the prefix and every process's hits and misses."""
        client = self._clients.get()
        counts = {_text(k): int(v) for k, v in (await client.hgetall(self._counts)).items()}
        return CacheStats(
            backend="redis",
            location=self.location,
            entries=int(await client.zcard(self._lru)),
            hits=counts.get("hits", 0),
            misses=counts.get("misses", 0),
            max_entries=self.max_entries,
            ttl=self.ttl,
        )

    async def aclear(self) -> int:
        """Drop every answer under the prefix and reset the counts (locks are left alone)."""
        client = self._clients.get()
        names = [_text(name) for name in await client.zrange(self._lru, 0, -1)]
        dropped = int(await client.delete(*[self.prefix + n for n in names])) if names else 0
        await client.delete(self._lru, self._counts)
        return dropped

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

    @property
    def _counts(self) -> str:
        return self.prefix + "__counts__"

    def _lock(self, key: str) -> str:
        return self.prefix + "__lock__:" + key


def _text(value: str | bytes) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _without_password(url: str) -> str:
    """``url`` with any password replaced by ``***`` (it is shown in the cache's stats)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    user = f"{parts.username}:***@" if parts.username else ":***@"
    host = parts.netloc.rsplit("@", 1)[1]
    return urlunsplit(parts._replace(netloc=user + host))
