"""Open the record store's database: supported dialects, timeouts, SQLite tuning, safe URLs, fast inserts.

Every database call of the store is bounded by one ``timeout``: on PostgreSQL
the connection attempt (``connect_timeout``), each statement and each lock wait
(``statement_timeout``, ``lock_timeout``), a silent peer (TCP keepalives and
``tcp_user_timeout``) and the wait for a pooled connection; on SQLite the wait
for another writer's lock (``busy_timeout``). Values the URL sets itself win.

Records are written many rows at a time (``PlainInsert``, ``reserve_ids``): one
statement per table and batch, without SQLAlchemy's per-value work, which
cost more than the database itself.

A database failure is named for what it is (``coded_failure``): a full disk
(SQLite's ``SQLITE_FULL``, PostgreSQL's ``53100``, or an I/O error on a disk with
no space left) is ``STORAGE_FULL``, a read-only database ``READ_ONLY``, one that
cannot be reached ``NETWORK_ERROR``.
"""

from __future__ import annotations

import math
import shutil
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from filelock import FileLock
from filelock import Timeout as FileLockTimeout
from sqlalchemy import JSON as SQL_JSON
from sqlalchemy import Connection, Engine, Table, create_engine, event
from sqlalchemy import exc as sa_exc
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import URL, Dialect, make_url
from sqlalchemy.pool import StaticPool

from unified_search._optional import missing_driver
from unified_search.errors import ErrorCode, SearchError

# Dialects with an insert-or-ignore (``ON CONFLICT DO NOTHING``), which keeps the first reference.
DIALECTS: dict[str, Callable[[Table], sqlite.Insert | postgresql.Insert]] = {
    "sqlite": sqlite.insert,
    "postgresql": postgresql.insert,
}


def open_engine(url: str, *, echo: bool, timeout: float, durable: bool) -> Engine:
    """Create the engine, refusing dialects without insert-or-ignore and missing drivers.

    Args:
        url: the SQLAlchemy URL.
        echo: log every statement.
        timeout: seconds any database call may take (see the module docstring).
        durable: every commit waits for the disk: SQLite ``synchronous = FULL``; on
            PostgreSQL, without it, commits do not wait for the WAL flush
            (``synchronous_commit = off``, set once per connection).
    """
    try:
        parsed = make_url(url)
        dialect = parsed.get_backend_name()
        if dialect not in DIALECTS:
            raise SearchError(
                ErrorCode.UNSUPPORTED,
                f"the search store supports sqlite and postgresql URLs, not {dialect!r}",
                provider="store",
            )
        engine = create_engine(parsed, echo=echo, **_options(parsed, timeout, durable))
    except (sa_exc.ArgumentError, ImportError) as exc:
        problem = missing_driver(dialect, exc) if isinstance(exc, ImportError) else str(exc)
        raise SearchError(
            ErrorCode.UNSUPPORTED,
            f"cannot use {safe_url(url)} as the search store: {problem}",
            provider="store",
        ) from exc
    if dialect == "sqlite":
        _tune_sqlite(engine, busy_seconds=timeout, durable=durable)
    return engine


def _options(url: URL, timeout: float, durable: bool) -> dict[str, Any]:
    if url.get_backend_name() != "sqlite":
        return {
            "pool_pre_ping": True,
            "pool_timeout": timeout,
            "connect_args": _postgres_bounds(url, timeout, durable),
        }
    if in_memory(url):
        # Every thread must see the same in-memory database, so they share one connection.
        return {"poolclass": StaticPool, "connect_args": {"check_same_thread": False}}
    return {}


def _postgres_bounds(url: URL, timeout: float, durable: bool) -> dict[str, Any]:
    """Return the libpq parameters bounding every call by ``timeout``, except those the URL sets.

    Unless ``durable``, commits do not wait for the WAL flush either.
    """
    millis = max(1, round(timeout * 1000))
    options = f"-c statement_timeout={millis} -c lock_timeout={millis}"
    bounds: dict[str, Any] = {
        "connect_timeout": max(2, math.ceil(timeout)),  # libpq's minimum is 2 s
        "options": options if durable else f"{options} -c synchronous_commit=off",
        "keepalives": 1,
        "keepalives_idle": max(1, math.ceil(timeout)),
        "keepalives_interval": 1,
        "keepalives_count": 3,
        "tcp_user_timeout": millis,
    }
    return {key: value for key, value in bounds.items() if key not in url.query}


def in_memory(url: URL) -> bool:
    """Tell whether ``url`` is an in-memory SQLite database."""
    return url.get_backend_name() == "sqlite" and url.database in (None, "", ":memory:")


def _tune_sqlite(engine: Engine, *, busy_seconds: float, durable: bool) -> None:
    """Make concurrent writers queue instead of failing.

    WAL keeps other processes' readers going while one writer writes (and with
    ``synchronous = NORMAL`` a commit does not wait for the disk: a process crash
    loses nothing, a power loss at most the last commits; ``durable`` makes every
    commit wait); the busy timeout makes a writer wait for the lock; ``BEGIN
    IMMEDIATE`` takes the write lock at the start of every transaction (reads
    included, which are short), so none fails half-way when it would upgrade from
    reading to writing (SQLite does not wait in that case).
    """
    synchronous = "FULL" if durable else "NORMAL"

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # SQLAlchemy, not the driver, begins
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {max(1, round(busy_seconds * 1000))}")
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute(f"PRAGMA synchronous = {synchronous}")
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE")


@contextmanager
def first_opening(engine: Engine, timeout: float) -> Iterator[None]:
    """Let one process at a time open a SQLite file for the first time.

    The first connection to a new file switches it to WAL, which needs an
    exclusive lock that SQLite does not wait for when two connections switch at
    once ("database is locked", whatever the busy timeout): a lock file beside
    the database makes processes starting together take turns. Other databases,
    and a file whose folder is missing (SQLite says so itself), need nothing here.
    """
    url = engine.url
    sqlite_file = url.get_backend_name() == "sqlite" and not in_memory(url)
    database = url.database if sqlite_file else None
    if database is None or not Path(database).parent.is_dir():
        yield
        return
    try:
        with FileLock(f"{database}.lock", timeout=timeout):
            yield
    except FileLockTimeout as exc:
        raise SearchError(
            ErrorCode.NETWORK_ERROR,
            f"the search store at {database} is being opened by another process for over {timeout:g} s",
            provider="store",
        ) from exc


def safe_url(url: str) -> str:
    """``url`` with its password hidden (or a placeholder when it is not a URL)."""
    try:
        parsed = make_url(url)
    except sa_exc.ArgumentError:
        return "<invalid URL>"
    return url if parsed.password is None else parsed.render_as_string(hide_password=True)


def reason(exc: sa_exc.SQLAlchemyError) -> str:
    """The first line of what the database said."""
    original = getattr(exc, "orig", None)
    return str(original or exc).strip().splitlines()[0]


#: Free bytes below which a SQLite I/O error is taken for a full disk.
NEARLY_FULL = 1024 * 1024


def coded_failure(exc: sa_exc.SQLAlchemyError, where: str, folder: str | None) -> SearchError:
    """The ``SearchError`` of a database failure, named for what it is.

    Args:
        exc: what SQLAlchemy raised.
        where: the store, as messages name it (its URL without the password).
        folder: the SQLite file's folder, whose free space tells a full disk from
            another I/O error (``None`` for a database server).
    """
    said = reason(exc)
    original = getattr(exc, "orig", None)
    name = str(getattr(original, "sqlite_errorname", "") or "")
    state = str(getattr(original, "sqlstate", "") or "")
    io_error = name.startswith("SQLITE_IOERR") or (name == "" and "disk I/O error" in said)
    if name == "SQLITE_FULL" or state == "53100" or (io_error and _nearly_full(folder)):
        return SearchError(
            ErrorCode.STORAGE_FULL,
            f"{where} has no space left ({said}): free disk space and the queued records "
            "are written",
            provider="store",
        )
    if name.startswith("SQLITE_READONLY") or state == "25006":
        return SearchError(
            ErrorCode.READ_ONLY,
            f"{where} cannot be written, it is read-only ({said}): searches are answered "
            "but not recorded",
            provider="store",
        )
    if isinstance(exc, sa_exc.OperationalError):
        return SearchError(
            ErrorCode.NETWORK_ERROR, f"{where} is unavailable: {said}", provider="store"
        )
    return SearchError(ErrorCode.UNKNOWN, f"{where} failed: {said}", provider="store")


def _nearly_full(folder: str | None) -> bool:
    if folder is None:
        return False
    try:
        return shutil.disk_usage(folder).free < NEARLY_FULL
    except OSError:
        return False


def sqlite_folder(engine: Engine) -> str | None:
    """The folder of a SQLite file (``None`` for other databases and in-memory ones)."""
    url = engine.url
    if url.get_backend_name() != "sqlite" or in_memory(url) or not url.database:
        return None
    return str(Path(url.database.removeprefix("file:").partition("?")[0]).resolve().parent)


class PlainInsert:
    """Insert rows given as tuples with one plain statement, bypassing SQLAlchemy's per-row work.

    The statement is the same text for every call, so the driver parses (and
    PostgreSQL prepares) it once; its ``executemany`` sends the rows in one go
    (psycopg pipelines them). Values are bound as the rows hold them: JSON
    columns take text already encoded, other columns go through their type's
    bind processor when the dialect has one (SQLite's dates), so what is stored
    reads back through the table exactly as a Core insert would have.

    Args:
        table: the table.
        dialect: the engine's dialect (its paramstyle and processors).
        columns: the columns, in the order of each row's values.
        on_conflict: what follows the values (``ON CONFLICT DO NOTHING`` ...).
    """

    def __init__(
        self, table: Table, dialect: Dialect, columns: Sequence[str], *, on_conflict: str = ""
    ) -> None:
        quote = dialect.identifier_preparer.quote
        names = ", ".join(quote(name) for name in columns)
        mark = "%s" if dialect.paramstyle in ("format", "pyformat") else "?"
        self._sql = (
            f"INSERT INTO {dialect.identifier_preparer.format_table(table)} ({names}) "
            f"VALUES ({', '.join([mark] * len(columns))})"
            + (f" {on_conflict}" if on_conflict else "")
        )
        processors = {
            position: table.c[name].type.bind_processor(dialect)
            for position, name in enumerate(columns)
            if not isinstance(table.c[name].type, SQL_JSON)
        }
        self._processors = [(at, process) for at, process in processors.items() if process]

    def __call__(self, conn: Connection, rows: Iterable[Sequence[Any]]) -> None:
        """Insert ``rows``."""
        values = [self._values(row) for row in rows] if self._processors else [*map(tuple, rows)]
        if values:
            conn.exec_driver_sql(self._sql, values)

    def _values(self, row: Sequence[Any]) -> tuple[Any, ...]:
        values = list(row)
        for at, process in self._processors:
            values[at] = process(values[at])
        return tuple(values)


def reserve_ids(conn: Connection, table: Table, count: int) -> list[int]:
    """Reserve ``count`` new values of ``table``'s integer ``id`` key, in increasing order.

    PostgreSQL draws them from the column's sequence (other sessions get others).
    SQLite continues after the largest: the store's transactions begin with
    ``BEGIN IMMEDIATE``, so no other writer can take them before this one commits.
    """
    name = conn.dialect.identifier_preparer.format_table(table)
    if conn.dialect.name == "postgresql":
        drawn = conn.exec_driver_sql(
            "SELECT nextval(pg_get_serial_sequence(%(table)s, 'id')) "
            "FROM generate_series(1, %(count)s)",
            {"table": name, "count": count},
        ).scalars()
        return sorted(int(value) for value in drawn)
    top = conn.exec_driver_sql(f"SELECT coalesce(max(id), 0) FROM {name}").scalar_one()
    return list(range(int(top) + 1, int(top) + 1 + count))
