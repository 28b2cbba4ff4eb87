"""Open databases read-only and run compiled ``select`` statements with deadlines.

Three locks keep a search from ever writing: only ``sa.Select`` objects are
accepted (no text, no DML), the connection itself refuses writes (SQLite
opened with ``mode=ro`` and ``PRAGMA query_only``; PostgreSQL in a
``READ ONLY`` transaction), and every transaction is rolled back, never
committed.

Every call is bounded: connecting waits at most ``connect_timeout`` (a
server that accepts and never answers fails with NETWORK_ERROR), and each
transaction, schema reading included, gets a deadline enforced by the
database itself (PostgreSQL ``statement_timeout``, which also covers lock
waits; SQLite a busy timeout for locks and a progress handler for slow
statements), reported as TIMEOUT. The blocking calls run on the handler's own
small thread pool, so a hung database cannot starve the threads other
sources use.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import math
import sqlite3
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import make_url

from unified_search._optional import missing_driver
from unified_search.errors import ErrorCode, SearchError

Row = dict[str, Any]
T = TypeVar("T")
#: libpq (and psycopg) read ``connect_timeout`` in whole seconds and treat less than 2 as 2.
_MIN_PG_CONNECT = 2
#: Threads of the pool that runs database calls (per handler).
DB_THREADS = 4


def create_readonly_engine(url: str, *, connect_timeout: float = 5.0) -> sa.Engine:
    """Create an engine whose connections cannot write and connect within ``connect_timeout``.

    Example:
        >>> engine = create_readonly_engine("sqlite:///shop.db")  # connects on first use
        >>> engine.dialect.name
        'sqlite'
    """
    try:
        parsed = make_url(url)
    except sa.exc.ArgumentError as exc:
        raise SearchError(ErrorCode.INVALID_QUERY, f"db.url is not a valid URL: {exc}") from exc
    if parsed.get_backend_name() != "sqlite":
        args: dict[str, Any] = {}
        if parsed.get_backend_name() == "postgresql":
            args["connect_timeout"] = max(_MIN_PG_CONNECT, math.ceil(connect_timeout))
        try:
            return sa.create_engine(
                parsed, pool_pre_ping=True, pool_timeout=connect_timeout, connect_args=args
            )
        except (sa.exc.NoSuchModuleError, ImportError) as exc:
            problem = missing_driver(parsed.get_backend_name(), exc)
            raise SearchError(ErrorCode.UNSUPPORTED, problem) from exc
    engine = _sqlite_engine(parsed, connect_timeout)
    event.listen(engine, "connect", _sqlite_query_only)
    return engine


def _sqlite_engine(url: sa.URL, connect_timeout: float) -> sa.Engine:
    path = url.database
    if not path or path == ":memory:":
        # An in-memory database has nothing to open read-only; query_only still applies.
        return sa.create_engine(url)
    uri = f"file:{urllib.parse.quote(path)}?mode=ro"

    def connect() -> sqlite3.Connection:
        return sqlite3.connect(uri, uri=True, check_same_thread=False, timeout=connect_timeout)

    # A plain pool: the default for a creator-only SQLite URL assumes an in-memory database.
    return sa.create_engine(
        "sqlite://", creator=connect, poolclass=sa.pool.QueuePool, pool_timeout=connect_timeout
    )


def _sqlite_query_only(dbapi_connection: Any, record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA query_only = ON")
    cursor.close()


class ReadOnlyExecutor:
    """Run ``select`` statements and schema reads on one engine, each within ``timeout`` seconds.

    Example:
        Not run here: ``engine`` and ``table`` are the caller's.

        >>> rows = await ReadOnlyExecutor(engine, timeout=5).fetch(sa.select(table))  # doctest: +SKIP
    """

    def __init__(
        self,
        engine: sa.Engine,
        *,
        timeout: float,
        pool: concurrent.futures.Executor | None = None,
    ) -> None:
        self.engine = engine
        self.timeout = timeout
        self.pool = pool

    async def fetch(self, query: sa.Select[Any]) -> list[Row]:
        """Run ``query`` in a worker thread and return its rows as dicts."""
        if not isinstance(query, sa.Select):
            raise TypeError("only compiled select statements can run")
        return await self.call(lambda conn: [dict(r) for r in conn.execute(query).mappings()])

    def fetch_sync(self, query: sa.Select[Any]) -> list[Row]:
        """Run ``query`` on the calling thread (``fetch`` is the async door)."""
        if not isinstance(query, sa.Select):
            raise TypeError("only compiled select statements can run")
        return self.call_sync(lambda conn: [dict(r) for r in conn.execute(query).mappings()])

    async def call(self, work: Callable[[sa.Connection], T]) -> T:
        """Run ``work`` on a guarded connection in a worker thread (reading a schema, say)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.pool, self.call_sync, work)

    def call_sync(self, work: Callable[[sa.Connection], T]) -> T:
        """Run ``work`` on a guarded connection on the calling thread."""
        try:
            with self.connection() as conn:
                return work(conn)
        except sa.exc.DBAPIError as exc:
            raise translate(exc, self.timeout) from exc
        except sa.exc.TimeoutError as exc:  # every pooled connection stayed busy
            raise SearchError(
                ErrorCode.TIMEOUT, "no database connection became free in time", provider="db"
            ) from exc

    @contextmanager
    def connection(self) -> Iterator[sa.Connection]:
        """Yield a read-only connection whose statements stop at the deadline; roll back after."""
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
    # Waiting for another connection's lock is bounded by the busy timeout ...
    raw.execute(f"PRAGMA busy_timeout = {max(1, int(timeout * 1000))}")
    # ... and running by the progress handler: a non-zero return interrupts the statement.
    raw.set_progress_handler(lambda: int(time.monotonic() > deadline), 10_000)
    try:
        yield
    finally:
        raw.set_progress_handler(None, 0)


_TIMEOUT_SIGNS = ("interrupted", "statement timeout", "canceling statement", "lock timeout")
_LOCKED_SIGNS = ("database is locked", "database table is locked", "database schema is locked")
_NETWORK_SIGNS = (
    "connection timeout",
    "timeout expired",
    "could not connect",
    "connection refused",
    "connection to server",
    "server closed the connection",
    "could not translate host name",
    "no route to host",
    "network is unreachable",
    "consuming input failed",
    "terminating connection",
)


def translate(exc: sa.exc.DBAPIError, timeout: float) -> SearchError:
    """Turn a driver error into a coded ``SearchError`` (the database's own words kept short)."""
    text = str(exc.orig) if exc.orig is not None else str(exc)
    lowered = text.lower()
    if any(sign in lowered for sign in _TIMEOUT_SIGNS):
        return SearchError(
            ErrorCode.TIMEOUT, f"the database query took longer than {timeout:g} s", provider="db"
        )
    if any(sign in lowered for sign in _LOCKED_SIGNS):
        return SearchError(
            ErrorCode.TIMEOUT,
            f"the database stayed locked by another connection for {timeout:g} s",
            provider="db",
        )
    if "read-only" in lowered or "readonly" in lowered or "read only" in lowered:
        return SearchError(ErrorCode.INVALID_QUERY, "writes are not allowed", provider="db")
    if any(sign in lowered for sign in _NETWORK_SIGNS):
        return SearchError(
            ErrorCode.NETWORK_ERROR, f"cannot reach the database: {text[:200]}", provider="db"
        )
    if isinstance(exc, sa.exc.OperationalError):
        return SearchError(
            ErrorCode.PROVIDER_ERROR, f"database unavailable: {text[:200]}", provider="db"
        )
    return SearchError(ErrorCode.PROVIDER_ERROR, f"database error: {text[:200]}", provider="db")


class EnginePool:
    """One read-only engine per URL and connect timeout, shared by every search.

    Example:
        >>> pool = EnginePool()
        >>> pool.get("sqlite://") is pool.get("sqlite://")
        True
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._engines: dict[tuple[str, float], sa.Engine] = {}

    def get(self, url: str, *, connect_timeout: float = 5.0) -> sa.Engine:
        """Return the engine of ``url``, creating it on first use."""
        key = (url, connect_timeout)
        with self._lock:
            engine = self._engines.get(key)
            if engine is None:
                engine = create_readonly_engine(url, connect_timeout=connect_timeout)
                self._engines[key] = engine
            return engine

    def dispose(self) -> None:
        """Close every pooled connection and forget the engines."""
        with self._lock:
            engines, self._engines = list(self._engines.values()), {}
        for engine in engines:
            engine.dispose()
