"""``GET`` and ``DELETE /api/cache``: the web cache's statistics over HTTP, and emptying it."""

from __future__ import annotations

from pathlib import Path

import httpx

from unified_search.engine.searcher import Searcher
from unified_search.records.store import SearchStore
from unified_search.server.app import create_app
from unified_search.web.cache import MemoryCache
from unified_search.web.extras import ProviderAnswer


class CachedWeb:
    """A web source with a cache, like the builtin one."""

    def __init__(self) -> None:
        self.cache = MemoryCache(ttl=60, max_entries=5)

    async def asearch(self, request, ctx):  # type: ignore[no-untyped-def]
        raise AssertionError("not searched here")


async def client(tmp_path: Path, web: object) -> tuple[httpx.AsyncClient, Searcher]:
    store = SearchStore(f"sqlite:///{tmp_path / 'records.sqlite3'}")
    searcher = Searcher(handlers={"web": web}, store=store)  # type: ignore[dict-item]
    transport = httpx.ASGITransport(app=create_app(searcher, store))
    return httpx.AsyncClient(transport=transport, base_url="http://localhost"), searcher


async def test_stats_then_clear(tmp_path: Path) -> None:
    web = CachedWeb()
    await web.cache.put("k", ProviderAnswer([]))
    assert await web.cache.get("k") is not None and await web.cache.get("other") is None
    http, searcher = await client(tmp_path, web)
    async with http:
        stats = (await http.get("/api/cache")).json()
        assert (stats["backend"], stats["entries"], stats["hits"], stats["misses"]) == (
            "memory", 1, 1, 1,
        )  # fmt: skip
        assert stats["hit_rate"] == 0.5
        assert (await http.delete("/api/cache")).json() == {"cleared": 1}
        assert (await http.get("/api/cache")).json()["entries"] == 0
        assert (await http.post("/api/cache")).status_code == 405
    await searcher.aclose()


async def test_a_server_without_a_web_cache_says_so(tmp_path: Path) -> None:
    class Plain:
        async def asearch(self, request, ctx):  # type: ignore[no-untyped-def]
            raise AssertionError("not searched here")

    http, searcher = await client(tmp_path, Plain())
    async with http:
        refused = await http.get("/api/cache")
        assert refused.status_code == 404 and "no web cache" in refused.json()["detail"]
    await searcher.aclose()


async def test_the_builtin_web_source_reports_its_persistent_cache(tmp_path: Path) -> None:
    store = SearchStore(f"sqlite:///{tmp_path / 'records.sqlite3'}")
    config = {"web": {"cache": {"path": str(tmp_path / "web.sqlite")}}}
    searcher = Searcher(config, store=store)
    transport = httpx.ASGITransport(app=create_app(searcher, store))
    async with httpx.AsyncClient(transport=transport, base_url="http://localhost") as http:
        stats = (await http.get("/api/cache")).json()
    await searcher.aclose()
    assert stats["backend"] == "sqlite" and stats["location"] == str(tmp_path / "web.sqlite")
