"""Open databases read-only and run compiled ``select`` statements in worker threads.

Three locks keep a search from ever writing: only ``sa.Select`` objects are
accepted (no text, no DML), the connection itself refuses writes (SQLite
opened with ``mode=ro`` and ``PRAGMA query_only``; PostgreSQL in a
``READ ONLY`` transaction), and every transaction is rolled back, never
committed. Each statement gets a time limit.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import make_url

from unified_search.errors import ErrorCode, SearchError

Row = dict[str, Any]


def create_readonly_engine(url: str) -> sa.Engine:
    """Create an engine whose connections cannot write.

    Example:
        >>> engine = create_readonly_engine("sqlite:///shop.db")  # doctest: +SKIP
    """
    try:
        parsed = make_url(url)
    except sa.exc.ArgumentError as exc:
        raise SearchError(ErrorCode.INVALID_QUERY, f"db.url is not a valid URL: {exc}") from exc
    if parsed.get_backend_name() != "sqlite":
        return sa.create_engine(parsed, pool_pre_ping=True)
    engine = _sqlite_engine(parsed)
    event.listen(engine, "connect", _sqlite_query_only)
    return engine


def _sqlite_engine(url: sa.URL) -> sa.Engine:
    path = url.database
    if not path or path == ":memory:":
        # An in-memory database has nothing to open read-only; query_only still applies.
        return sa.create_engine(url)
    uri = f"file:{urllib.parse.quote(path)}?mode=ro"

    def connect() -> sqlite3.Connection:
        return sqlite3.connect(uri, uri=True, check_same_thread=False)

    # A plain pool: the default for a creator-only SQLite URL assumes an in-memory database.
    return sa.create_engine("sqlite://", creator=connect, poolclass=sa.pool.QueuePool)


def _sqlite_query_only(dbapi_connection: Any, record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA query_only = ON")
    cursor.close()


class ReadOnlyExecutor:
    """Run ``select`` statements on one engine with a time limit.

    Example:
        >>> rows = await ReadOnlyExecutor(engine, timeout=5).fetch(sa.select(table))  # doctest: +SKIP
    """

    def __init__(self, engine: sa.Engine, *, timeout: float) -> None:
        self.engine = engine
        self.timeout = timeout

    async def fetch(self, query: sa.Select[Any]) -> list[Row]:
        """Run ``query`` in a worker thread and return its rows as dicts."""
        if not isinstance(query, sa.Select):
            raise TypeError("only compiled select statements can run")
        return await asyncio.to_thread(self.fetch_sync, query)

    def fetch_sync(self, query: sa.Select[Any]) -> list[Row]:
        """Run ``query`` on the calling thread (``fetch`` is the async door)."""
        if not isinstance(query, sa.Select):
            raise TypeError("only compiled select statements can run")
        try:
            with self._transaction() as conn:
                return [dict(row) for row in conn.execute(query).mappings()]
        except sa.exc.DBAPIError as exc:
            raise _translate(exc) from exc

    @contextmanager
    def _transaction(self) -> Iterator[sa.Connection]:
        with self.engine.connect() as conn:
            try:
                if conn.dialect.name == "postgresql":
                    _postgres_guard(conn, self.timeout)
                    yield conn
                elif conn.dialect.name == "sqlite":
                    with _sqlite_deadline(conn, self.timeout):
                        yield conn
                else:
                    yield conn
            finally:
                conn.rollback()


def _postgres_guard(conn: sa.Connection, timeout: float) -> None:
    conn.execute(sa.text("SET TRANSACTION READ ONLY"))
    milliseconds = str(max(1, int(timeout * 1000)))
    conn.execute(sa.select(sa.func.set_config("statement_timeout", milliseconds, True)))


@contextmanager
def _sqlite_deadline(conn: sa.Connection, timeout: float) -> Iterator[None]:
    raw: Any = conn.connection.driver_connection
    deadline = time.monotonic() + timeout
    # A non-zero return from the progress handler interrupts the running statement.
    raw.set_progress_handler(lambda: int(time.monotonic() > deadline), 10_000)
    try:
        yield
    finally:
        raw.set_progress_handler(None, 0)


def _translate(exc: sa.exc.DBAPIError) -> SearchError:
    text = str(exc.orig) if exc.orig is not None else str(exc)
    lowered = text.lower()
    if (
        "interrupted" in lowered
        or "statement timeout" in lowered
        or "canceling statement" in lowered
    ):
        return SearchError(ErrorCode.TIMEOUT, "the database query took too long", provider="db")
    if "read-only" in lowered or "readonly" in lowered or "read only" in lowered:
        return SearchError(ErrorCode.INVALID_QUERY, "writes are not allowed", provider="db")
    if isinstance(exc, sa.exc.OperationalError):
        return SearchError(
            ErrorCode.PROVIDER_ERROR, f"database unavailable: {text[:200]}", provider="db"
        )
    return SearchError(ErrorCode.PROVIDER_ERROR, f"database error: {text[:200]}", provider="db")


class EnginePool:
    """One read-only engine per URL, shared by every search; ``dispose`` closes them all.

    Example:
        >>> pool = EnginePool()
        >>> pool.get("sqlite://") is pool.get("sqlite://")
        True
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._engines: dict[str, sa.Engine] = {}

    def get(self, url: str) -> sa.Engine:
        """Return the engine of ``url``, creating it on first use."""
        with self._lock:
            engine = self._engines.get(url)
            if engine is None:
                engine = create_readonly_engine(url)
                self._engines[url] = engine
            return engine

    def dispose(self) -> None:
        """Close every pooled connection and forget the engines."""
        with self._lock:
            engines, self._engines = list(self._engines.values()), {}
        for engine in engines:
            engine.dispose()
