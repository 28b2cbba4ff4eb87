"""Chroma, the PostgreSQL record store and the Redis cache all hung at once: the search still answers.

Each stand-in accepts connections and never answers, as a hung server does. The
knowledge base fails alone with TIMEOUT; the web source's cache miss goes to the
healthy provider (not TIMEOUT); the store's failure is reported; all within the
search timeout, however long a hung dependency would hold a caller.
"""

from __future__ import annotations

import asyncio
import socket
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine

from unified_search.config import SearchConfig
from unified_search.engine.searcher import Searcher
from unified_search.errors import ErrorCode
from unified_search.records.store import SearchStore
from unified_search.web.handler import WebHandler

SEARCH_TIMEOUT = 2.0


@pytest.fixture
async def hung() -> AsyncIterator[list[socket.socket]]:
    """Three ports that accept connections and never answer (Chroma, PostgreSQL, Redis).

    Async: closed before the test's event loop waits for its worker threads.
    """
    listeners = [socket.create_server(("127.0.0.1", 0), backlog=64) for _ in range(3)]
    try:
        yield listeners
    finally:
        for listener in listeners:
            listener.close()  # resets the waiting connections: no thread stays blocked


def searxng(request: httpx.Request) -> httpx.Response:
    results = [
        {"url": f"https://example.com/{n}", "title": f"Page {n}", "content": "glaciers", "score": 1}
        for n in range(3)
    ]
    return httpx.Response(200, json={"query": "q", "results": results})


@pytest.mark.postgres
async def test_a_search_answers_within_its_timeout_with_every_dependency_hung(
    postgres_url: str, hung: list[socket.socket], tmp_path: Path, hang_guard: Any
) -> None:
    """The hang guard is far below what a hung dependency holds an unbounded caller (libpq: 130 s)."""
    chroma, postgres, redis = (int(listener.getsockname()[1]) for listener in hung)
    config = SearchConfig.load(
        profile={
            "options": {"timeout": SEARCH_TIMEOUT},
            "kb": {"chroma_url": f"http://127.0.0.1:{chroma}", "data_dir": str(tmp_path)},
            "web": {
                "providers": ["searxng"],
                "searxng": {"base_url": "http://searx.test"},
                "cache": {"backend": "redis", "url": f"redis://127.0.0.1:{redis}/0"},
            },
        }
    )
    prefix = f"h{uuid.uuid4().hex[:10]}_"
    store = SearchStore(postgres_url, table_prefix=prefix, timeout=0.5)
    live = store.engine
    # No connect timeout of its own: only the store's bounds stand between a search and
    # libpq's 130 s wait.
    hung_engine = create_engine(postgres_url.replace("127.0.0.1:5432", f"127.0.0.1:{postgres}"))
    store.engine = hung_engine
    web = WebHandler(config, transport=httpx.MockTransport(searxng))
    try:
        async with Searcher(config, handlers={"web": web}, store=store) as searcher:
            response = await hang_guard(
                searcher.aall([{"query": "glaciers", "type": t} for t in ("kb", "web")]),
                "the search with every dependency hung",
            )
    finally:
        hung[1].close()  # the server is back: the record writer's attempt there ends too
        store.engine = live
        for _ in range(200):  # the writer retries after a pause: let it write before closing
            if await store.aflush() and store.writer.problem is None:
                break
            await asyncio.sleep(0.05)
        store.close()
        hung_engine.dispose()
        cleanup = create_engine(postgres_url)
        store.metadata.drop_all(cleanup)
        cleanup.dispose()
    kb, found = response.results
    assert kb is not None and kb.error is not None and kb.error.code is ErrorCode.TIMEOUT
    assert kb.error.message == f"no answer within {SEARCH_TIMEOUT:g} s"  # the search's timeout
    assert found is not None and found.error is None and len(found.items) == 3
    assert any(w.message.startswith("could not store the search record") for w in response.warnings)
    assert response.trace[0].output["citations_persisted"] is False
