"""Keep search records: a SQLite file by default, PostgreSQL (any SQLAlchemy URL of it) for scale.

Two tables, ``<prefix>search_records`` and ``<prefix>search_references``, hold the
records (two more the citation numbering, see ``unified_search.records.ledger``, and
one the citation checks of answers, see ``unified_search.records.checks``):

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

Search records reach the database through a ``RecordWriter`` (see
``unified_search.records.writer``): ``arecord`` queues a search's records and the writer
commits many searches per transaction (group commit). Every search waits for
the commit of its batch, so its answer says whether it was stored; with
``sync=True`` that commit also waits for the disk. Either wait lasts at most
``wait`` seconds: a slow or unreachable store never holds an answer longer, the
answer says what was not stored, and the writer keeps retrying. Once searches
come faster than one at a time, the batches are written by a child process with
its own connection (``unified_search.records.writer_process``), beside the searches. Reads first wait
(as long) for this store's queued records, so a process always reads its own
searches; another process sees them once committed.

Errors: a URL whose dialect or driver is not available fails with
``SearchError(UNSUPPORTED)``; a database that cannot be reached (or fails while
in use) with ``SearchError(NETWORK_ERROR)``, which is retryable, as is a full disk
(``STORAGE_FULL``); a read-only database with ``READ_ONLY``; any other
database failure with ``SearchError(UNKNOWN)``. Bad arguments
(an empty ``request_id``, an ``index`` below 1) raise ``ValueError`` naming them.
Text columns cannot hold NUL characters in PostgreSQL, so NUL is stored as U+FFFD
everywhere. The table shapes and row conversions live in ``unified_search.records.model``.
"""

from __future__ import annotations

import asyncio
import re
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, MetaData, select, update
from sqlalchemy import exc as sa_exc

from unified_search._lifecycle import Closable
from unified_search.config.search import SearchConfig
from unified_search.contract.response import SearchResponse
from unified_search.errors import ErrorCode, SearchError
from unified_search.paths import DATA_HOME_ENV, data_home
from unified_search.records.checks import CheckRecords, define_checks
from unified_search.records.drops import DropList, DroppedSearch, StoreStatus, define_drops
from unified_search.records.engine import (
    DIALECTS,
    PlainInsert,
    coded_failure,
    first_opening,
    in_memory,
    open_engine,
    reserve_ids,
    safe_url,
    sqlite_folder,
)
from unified_search.records.ledger import Ledger, define_ledger
from unified_search.records.model import (
    SearchRecord,
    define_tables,
    record_filters,
    record_from_row,
    records_from_response,
    reference_from_row,
)
from unified_search.records.outage import StoreGate, gated_twin
from unified_search.records.rows import (
    RECORD_COLUMNS,
    REFERENCE_COLUMNS,
    RecordRows,
    rows_from_response,
    rows_of_record,
)
from unified_search.records.writer import PendingWrite, RecordWriter
from unified_search.records.writer_process import Fresh, WriterProcess
from unified_search.types import Reference, SearchType, Source

__all__ = ["DATA_HOME_ENV", "SearchRecord", "SearchStore", "default_url", "records_from_response"]
_PREFIX = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,30}")
# PostgreSQL advisory lock taken while creating tables: any fixed number, the same in every process.
_CREATE_LOCK = 7261020417


def default_url() -> str:
    """Return the SQLite URL in the per-user data directory, creating the directory."""
    directory = data_home()
    directory.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{directory / 'search.sqlite3'}"


class SearchStore(CheckRecords, Closable):
    """Store search records and look references up by request and index.

    Args:
        url: a SQLAlchemy URL (``sqlite:///path.sqlite3``,
            ``postgresql+psycopg://user@host/db``); default: ``search.sqlite3`` in
            ``$UNIFIED_SEARCH_HOME`` or ``~/.local/share/unified-search``.
        echo: log every SQL statement (SQLAlchemy's ``echo``).
        table_prefix: prepended to both table names, so several stores (or test
            runs) can share one database.
        timeout: seconds any database call may take (connect, statement, lock wait;
            see ``unified_search.records.engine``), and how long ``close`` keeps
            retrying queued records on a store that is down.
        wait: seconds a search waits for the store (numbering, its record's commit)
            before it answers without it.
        sync: every commit waits until it is on disk (SQLite ``synchronous = FULL``,
            PostgreSQL's durable commit); otherwise a crash of the machine or the
            database server may lose the last commits (a crash of this process never does).
        max_pending: searches queued for the writer before searches slow down; it bounds
            the memory a hung store can take (a record with its references is tens of KiB).
        await_commit: each search waits for its batch's commit, so its answer says whether
            it was stored. ``False`` answers at once and writes behind the answers: a
            failing store is then reported by the searches that follow (and logged), a
            killed process loses at most the searches of the last flush, and another
            process may see a search a few milliseconds after its answer.

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
        wait: float = 1.0,
        sync: bool = False,
        max_pending: int = 1_000,
        await_commit: bool = True,
    ) -> None:
        if table_prefix and _PREFIX.fullmatch(table_prefix) is None:
            raise ValueError("table_prefix must be a short SQL identifier (letters, digits, _)")
        for name, value in (("timeout", timeout), ("wait", wait), ("max_pending", max_pending)):
            if value <= 0:
                raise ValueError(f"{name} must be positive")
        self.url = url or default_url()
        if sync and not await_commit:
            raise ValueError("sync needs await_commit: a record on disk is one waited for")
        self.timeout, self.wait, self.sync = timeout, wait, sync
        self.await_commit = await_commit
        self.metadata = MetaData()
        self.records, self.references = define_tables(self.metadata, table_prefix)
        self.engine = open_engine(self.url, echo=echo, timeout=timeout, durable=sync)
        # An in-memory SQLite database is one shared connection: one caller at a time.
        self._guard: AbstractContextManager[Any] = (
            threading.Lock() if in_memory(self.engine.url) else nullcontext()
        )
        self._insert = DIALECTS[self.engine.dialect.name]
        dialect = self.engine.dialect
        self._insert_records = PlainInsert(self.records, dialect, ["id", *RECORD_COLUMNS])
        self._insert_references = PlainInsert(
            self.references,
            dialect,
            ["record_id", *REFERENCE_COLUMNS],
            on_conflict="ON CONFLICT DO NOTHING",
        )
        self.checks = define_checks(self.metadata, table_prefix)
        scopes, ids = define_ledger(self.metadata, table_prefix)
        self.ledger = Ledger(scopes, ids, self._insert, self.engine.dialect)
        self.drops = DropList(define_drops(self.metadata, table_prefix), self._connection)
        # The async twins run on the store's own threads, within ``timeout``.
        self._gate = StoreGate(f"the search store at {safe_url(self.url)}", timeout=timeout)
        self.writer = RecordWriter(
            self._write_batch,
            max_pending=max_pending,
            close_timeout=timeout,
            stall=wait,
            on_drop=self.drops.add,
        )
        # Under load, a process of its own writes the batches (an in-memory database has none).
        options = {"echo": echo, "table_prefix": table_prefix, "timeout": timeout, "sync": sync}
        self._process = (
            None if in_memory(self.engine.url) else WriterProcess({"url": self.url, **options})
        )
        self._create_tables()

    def _create_tables(self) -> None:
        """Create the tables; workers starting together take turns (SQLite and PostgreSQL would clash)."""
        with (
            self._translate(),
            first_opening(self.engine, self.timeout),
            self._connection() as conn,
        ):
            if conn.dialect.name == "postgresql":
                conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({_CREATE_LOCK})")
            self.metadata.create_all(conn)

    # -- writing --------------------------------------------------------------------------

    def save(self, records: Sequence[SearchRecord]) -> list[SearchRecord]:
        """Store ``records`` in one transaction now (not through the writer); return them with ids.

        Raises:
            ValueError: a record is invalid (nothing is stored).
            SearchError: the database failed (nothing is stored).
        """
        checked = [_checked(record) for record in records]
        if not checked:
            return []
        with self._connection() as conn:
            ids = self._insert_rows(conn, [rows_of_record(record) for record in checked])
        return [
            record.model_copy(update={"id": id_}) for record, id_ in zip(checked, ids, strict=True)
        ]

    async def arecord(
        self,
        response: SearchResponse,
        config: SearchConfig,
        citations: Mapping[str, int] | None = None,
    ) -> SearchError | None:
        """Hand the records of ``response`` to the writer; return what went wrong, if anything.

        Args:
            response: the answered search.
            config: the configuration it ran with (stored without credentials).
            citations: the numbering of a scope the search created, written with its records.

        The call waits (at most ``wait`` seconds) for the commit of the batch
        that holds the records: the many searches of a busy service share one
        transaction, and each learns whether its own records are stored. A returned
        error says they are not committed: still queued and retried (``retryable``),
        refused when the queue stayed full, or dropped because they failed on their own.
        """
        try:
            # Built here, once: the loop holds the interpreter anyway, and the writer's
            # thread, left with little but the database's own work, rarely needs it.
            rows = rows_from_response(response, config)
        except Exception as exc:  # a record that cannot be built is reported with its search
            return SearchError(
                ErrorCode.UNKNOWN,
                f"the search record could not be built: {exc}",
                provider="store",
            )
        write = PendingWrite(response.request_id, rows, dict(citations or {}))
        try:
            await self.writer.asubmit(write, wait=self.wait)
        except SearchError as exc:
            return exc
        known = self.writer.problem or self._gate.problem  # the writer's, or this search's own
        if known is not None:
            return self._unavailable(known)
        if not self.await_commit:
            return None
        try:
            if await self.writer.await_commit(write, wait=self.wait):
                return None
        except Exception as exc:  # the write was dropped: it failed on its own
            return (
                exc
                if isinstance(exc, SearchError)
                else SearchError(ErrorCode.UNKNOWN, f"not stored: {exc}", provider="store")
            )
        if self.writer.problem is not None:
            return self._unavailable(self.writer.problem)
        return SearchError(
            ErrorCode.TIMEOUT,
            f"not written within {self.wait:g} s; it stays queued ({self.writer.pending} waiting)",
            provider="store",
            retryable=True,
        )

    def flush(self) -> bool:
        """Wait (up to ``timeout`` s) until every queued record is committed; tell whether it was."""
        return self.writer.flush(self.timeout)

    async def aflush(self) -> bool:
        """Async twin of ``flush``."""
        return await asyncio.to_thread(self.flush)

    def _unavailable(self, problem: str) -> SearchError:
        """Records not stored yet: queued and retried, under the code of what is failing."""
        failure = self.writer.failure
        code = failure.code if failure is not None else ErrorCode.NETWORK_ERROR
        return SearchError(
            code,
            f"the store is failing, records are queued and retried: {problem}",
            provider="store",
            retryable=True,
        )

    def dropped_searches(self, limit: int = 100) -> tuple[int, list[DroppedSearch]]:
        """How many searches were dropped (by any process), and the latest ``limit`` of them."""
        return self.drops.read(limit)

    def status(self) -> StoreStatus:
        """How writes are going: queued, dropped (here and in all), the failure if any."""
        try:
            total: int | None = self.dropped_searches(1)[0]
        except SearchError:
            total = None
        failure = self.writer.failure
        return StoreStatus(
            queued=self.writer.pending,
            dropped=self.writer.dropped,
            dropped_total=total,
            problem=self.writer.problem,
            code=failure.code if failure is not None else None,
        )

    def _write_batch(self, batch: Sequence[PendingWrite]) -> None:
        """Write the searches of ``batch`` in one transaction (the writer's thread calls this)."""
        fresh = [(w.request_id, w.citations) for w in batch if w.citations]
        rows = [rows for w in batch for rows in w.records]
        if not (fresh or rows):
            return
        process = self._process
        if process is not None and (len(batch) > 1 or self.writer.pending):
            process.start()  # searches come faster than one at a time: busy enough for a process
        if process is None or not process.ready or not process.write(fresh, rows):
            self.write_rows(fresh, rows)  # quiet, the process is starting, or it just died
        self.drops.flush()  # the store takes writes again: list what was given up meanwhile

    def write_rows(self, fresh: Fresh, rows: Sequence[RecordRows]) -> None:
        """Write fresh scopes' numbering and record rows in one transaction (the writer process's job)."""
        with self._connection() as conn:  # a store that is not ``sync`` never waits for the disk
            self.ledger.remember_many(conn, fresh)
            self._insert_rows(conn, rows)

    def _insert_rows(self, conn: Connection, rows: Sequence[RecordRows]) -> list[int]:
        """Insert records and their references (the first stored copy of each is kept)."""
        if not rows:
            return []
        ids = reserve_ids(conn, self.records, len(rows))
        pairs = list(zip(ids, rows, strict=True))
        self._insert_records(conn, [(id_, *r.record) for id_, r in pairs])
        self._insert_references(
            conn, [(id_, *reference) for id_, r in pairs for reference in r.references]
        )
        return ids

    def delete_chat(self, chat_id: str) -> int:
        """Soft-delete every record of ``chat_id``; return how many were deleted."""
        _require_text("chat_id", chat_id)
        self.writer.flush(self.wait)  # the records still queued are deleted too
        statement = (
            update(self.records)
            .where(self.records.c.chat_id == chat_id, self.records.c.deleted_at.is_(None))
            .values(deleted_at=datetime.now(UTC))
        )
        with self._connection() as conn:
            return int(conn.execute(statement).rowcount)

    # -- citation numbering (see unified_search.records.ledger) -------------------------------------

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
        """Async twin of ``allocate_citations``, answering within ``wait`` seconds or failing.

        A search waits for this, so a store the writer already knows to be failing
        is not asked at all (``NETWORK_ERROR``), and one that takes longer than
        ``wait`` fails with ``TIMEOUT``: the numbering then continues in memory.
        """
        if self.writer.problem is not None:
            raise self._unavailable(self.writer.problem)
        call = self._gate.call(self.allocate_citations, scope, keys, floor=floor)
        try:
            return await asyncio.wait_for(call, self.wait)
        except TimeoutError:
            raise SearchError(
                ErrorCode.TIMEOUT,
                f"the search store at {safe_url(self.url)} did not number within {self.wait:g} s",
                provider="store",
                retryable=True,
            ) from None

    aremember_citations = gated_twin(remember_citations)

    # -- reading --------------------------------------------------------------------------

    def get_searches(self, request_id: str, *, include_deleted: bool = False) -> list[SearchRecord]:
        """Return the records of ``request_id`` in save order (soft-deleted ones only if asked)."""
        _require_text("request_id", request_id)
        self.writer.flush(self.wait)  # read this process's own searches
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
        self.writer.flush(self.wait)  # read this process's own searches
        if index < 1:
            raise ValueError("index must be at least 1")
        with self._connection() as conn:
            if index not in self._visible_indices(conn, request_id):
                return None
            return self._references_of(conn, request_id, index).get(index)

    def get_references(self, request_id: str) -> list[Reference]:
        """Return every visible reference of ``request_id``, ordered by index."""
        _require_text("request_id", request_id)
        self.writer.flush(self.wait)  # read this process's own searches
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
            Not run here: ``store`` stands for an open SearchStore.

            >>> store.find_searches(chat_id="c1", source="kb")  # doctest: +SKIP
        """
        if limit < 1:
            raise ValueError("limit must be at least 1")
        if chat_id is not None:
            _require_text("chat_id", chat_id)
        filters = record_filters(self.records, chat_id, source, include_deleted=include_deleted)
        self.writer.flush(self.wait)  # read this process's own searches
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
        except sa_exc.SQLAlchemyError as exc:
            where = f"the search store at {safe_url(self.url)}"
            raise coded_failure(exc, where, sqlite_folder(self.engine)) from exc

    def close(self) -> None:
        """Write every queued record (retrying up to ``timeout`` s), then close the connections."""
        self.writer.close()
        self.drops.close()
        if self._process is not None:
            self._process.close()
        self._gate.close()
        self.engine.dispose()

    asave = gated_twin(save)
    aget_searches = gated_twin(get_searches)
    aget_reference = gated_twin(get_reference)
    aget_references = gated_twin(get_references)
    afind_searches = gated_twin(find_searches)
    astatus = gated_twin(status)
    adropped_searches = gated_twin(dropped_searches)
    adelete_chat = gated_twin(delete_chat)

    async def aclose(self) -> None:
        """Async twin of ``close``."""
        await asyncio.to_thread(self.close)

    def __repr__(self) -> str:
        return f"SearchStore({safe_url(self.url)!r})"


# -- rows -------------------------------------------------------------------------------------


def _require_text(name: str, value: str) -> None:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{name} must be a non-empty string")


def _checked(record: SearchRecord) -> SearchRecord:
    """Validate again: a record built with ``model_construct`` skipped validation."""
    if not isinstance(record, SearchRecord):
        raise TypeError(f"expected SearchRecord, got {type(record).__name__}")
    return SearchRecord.model_validate(dict(record))
