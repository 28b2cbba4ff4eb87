"""Web-answer caches on this machine: in the process's memory, or in a SQLite file.

The SQLite file (the default, ``web-cache.sqlite3`` in the data folder)
survives restarts and is shared by every process of the machine; its hit and
miss counts are kept in the file too, so ``unified-search cache stats`` reports
what the searches of every process did.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from collections import OrderedDict
from pathlib import Path

from unified_search.web.cache_base import CacheStats, Clock, dump_answer, load_answer
from unified_search.web.extras import ProviderAnswer


class MemoryCache:
    """In-process cache, safe to share between the caller's loop and the sync twins' loop.

    Example:
        >>> cache = MemoryCache(ttl=60, max_entries=2)
        >>> asyncio.run(cache.get("missing")) is None, asyncio.run(cache.astats()).misses
        (True, 1)
    """

    def __init__(self, *, ttl: float, max_entries: int, clock: Clock = time.monotonic) -> None:
        self.ttl = ttl
        self.max_entries = max_entries
        self._clock = clock
        self._entries: OrderedDict[str, tuple[float, str]] = OrderedDict()
        self._lock = threading.Lock()
        self._hits = self._misses = 0

    async def get(self, key: str) -> ProviderAnswer | None:
        """Return a fresh answer and mark it recently used; drop expired ones."""
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None and entry[0] <= self._clock():
                del self._entries[key]
                entry = None
            if entry is None:
                self._misses += 1
                return None
            self._hits += 1
            self._entries.move_to_end(key)
        return load_answer(entry[1])

    async def put(self, key: str, answer: ProviderAnswer) -> None:
        """Store an answer, evicting the least recently used beyond ``max_entries``."""
        with self._lock:
            self._entries[key] = (self._clock() + self.ttl, dump_answer(answer))
            self._entries.move_to_end(key)
            while len(self._entries) > self.max_entries:
                self._entries.popitem(last=False)

    async def astats(self) -> CacheStats:
        """What the cache holds (fresh answers only) and how often it answered."""
        with self._lock:
            now = self._clock()
            fresh = sum(1 for expires, _ in self._entries.values() if expires > now)
            hits, misses = self._hits, self._misses
        return CacheStats(
            backend="memory",
            entries=fresh,
            hits=hits,
            misses=misses,
            max_entries=self.max_entries,
            ttl=self.ttl,
        )

    async def aclear(self) -> int:
        """Drop every answer and reset the counts."""
        with self._lock:
            dropped = len(self._entries)
            self._entries.clear()
            self._hits = self._misses = 0
        return dropped

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
        self.path = Path(path)
        self.ttl = ttl
        self.max_entries = max_entries
        self._clock = clock
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(self.path), check_same_thread=False)
        self._lock = threading.Lock()
        with self._lock, self._db:
            # WAL + NORMAL: a hit updates its last-use time without waiting for an fsync.
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS web_cache "
                "(key TEXT PRIMARY KEY, value TEXT NOT NULL, expires REAL NOT NULL, used REAL NOT NULL)"
            )
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS web_cache_counts "
                "(name TEXT PRIMARY KEY, value INTEGER NOT NULL)"
            )

    async def get(self, key: str) -> ProviderAnswer | None:
        """Return a fresh answer, refreshing its last use."""
        value = await asyncio.to_thread(self._get, key)
        return None if value is None else load_answer(value)

    async def put(self, key: str, answer: ProviderAnswer) -> None:
        """Store an answer and evict expired and least recently used rows."""
        await asyncio.to_thread(self._put, key, dump_answer(answer))

    async def astats(self) -> CacheStats:
        """What the file holds (fresh answers only) and every process's hits and misses."""
        entries, counts = await asyncio.to_thread(self._stats)
        return CacheStats(
            backend="sqlite",
            location=str(self.path),
            entries=entries,
            hits=counts.get("hits", 0),
            misses=counts.get("misses", 0),
            max_entries=self.max_entries,
            ttl=self.ttl,
        )

    async def aclear(self) -> int:
        """Drop every answer and reset the counts."""
        return await asyncio.to_thread(self._clear)

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
            self._count("hits" if row is not None else "misses")
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

    def _count(self, name: str) -> None:
        self._db.execute(
            "INSERT INTO web_cache_counts (name, value) VALUES (?, 1) "
            "ON CONFLICT (name) DO UPDATE SET value = value + 1",
            (name,),
        )

    def _stats(self) -> tuple[int, dict[str, int]]:
        with self._lock:
            (entries,) = self._db.execute(
                "SELECT COUNT(*) FROM web_cache WHERE expires > ?", (self._clock(),)
            ).fetchone()
            counts = dict(self._db.execute("SELECT name, value FROM web_cache_counts"))
        return int(entries), {str(name): int(value) for name, value in counts.items()}

    def _clear(self) -> int:
        with self._lock, self._db:
            dropped = self._db.execute("DELETE FROM web_cache").rowcount
            self._db.execute("DELETE FROM web_cache_counts")
        return int(dropped)
