"""A hung or locked database fails the database source in time, with TIMEOUT or NETWORK_ERROR.

Each case is reproduced for real: a PostgreSQL table locked by another
connection, a sleeping PostgreSQL statement, a SQLite file locked by a writer,
and a server that accepts connections and never answers. The other sources
of the same search still answer.
"""

from __future__ import annotations

import shutil
import socket
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from unified_search.contract.handler import SearchContext
from unified_search.db.execute import ReadOnlyExecutor, create_readonly_engine
from unified_search.db.handler import DBHandler
from unified_search.engine.searcher import Searcher
from unified_search.errors import ErrorCode, SearchError
from unified_search.types import ResultItem, SearchRequest, SearchResult

SEARCH_TIMEOUT = 2.0
#: What a database search that timed out names as its bound: its statements' deadline (nine
#: tenths of the search timeout, far below ``db.statement_timeout``), or the search's own.
BOUNDS = (f"{SEARCH_TIMEOUT * 0.9:g} s", f"no answer within {SEARCH_TIMEOUT:g} s")


class Answering:
    """A healthy source: answers at once with one item."""

    async def asearch(self, request: SearchRequest, ctx: SearchContext) -> SearchResult:
        item = ResultItem(type=request.type, title="still here", url="https://example.com/a")
        return SearchResult(type=request.type, query=request.query, items=[item])


async def _search_with_a_healthy_neighbour(url: str, hang_guard: Any) -> Any:
    config = {
        "db": {"url": url, "statement_timeout": 30, "connect_timeout": 2},
        "options": {"timeout": SEARCH_TIMEOUT},
    }
    async with Searcher(config, handlers={"db": DBHandler(), "web": Answering()}) as searcher:
        return await hang_guard(
            searcher.aall(
                [{"query": "products", "type": "db"}, {"query": "products", "type": "web"}]
            ),
            "the search",
        )


def _assert_db_failed_alone(response: Any, *codes: ErrorCode) -> None:
    db, web = response.results
    assert db.error is not None and db.error.code in codes, db.error
    assert web.error is None and [i.title for i in web.items] == ["still here"]
    if db.error.code is ErrorCode.TIMEOUT:  # bounded by the search, not by the database's 30 s
        assert any(bound in db.error.message for bound in BOUNDS), db.error.message


@pytest.mark.postgres
async def test_a_table_locked_by_another_connection_times_out(
    pg_shop_url: str, hang_guard: Any
) -> None:
    locker = sa.create_engine(pg_shop_url)
    conn = locker.connect()
    try:
        transaction = conn.begin()
        conn.execute(sa.text("LOCK TABLE products IN ACCESS EXCLUSIVE MODE"))
        response = await _search_with_a_healthy_neighbour(pg_shop_url, hang_guard)
        transaction.rollback()
    finally:
        conn.close()
        locker.dispose()
    _assert_db_failed_alone(response, ErrorCode.TIMEOUT)


@pytest.mark.postgres
async def test_a_sleeping_statement_is_cancelled_by_the_database(
    pg_shop_url: str, hang_guard: Any
) -> None:
    """Not cancelled, the statement would end in 30 s, with a row and no error."""
    engine = create_readonly_engine(pg_shop_url)
    try:
        with pytest.raises(SearchError) as info:
            await hang_guard(
                ReadOnlyExecutor(engine, timeout=0.5).fetch(sa.select(sa.func.pg_sleep(30))),
                "the sleeping statement",
            )
    finally:
        engine.dispose()
    assert info.value.code is ErrorCode.TIMEOUT
    assert info.value.message == "the database query took longer than 0.5 s"


@pytest.fixture
def locked_sqlite(shop_file: Path, tmp_path: Path) -> Iterator[str]:
    """A copy of the shop whose file a writer holds with an exclusive lock."""
    path = tmp_path / "locked.db"
    shutil.copy(shop_file, path)
    writer = sqlite3.connect(path, isolation_level=None)
    writer.execute("BEGIN EXCLUSIVE")
    try:
        yield f"sqlite:///{path}"
    finally:
        writer.execute("ROLLBACK")
        writer.close()


async def test_a_sqlite_file_locked_by_a_writer_times_out(
    locked_sqlite: str, hang_guard: Any
) -> None:
    response = await _search_with_a_healthy_neighbour(locked_sqlite, hang_guard)
    _assert_db_failed_alone(response, ErrorCode.TIMEOUT)
    assert "locked" in response.results[0].error.message


@pytest.fixture
def silent_server() -> Iterator[int]:
    """A process that accepts TCP connections on loopback and never says a word."""
    code = (
        "import socket, sys, time\n"
        "s = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen(16)\n"
        "print(s.getsockname()[1], flush=True)\n"
        "held = []\n"
        "while True:\n"
        "    held.append(s.accept())\n"
    )
    process = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        yield int(process.stdout.readline())
    finally:
        process.kill()
        process.wait()
        if process.stdout is not None:
            process.stdout.close()


async def test_a_server_that_never_answers_is_a_network_error_in_time(
    silent_server: int, hang_guard: Any
) -> None:
    url = f"postgresql+psycopg://nobody@127.0.0.1:{silent_server}/nothing"
    response = await _search_with_a_healthy_neighbour(url, hang_guard)
    # libpq waits at least 2 s to connect; the search gives up at its own timeout either way.
    _assert_db_failed_alone(response, ErrorCode.NETWORK_ERROR, ErrorCode.TIMEOUT)


async def test_a_refused_connection_is_a_network_error() -> None:
    with socket.socket() as probe:  # a free port: nothing listens there once closed
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    handler = DBHandler()
    config = {"db": {"url": f"postgresql+psycopg://nobody@127.0.0.1:{port}/nothing"}}
    try:
        async with Searcher(config, handlers={"db": handler}) as searcher:
            response = await searcher.asearch({"query": "products", "type": "db"})
    finally:
        await handler.aclose()
    error = response.results[0].error
    assert error is not None and error.code is ErrorCode.NETWORK_ERROR
    assert "cannot reach the database" in error.message
