"""Keep search records: a SQLite file by default, PostgreSQL (any SQLAlchemy URL of it) for scale.

Two tables, ``<prefix>search_records`` and ``<prefix>search_references``, hold the
records (and two more the citation numbering, see ``unified_search.ledger``):

- a record row holds one search, its JSON fields, and ``reference_indices``,
  the indices of the references it cited, in its own order;
- a reference row holds one reference of a request, unique by
  ``(request_id, ref_index)``. When a later search of the same request cites
  the same reference again, the first stored row is kept (insert-or-ignore)
  and the later record only lists its index.

``save`` writes all its records in one transaction: either every record and
reference of the call is stored, or nothing is. Soft-deleted records stay in the
table with ``deleted_at`` set and are invisible to the getters; a reference is
visible while a visible record of its request lists it.

Errors: a URL whose dialect or driver is not available fails with
``SearchError(UNSUPPORTED)``; a database that cannot be reached (or fails while
in use) with ``SearchError(NETWORK_ERROR)``, which is retryable; any other
database failure with ``SearchError(UNKNOWN)``. Bad arguments
(an empty ``request_id``, an ``index`` below 1) raise ``ValueError`` naming them.
Text columns cannot hold NUL characters in PostgreSQL, so NUL is stored as U+FFFD
everywhere. The table shapes and row conversions live in ``unified_search.records``.
"""

from __future__ import annotations

import asyncio
import re
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from datetime import UTC, datetime
from math import ceil
from typing import Any

from sqlalchemy import (
    Connection,
    Engine,
    MetaData,
    Table,
    create_engine,
    event,
    select,
    update,
)
from sqlalchemy import exc as sa_exc
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import URL, make_url
from sqlalchemy.pool import StaticPool

from unified_search._lifecycle import Closable
from unified_search.errors import ErrorCode, SearchError
from unified_search.ledger import Ledger, define_ledger
from unified_search.outage import StoreGate
from unified_search.paths import DATA_HOME_ENV, data_home
from unified_search.records import (
    SearchRecord,
    define_tables,
    record_filters,
    record_from_row,
    record_row,
    records_from_response,
    reference_from_row,
    reference_row,
)
from unified_search.types import Reference, SearchType, Source

__all__ = ["DATA_HOME_ENV", "SearchRecord", "SearchStore", "default_url", "records_from_response"]

_PREFIX = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,30}")
# Dialects with an insert-or-ignore (``ON CONFLICT DO NOTHING``), which keeps the first reference.
_DIALECTS: dict[str, Callable[[Table], sqlite.Insert | postgresql.Insert]] = {
    "sqlite": sqlite.insert,
    "postgresql": postgresql.insert,
}
# PostgreSQL advisory lock taken while creating tables: any fixed number, the same in every process.
_CREATE_LOCK = 7261020417
# Seconds a SQLite writer waits for another writer's lock before failing.
_SQLITE_BUSY_SECONDS = 30


def default_url() -> str:
    """Return the SQLite URL in the per-user data directory, creating the directory."""
    directory = data_home()
    directory.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{directory / 'search.sqlite3'}"


class SearchStore(Closable):
    """Store search records and look references up by request and index.

    Args:
        url: a SQLAlchemy URL (``sqlite:///path.sqlite3``,
            ``postgresql+psycopg://user@host/db``); default: ``search.sqlite3`` in
            ``$UNIFIED_SEARCH_HOME`` or ``~/.local/share/unified-search``.
        echo: log every SQL statement (SQLAlchemy's ``echo``).
        table_prefix: prepended to both table names, so several stores (or test
            runs) can share one database.
        timeout: seconds a search waits for the store (numbering, its record) before
            it answers without it; see ``unified_search.outage``.

    Example:
        >>> with SearchStore("sqlite:///:memory:") as store:
        ...     [saved] = store.save([SearchRecord(request_id="r1", query="q", type="web")])
        ...     store.get_searches("r1")[0].id == saved.id
        True
    """

    def __init__(
        self,
        url: str | None = None,
        *,
        echo: bool = False,
        table_prefix: str = "",
        timeout: float = 5.0,
    ) -> None:
        if table_prefix and _PREFIX.fullmatch(table_prefix) is None:
            raise ValueError("table_prefix must be a short SQL identifier (letters, digits, _)")
        self.url = url or default_url()
        self.metadata = MetaData()
        self.records, self.references = define_tables(self.metadata, table_prefix)
        self.engine = _engine(self.url, echo=echo, timeout=timeout)
        self._gate = StoreGate(f"the search store at {_safe(self.url)}", timeout=timeout)
        # An in-memory SQLite database is one shared connection: one caller at a time.
        self._guard: AbstractContextManager[Any] = (
            threading.Lock() if _in_memory(self.engine) else nullcontext()
        )
        self._insert = _DIALECTS[self.engine.dialect.name]
        scopes, ids = define_ledger(self.metadata, table_prefix)
        self.ledger = Ledger(scopes, ids, self._insert, self.engine.dialect.name)
        self._create_tables()

    def _create_tables(self) -> None:
        """Create the tables; workers starting together take turns (PostgreSQL would clash)."""
        with self._connection() as conn:
            if conn.dialect.name == "postgresql":
                conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_CREATE_LOCK})")
            self.metadata.create_all(conn)

    # -- writing --------------------------------------------------------------------------

    def save(self, records: Sequence[SearchRecord]) -> list[SearchRecord]:
        """Store ``records`` in one transaction and return them with their ids.

        Raises:
            ValueError: a record is invalid (nothing is stored).
            SearchError: the database failed (nothing is stored).
        """
        checked = [_checked(record) for record in records]
        if not checked:
            return []
        with self._connection() as conn:
            return [self._save_one(conn, record) for record in checked]

    def _save_one(self, conn: Connection, record: SearchRecord) -> SearchRecord:
        insert = self.records.insert().values(**record_row(record)).returning(self.records.c.id)
        record_id = int(conn.execute(insert).scalar_one())
        if record.references:
            rows = [reference_row(record_id, record.request_id, ref) for ref in record.references]
            statement = self._insert(self.references).on_conflict_do_nothing(
                index_elements=["request_id", "ref_index"]
            )
            conn.execute(statement, rows)
        return record.model_copy(update={"id": record_id})

    def delete_chat(self, chat_id: str) -> int:
        """Soft-delete every record of ``chat_id``; return how many were deleted."""
        _require_text("chat_id", chat_id)
        statement = (
            update(self.records)
            .where(self.records.c.chat_id == chat_id, self.records.c.deleted_at.is_(None))
            .values(deleted_at=datetime.now(UTC))
        )
        with self._connection() as conn:
            return int(conn.execute(statement).rowcount)

    # -- citation numbering (see unified_search.ledger) -------------------------------------

    def allocate_citations(
        self, scope: str, keys: Sequence[str], *, floor: int = 0
    ) -> dict[str, int]:
        """Return the citation index of every item key in ``scope``, numbering new ones atomically.

        Args:
            scope: the citation scope (a search's ``request_id``).
            keys: ``ResultItem.key`` of each item; an item already numbered keeps its index.
            floor: new indices start above this (indices this process handed out unrecorded).
        """
        _require_text("scope", scope)
        with self._connection() as conn:
            return self.ledger.allocate(conn, scope, keys, floor)

    def remember_citations(self, scope: str, indices: Mapping[str, int]) -> None:
        """Record indices handed out in memory for a scope nobody else knew yet."""
        _require_text("scope", scope)
        with self._connection() as conn:
            self.ledger.remember(conn, scope, indices)

    async def aallocate_citations(
        self, scope: str, keys: Sequence[str], *, floor: int = 0
    ) -> dict[str, int]:
        """Async twin of ``allocate_citations``."""
        return await self._gate.call(self.allocate_citations, scope, keys, floor=floor)

    async def aremember_citations(self, scope: str, indices: Mapping[str, int]) -> None:
        """Async twin of ``remember_citations``."""
        await self._gate.call(self.remember_citations, scope, indices)

    # -- reading --------------------------------------------------------------------------

    def get_searches(self, request_id: str, *, include_deleted: bool = False) -> list[SearchRecord]:
        """Return the records of ``request_id`` in save order (soft-deleted ones only if asked)."""
        _require_text("request_id", request_id)
        statement = select(self.records).where(self.records.c.request_id == request_id)
        if not include_deleted:
            statement = statement.where(self.records.c.deleted_at.is_(None))
        with self._connection() as conn:
            rows = conn.execute(statement.order_by(self.records.c.id)).mappings().all()
            by_index = self._references_of(conn, request_id, None) if rows else {}
        return [record_from_row(row, by_index) for row in rows]

    def get_reference(self, request_id: str, index: int) -> Reference | None:
        """Return reference ``index`` (1-based) of ``request_id``, or ``None`` if it is not stored."""
        _require_text("request_id", request_id)
        if index < 1:
            raise ValueError("index must be at least 1")
        with self._connection() as conn:
            if index not in self._visible_indices(conn, request_id):
                return None
            return self._references_of(conn, request_id, index).get(index)

    def get_references(self, request_id: str) -> list[Reference]:
        """Return every visible reference of ``request_id``, ordered by index."""
        _require_text("request_id", request_id)
        with self._connection() as conn:
            visible = self._visible_indices(conn, request_id)
            stored = self._references_of(conn, request_id, None) if visible else {}
        return [stored[index] for index in sorted(visible) if index in stored]

    def find_searches(
        self,
        *,
        chat_id: str | None = None,
        source: Source | SearchType | str | None = None,
        limit: int = 100,
        include_deleted: bool = False,
    ) -> list[SearchRecord]:
        """Return the latest ``limit`` records of a chat and/or a source, oldest first.

        ``source`` is who asked (``user``, ``hook``, ``auto``) or, as the design's
        records call it, the kind of source searched (``web``, ``kb``, ``db``).

        Example:
            >>> store.find_searches(chat_id="c1", source="kb")  # doctest: +SKIP
        """
        if limit < 1:
            raise ValueError("limit must be at least 1")
        if chat_id is not None:
            _require_text("chat_id", chat_id)
        filters = record_filters(self.records, chat_id, source, include_deleted=include_deleted)
        statement = select(self.records).where(*filters)
        statement = statement.order_by(self.records.c.id.desc()).limit(limit)
        with self._connection() as conn:
            rows = list(reversed(conn.execute(statement).mappings().all()))
            stored = self._references_of_requests(conn, {row["request_id"] for row in rows})
        return [record_from_row(row, stored.get(row["request_id"], {})) for row in rows]

    def _references_of_requests(
        self, conn: Connection, request_ids: set[str]
    ) -> dict[str, dict[int, Reference]]:
        table = self.references
        rows = conn.execute(select(table).where(table.c.request_id.in_(request_ids))).mappings()
        found: dict[str, dict[int, Reference]] = {}
        for row in rows:
            found.setdefault(row["request_id"], {})[row["ref_index"]] = reference_from_row(row)
        return found

    def _visible_indices(self, conn: Connection, request_id: str) -> set[int]:
        statement = select(self.records.c.reference_indices).where(
            self.records.c.request_id == request_id, self.records.c.deleted_at.is_(None)
        )
        return {int(index) for listed in conn.scalars(statement) for index in listed}

    def _references_of(
        self, conn: Connection, request_id: str, index: int | None
    ) -> dict[int, Reference]:
        table = self.references
        statement = select(table).where(table.c.request_id == request_id)
        if index is not None:
            statement = statement.where(table.c.ref_index == index)
        rows = conn.execute(statement).mappings()
        return {row["ref_index"]: reference_from_row(row) for row in rows}

    # -- errors and lifecycle ---------------------------------------------------------------

    @contextmanager
    def _connection(self) -> Iterator[Connection]:
        """Run one transaction: committed on success, rolled back on any error."""
        with self._guard, self._translate(), self.engine.begin() as conn:
            yield conn

    @contextmanager
    def _translate(self) -> Iterator[None]:
        """Turn database failures into ``SearchError``s naming the store (password hidden)."""
        try:
            yield
        except sa_exc.OperationalError as exc:
            raise SearchError(
                ErrorCode.NETWORK_ERROR,
                f"the search store at {_safe(self.url)} is unavailable: {_reason(exc)}",
                provider="store",
            ) from exc
        except sa_exc.SQLAlchemyError as exc:
            raise SearchError(
                ErrorCode.UNKNOWN,
                f"the search store at {_safe(self.url)} failed: {_reason(exc)}",
                provider="store",
            ) from exc

    def close(self) -> None:
        """Close every pooled connection."""
        self._gate.close()
        self.engine.dispose()

    async def asave(self, records: Sequence[SearchRecord]) -> list[SearchRecord]:
        """Async twin of ``save`` (runs in a worker thread)."""
        return await self._gate.call(self.save, records)

    async def aget_searches(
        self, request_id: str, *, include_deleted: bool = False
    ) -> list[SearchRecord]:
        """Async twin of ``get_searches``."""
        return await self._gate.call(self.get_searches, request_id, include_deleted=include_deleted)

    async def aget_reference(self, request_id: str, index: int) -> Reference | None:
        """Async twin of ``get_reference``."""
        return await self._gate.call(self.get_reference, request_id, index)

    async def aget_references(self, request_id: str) -> list[Reference]:
        """Async twin of ``get_references``."""
        return await self._gate.call(self.get_references, request_id)

    async def afind_searches(
        self,
        *,
        chat_id: str | None = None,
        source: Source | SearchType | str | None = None,
        limit: int = 100,
        include_deleted: bool = False,
    ) -> list[SearchRecord]:
        """Async twin of ``find_searches``."""
        return await asyncio.to_thread(
            lambda: self.find_searches(
                chat_id=chat_id, source=source, limit=limit, include_deleted=include_deleted
            )
        )

    async def adelete_chat(self, chat_id: str) -> int:
        """Async twin of ``delete_chat``."""
        return await self._gate.call(self.delete_chat, chat_id)

    async def aclose(self) -> None:
        """Async twin of ``close``."""
        await asyncio.to_thread(self.close)

    def __repr__(self) -> str:
        return f"SearchStore({_safe(self.url)!r})"


# -- engine -----------------------------------------------------------------------------------


def _engine(url: str, *, echo: bool, timeout: float) -> Engine:
    """Create the engine, refusing dialects without insert-or-ignore and missing drivers."""
    try:
        parsed = make_url(url)
        dialect = parsed.get_backend_name()
        if dialect not in _DIALECTS:
            raise SearchError(
                ErrorCode.UNSUPPORTED,
                f"the search store supports sqlite and postgresql URLs, not {dialect!r}",
                provider="store",
            )
        engine = create_engine(parsed, echo=echo, **_engine_options(parsed, timeout))
    except (sa_exc.ArgumentError, ImportError) as exc:
        raise SearchError(
            ErrorCode.UNSUPPORTED,
            f"cannot use {_safe(url)} as the search store: {exc}",
            provider="store",
        ) from exc
    if dialect == "sqlite":
        _tune_sqlite(engine)
    return engine


def _engine_options(url: URL, timeout: float) -> dict[str, Any]:
    if url.get_backend_name() != "sqlite":
        # libpq waits 130 s for an unreachable server unless told otherwise (whole seconds).
        connect = {} if "connect_timeout" in url.query else {"connect_timeout": ceil(timeout)}
        return {"pool_pre_ping": True, "connect_args": connect}
    if url.database in (None, "", ":memory:"):
        # Every thread must see the same in-memory database, so they share one connection.
        return {"poolclass": StaticPool, "connect_args": {"check_same_thread": False}}
    return {}


def _in_memory(engine: Engine) -> bool:
    return isinstance(engine.pool, StaticPool)


def _tune_sqlite(engine: Engine) -> None:
    """Make concurrent writers queue instead of failing.

    WAL keeps other processes' readers going while one writer writes (and with
    ``synchronous = NORMAL`` a commit does not wait for the disk: a process crash
    loses nothing, a power loss at most the last commits); the busy timeout
    makes a writer wait for the lock; ``BEGIN IMMEDIATE`` takes the
    write lock at the start of every transaction (reads included, which are
    short), so none fails half-way when it would upgrade from reading to
    writing (SQLite does not wait in that case).
    """

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # SQLAlchemy, not the driver, begins
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {_SQLITE_BUSY_SECONDS * 1000}")
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute("PRAGMA synchronous = NORMAL")
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE")


def _safe(url: str) -> str:
    try:
        parsed = make_url(url)
    except sa_exc.ArgumentError:
        return "<invalid URL>"
    return url if parsed.password is None else parsed.render_as_string(hide_password=True)


def _reason(exc: sa_exc.SQLAlchemyError) -> str:
    original = getattr(exc, "orig", None)
    return str(original or exc).strip().splitlines()[0]


# -- rows -------------------------------------------------------------------------------------


def _require_text(name: str, value: str) -> None:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{name} must be a non-empty string")


def _checked(record: SearchRecord) -> SearchRecord:
    """Validate again: a record built with ``model_construct`` skipped validation."""
    if not isinstance(record, SearchRecord):
        raise TypeError(f"expected SearchRecord, got {type(record).__name__}")
    return SearchRecord.model_validate(dict(record))
