"""What every web-answer cache shares: its protocol, its statistics, its key and its codec.

The key is the normalised query plus everything that changes the answer
(provider, depth, limit, engine, images, domains, dates, topic, options). Only
successful answers are stored; errors are never cached. The backends live in
``unified_search.web.cache_local`` (memory, SQLite) and
``unified_search.web.cache_redis``; ``unified_search.web.cache`` builds the
configured one.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, computed_field

from unified_search.types import ResultItem, SearchRequest
from unified_search.web.extras import ProviderAnswer, WebExtras
from unified_search.web.provider import CallSettings

Clock = Callable[[], float]


class CacheStats(BaseModel):
    """How a web cache is doing: what it holds and how often it answered.

    Example:
        >>> CacheStats(backend="memory", entries=3, hits=6, misses=2, max_entries=50, ttl=60).hit_rate
        0.75
    """

    model_config = ConfigDict(frozen=True)

    backend: Literal["memory", "sqlite", "redis"]
    location: str | None = None
    """The SQLite file, or the Redis server (without its password); ``None`` in memory."""
    entries: int
    """Answers held (the Redis count may include expired ones not yet trimmed)."""
    hits: int
    """Searches answered from the cache since it was created or last cleared."""
    misses: int
    """Searches the cache could not answer (a provider was asked)."""
    max_entries: int
    ttl: float
    """Seconds an answer stays fresh."""

    @computed_field  # type: ignore[prop-decorator]
    @property
    def hit_rate(self) -> float | None:
        """Share of lookups answered from the cache (``None`` before the first lookup)."""
        lookups = self.hits + self.misses
        return round(self.hits / lookups, 4) if lookups else None


class ResultCache(Protocol):
    """Where answers are kept between searches."""

    async def get(self, key: str) -> ProviderAnswer | None:
        """Return the fresh answer stored under ``key``, or ``None``."""
        ...

    async def put(self, key: str, answer: ProviderAnswer) -> None:
        """Store ``answer`` under ``key`` for the configured TTL."""
        ...

    async def astats(self) -> CacheStats:
        """Return what the cache holds and how often it answered."""
        ...

    async def aclear(self) -> int:
        """Drop every answer and reset the counts; return how many answers were dropped."""
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
        "images": [settings.images, settings.image_descriptions],
        "sites": sorted(request.sites),
        "exclude": sorted(request.exclude_sites),
        "time_range": request.time_range,
        "topic": request.topic,
        "country": request.country,
        "language": request.language,
        "start_date": request.start_date,
        "end_date": request.end_date,
        "include": [
            request.include_answer,
            request.include_raw_content,
            request.include_images,
            request.include_image_descriptions,
        ],
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
