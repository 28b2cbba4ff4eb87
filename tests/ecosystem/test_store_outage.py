"""A record store that is locked, hung or gone never blocks a search, and loses nothing stored."""

from __future__ import annotations

import asyncio
import socket
import sqlite3
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine

from unified_search.contract.response import SearchResponse
from unified_search.errors import ErrorCode, SearchError
from unified_search.records.store import SearchStore

#: Far below SQLite's busy timeout and libpq's connect timeout: a search waiting for
#: either would miss it.
BOUND = 10.0
TIMEOUT = 0.5


def ids(response: SearchResponse) -> list[str]:
    return [str(item.citation_id) for item in response.items]


def assert_answered_without_the_store(response: SearchResponse) -> None:
    root = response.trace[0]
    assert root.output["citations_persisted"] is False
    messages = [log.message for log in root.logs]
    assert any(m.startswith("citation IDs were not persisted") for m in messages)
    assert any(m.startswith("could not store the search record") for m in messages)


@pytest.fixture
def hung_socket() -> Iterator[socket.socket]:
    """A port that accepts connections and never answers, as a hung database server does."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    try:
        yield server
    finally:
        server.close()  # resets the waiting connections, so no thread stays blocked


@pytest.fixture
def hung_server(hung_socket: socket.socket) -> str:
    return f"127.0.0.1:{hung_socket.getsockname()[1]}"


async def search_through_outage(kit, store: SearchStore, outage, prefix: str = "") -> None:
    """One search before, one during and one after the outage, in one citation scope."""
    searcher = kit.searcher(store)
    before = await searcher.asearch({"query": "a b", "type": "kb"}, request_id="chat-1")
    assert before.trace[0].output["citations_persisted"] is True
    with outage():
        during = await asyncio.wait_for(
            searcher.asearch({"query": "b c", "type": "kb"}, request_id="chat-1"), BOUND
        )
    assert ids(during) == ["ref_002", "ref_003"]  # answered, numbered in memory
    assert_answered_without_the_store(during)
    await asyncio.sleep(TIMEOUT)  # the store is taken as down for one timeout after a failure
    after = await searcher.asearch({"query": "d a", "type": "kb"}, request_id="chat-1")
    assert ids(after) == ["ref_004", "ref_001"]  # never an index handed out in the outage
    assert after.trace[0].output["citations_persisted"] is True
    # The record made during the outage stayed queued and is written once the store is back.
    for _ in range(200):
        if await store.aflush() and store.writer.problem is None:
            break
        await asyncio.sleep(0.05)
    fresh = SearchStore(store.url, table_prefix=prefix)
    titles = [(r.id, r.title) for r in fresh.get_references("chat-1")]
    assert titles == [
        ("ref_001", "kb a"),
        ("ref_002", "kb b"),
        ("ref_003", "kb c"),
        ("ref_004", "kb d"),
    ]
    fresh.close()
    await searcher.aclose()


async def test_a_locked_sqlite_store_answers_at_once(kit, tmp_path: Path):
    """Another process holding the write lock would make a search wait 30 s for it."""
    path = tmp_path / "records.sqlite3"
    store = SearchStore(f"sqlite:///{path}", timeout=TIMEOUT)

    class Locked:
        def __enter__(self) -> None:
            self.holder = sqlite3.connect(path, isolation_level=None)
            self.holder.execute("BEGIN IMMEDIATE")

        def __exit__(self, *exc: object) -> None:
            self.holder.execute("ROLLBACK")
            self.holder.close()

    await search_through_outage(kit, store, Locked)


@pytest.mark.postgres
async def test_a_hung_postgresql_server_answers_within_the_store_timeout(
    kit, postgres_url: str, hung_socket: socket.socket, hung_server: str
):
    prefix = f"o{uuid.uuid4().hex[:10]}_"
    store = SearchStore(postgres_url, table_prefix=prefix, timeout=TIMEOUT)
    live = store.engine
    # No connect timeout of its own: only the store's deadline stands between the search
    # and libpq's 130 s wait.
    hung = create_engine(postgres_url.replace("127.0.0.1:5432", hung_server))

    class Hung:
        def __enter__(self) -> None:
            store.engine = hung

        def __exit__(self, *exc: object) -> None:
            store.engine = live
            hung_socket.close()  # the server is back: the record writer's attempt ends too

    await search_through_outage(kit, store, Hung, prefix)


def test_a_store_that_never_answers_fails_at_once_with_a_clear_error(hung_server: str):
    """libpq would wait 130 s for the server; the store's timeout bounds the connection."""
    url = f"postgresql+psycopg://postgres@{hung_server}/test"
    with pytest.raises(SearchError) as caught:
        SearchStore(url, timeout=TIMEOUT)
    assert caught.value.code is ErrorCode.NETWORK_ERROR and "timeout" in caught.value.message
