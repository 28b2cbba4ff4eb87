"""Two ``serve`` processes, own home folders, one PostgreSQL, one Chroma server, one Redis.

They behave as one service: a chat's numbering continues on either, a reference one
showed resolves on the other, the knowledge base answers the same, the web cache is one.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml
from sqlalchemy import create_engine
from sqlalchemy.engine import make_url

from unified_search.config import SearchConfig
from unified_search.kb.handler import KBHandler
from unified_search.web.cache import make_cache
from unified_search.web.extras import ProviderAnswer

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

DOCS = [
    {"id": "returns", "title": "Returns", "text": "Headphones may be returned within 30 days."},
    {"id": "battery", "title": "Battery", "text": "The Aurora battery lasts 20 hours per charge."},
    {"id": "shipping", "title": "Shipping", "text": "Orders ship within two working days."},
]
WARRANTY = {"id": "warranty", "title": "Warranty", "text": "Headphones carry a two-year warranty."}


@pytest.fixture
def database(postgres_url: str) -> Iterator[str]:
    """A PostgreSQL database of this test alone, dropped afterwards."""
    name = f"scale_{uuid.uuid4().hex[:10]}"
    admin = create_engine(postgres_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
    yield make_url(postgres_url).set(database=name).render_as_string(hide_password=False)
    with admin.connect() as conn:
        conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    admin.dispose()


def start(config: Path, port: int, env: dict[str, str]) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "unified_search.cli", "serve", "--port", str(port)]
    return subprocess.Popen(
        [*command, "--config", str(config)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


async def ask(port: int, query: str) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60) as client:
        body = {"query": query, "types": ["kb"], "chat_id": "chat-1"}
        answer = await client.post("/api/search", json=body)
        assert answer.status_code == 200, answer.text
        result: dict[str, Any] = answer.json()
        return result


async def index(config: SearchConfig, collection: str, docs: list[dict[str, str]]) -> None:
    indexer = KBHandler.from_config(config)
    await indexer.aadd_documents(collection, docs)
    await indexer.aclose()


async def cache_one_answer(config: SearchConfig) -> None:
    cache = make_cache(config.web.cache)
    assert cache is not None
    await cache.put("shared-key", ProviderAnswer([]))
    await cache.aclose()


def shown(answer: dict[str, Any]) -> list[tuple[int, str, str]]:
    return sorted((r["index"], r["title"], r["content"]) for r in answer["references"])


def reference(port: int, index: int) -> dict[str, Any]:
    path = f"/api/chat/chat-1/request/chat-1/reference/{index}"
    shown = httpx.get(f"http://127.0.0.1:{port}{path}", timeout=30)
    assert shown.status_code == 200, shown.text
    found: dict[str, Any] = shown.json()
    return found


def test_two_machines_serve_as_one(
    tmp_path: Path,
    chroma_server: str,
    database: str,
    redis_url: str,
    free_port: Callable[[], int],
    serve_environment: Callable[..., dict[str, str]],
    wait_until_serving: Callable[[int, subprocess.Popen[str]], None],
) -> None:
    collection = f"team-{uuid.uuid4().hex[:8]}"
    prefix = f"scale-{uuid.uuid4().hex[:8]}:"
    settings = {
        "kb": {"chroma_url": chroma_server, "store_url": database, "collections": [collection]},
        "server": {"store_url": database},
        "web": {
            "providers": ["searxng"],
            "searxng": {"base_url": "http://127.0.0.1:9"},
            "cache": {"backend": "redis", "url": redis_url, "prefix": prefix},
        },
    }
    config = tmp_path / "search.yml"
    config.write_text(yaml.safe_dump(settings))
    loaded = SearchConfig.load(config)
    asyncio.run(index(loaded, collection, DOCS))  # a third machine indexes

    ports = [free_port() for _ in "ab"]
    servers = [
        (port, start(config, port, serve_environment(tmp_path / f"home-{name}")))
        for port, name in zip(ports, "ab", strict=True)
    ]
    try:
        for port, server in servers:
            wait_until_serving(port, server)
        (a, _), (b, _) = servers
        first = asyncio.run(ask(a, "how long does the battery last"))
        again = asyncio.run(ask(b, "how long does the battery last"))
        assert shown(again) == shown(first)  # one KB, one chat: same items, same numbers
        assert first["references"][0]["title"] == "Battery"
        asyncio.run(index(loaded, collection, [WARRANTY]))  # meanwhile, elsewhere
        later = asyncio.run(ask(b, "warranty of the headphones"))
        new = [r for r in later["references"] if r["title"] == "Warranty"]
        assert [r["index"] for r in new] == [len(shown(first)) + 1]  # the numbering continues
        for ref in [*first["references"], *later["references"]]:
            for port in (a, b):  # one record store
                assert reference(port, ref["index"])["title"] == ref["title"]

        asyncio.run(cache_one_answer(loaded))
        stats = [httpx.get(f"http://127.0.0.1:{p}/api/cache").json() for p in (a, b)]
        assert [s["entries"] for s in stats] == [1, 1]  # one web cache
        assert httpx.delete(f"http://127.0.0.1:{b}/api/cache").json() == {"cleared": 1}
        assert httpx.get(f"http://127.0.0.1:{a}/api/cache").json()["entries"] == 0
    finally:
        for _, server in servers:
            server.terminate()
            server.communicate(timeout=60)
