"""Storage faults are named for what they are; a record finally dropped is logged, counted, listed."""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event

from unified_search.engine.searcher import Searcher
from unified_search.errors import ErrorCode, SearchError
from unified_search.records.store import SearchStore

#: A query long enough that recording it needs new pages of the database file.
LONG = "battery " * 240  # under the 2,000 characters a query may have


class DiskCap:
    """Emulate a full disk under a SQLite store: the file may not grow past its size now.

    SQLite's ``max_page_count`` makes it refuse to grow with ``SQLITE_FULL``, the very
    error a full file system gives it (checked on a size-capped tmpfs by
    ``benchmarks/hostile.py``).
    """

    def __init__(self, store: SearchStore) -> None:
        self.store = store
        self.pages: int | None = None
        event.listen(store.engine, "connect", self._on_connect)
        # The cap is on this process's connections: its writes stay here, not in a child's.
        store._process = None

    def _on_connect(self, dbapi_connection: Any, _record: Any) -> None:
        if self.pages is not None:
            dbapi_connection.execute(f"PRAGMA max_page_count = {self.pages}")

    def fill(self) -> None:
        with self.store.engine.connect() as conn:
            self.pages = int(conn.exec_driver_sql("PRAGMA page_count").scalar_one())
        self.store.engine.dispose()

    def free(self) -> None:
        self.pages = None
        self.store.engine.dispose()


@pytest.fixture
def sqlite_store(tmp_path: Path) -> Iterator[SearchStore]:
    store = SearchStore(f"sqlite:///{tmp_path / 'store.sqlite3'}", timeout=1.0, wait=0.5)
    yield store
    store.close()


async def search_all(searcher: Searcher, count: int, word: str = "battery") -> list[Any]:
    return list(
        await asyncio.gather(
            *(searcher.asearch({"query": f"{word} {n} {LONG}", "type": "kb"}) for n in range(count))
        )
    )


async def test_a_full_disk_is_storage_full_and_the_queue_is_written_once_space_is_freed(
    sqlite_store: SearchStore, word_searcher: Callable[[SearchStore], Searcher]
) -> None:
    cap = DiskCap(sqlite_store)
    searcher = word_searcher(sqlite_store)
    await searcher.asearch({"query": "warm up", "type": "kb"})
    cap.fill()
    answers = await search_all(searcher, 5)
    codes = {w.code for answer in answers for w in answer.warnings}
    assert codes == {ErrorCode.STORAGE_FULL}
    message = answers[-1].warnings[0].message
    assert "has no space left (database or disk is full)" in message and "queued" in message
    status = sqlite_store.status()
    assert status.code is ErrorCode.STORAGE_FULL and status.queued + 1 >= 1
    assert status.dropped == 0 and "no space left" in (status.problem or "")

    cap.free()
    assert await sqlite_store.aflush()
    for answer in answers:
        assert len(sqlite_store.get_searches(answer.request_id)) == 1
    assert sqlite_store.status().ok


async def test_records_still_unwritten_at_close_are_dropped_loudly_and_counted(
    sqlite_store: SearchStore,
    word_searcher: Callable[[SearchStore], Searcher],
    caplog: pytest.LogCaptureFixture,
    tmp_path: Path,
) -> None:
    cap = DiskCap(sqlite_store)
    searcher = word_searcher(sqlite_store)
    await searcher.asearch({"query": "warm up", "type": "kb"})
    cap.fill()
    answers = await search_all(searcher, 3)
    with caplog.at_level(logging.ERROR):
        await sqlite_store.aclose()
    ids = {answer.request_id for answer in answers}
    logged = [r.getMessage() for r in caplog.records]
    for request_id in ids:  # each one by its request ID
        assert any(f"search {request_id} dropped" in m and "STORAGE_FULL" in m for m in logged)
    assert sqlite_store.writer.dropped == 3
    # Three short rows fit in the pages the file has: the drops are listed for the operator.
    reopened = SearchStore(f"sqlite:///{tmp_path / 'store.sqlite3'}")
    try:
        total, listed = reopened.dropped_searches()
    finally:
        reopened.close()
    assert total == 3 and {d.request_id for d in listed} == ids
    assert {d.code for d in listed} == {ErrorCode.STORAGE_FULL}


async def test_a_record_refused_on_its_own_is_dropped_and_listed(
    sqlite_store: SearchStore, word_searcher: Callable[[SearchStore], Searcher]
) -> None:
    table = sqlite_store.records.name
    with sqlite_store.engine.begin() as conn:
        conn.exec_driver_sql(
            f"CREATE TRIGGER {table}_refuse BEFORE INSERT ON {table} "
            "WHEN instr(NEW.query, 'poison') > 0 BEGIN SELECT RAISE(ABORT, 'refused'); END"
        )
    searcher = word_searcher(sqlite_store)
    poisoned = await searcher.asearch({"query": "poison pill", "type": "kb"})
    fine = await searcher.asearch({"query": "fine words", "type": "kb"})
    assert sqlite_store.get_searches(fine.request_id)
    total, [dropped] = sqlite_store.dropped_searches()
    assert total == 1 and dropped.request_id == poisoned.request_id
    assert dropped.code is ErrorCode.UNKNOWN and "refused" in dropped.message
    status = await sqlite_store.astatus()
    assert (status.dropped, status.dropped_total, status.ok) == (1, 1, False)


async def test_a_read_only_sqlite_store_answers_searches_and_drops_their_records(
    tmp_path: Path,
    word_searcher: Callable[[SearchStore], Searcher],
    caplog: pytest.LogCaptureFixture,
) -> None:
    path = tmp_path / "store.sqlite3"
    SearchStore(f"sqlite:///{path}").close()
    store = SearchStore(f"sqlite:///file:{path}?mode=ro&uri=true", wait=0.5)
    searcher = word_searcher(store)
    answer = await searcher.asearch({"query": "battery life", "type": "kb"})
    assert answer.items
    assert [w.code for w in answer.warnings] == [ErrorCode.READ_ONLY] * 2
    numbering, record = answer.warnings
    assert numbering.message.startswith("citation IDs were not persisted")
    assert record.message.startswith("could not store the search record")
    assert "read-only (attempt to write a readonly database)" in record.message
    assert not record.retryable
    assert await store.aflush() and store.writer.dropped == 1
    assert store.get_searches(answer.request_id) == []  # reading still works
    with caplog.at_level(logging.ERROR):
        store.close()
    logged = [r.getMessage() for r in caplog.records]
    assert any(f"search {answer.request_id} dropped" in m for m in logged)
    assert any("could not be listed in the store either" in m for m in logged)


@pytest.mark.postgres
async def test_a_read_only_postgres_store_answers_searches_and_drops_their_records(
    postgres_url: str,
    word_searcher: Callable[[SearchStore], Searcher],
    caplog: pytest.LogCaptureFixture,
) -> None:
    store = SearchStore(postgres_url, table_prefix=f"t{uuid.uuid4().hex[:12]}_", wait=0.5)
    try:

        @event.listens_for(store.engine, "connect")
        def _read_only(dbapi_connection: Any, _record: Any) -> None:
            with dbapi_connection.cursor() as cursor:
                cursor.execute("SET default_transaction_read_only = on")
            dbapi_connection.commit()

        store.engine.dispose()
        searcher = word_searcher(store)
        answer = await searcher.asearch({"query": "battery life", "type": "kb"})
        assert answer.items
        assert [w.code for w in answer.warnings] == [ErrorCode.READ_ONLY] * 2
        assert all("read-only" in w.message for w in answer.warnings)
        assert await store.aflush()
        assert store.writer.dropped == 1
        assert any(f"search {answer.request_id} dropped" in r.getMessage() for r in caplog.records)
        with caplog.at_level(logging.ERROR):
            store.close()  # a read-only database cannot list the drop either: the log says so
        assert any(
            "could not be listed in the store either" in r.getMessage()
            and answer.request_id in r.getMessage()
            for r in caplog.records
        )
    finally:
        event.remove(store.engine, "connect", _read_only)
        store.engine.dispose()
        store.metadata.drop_all(store.engine)
        store.engine.dispose()


class Original(Exception):
    """What a driver raises: SQLite's result code name, PostgreSQL's SQLSTATE."""

    def __init__(self, message: str, name: str = "", state: str = "") -> None:
        super().__init__(message)
        self.sqlite_errorname, self.sqlstate = name, state


@pytest.mark.parametrize(
    ("name", "state", "nearly_full", "code"),
    [
        ("SQLITE_FULL", "", False, ErrorCode.STORAGE_FULL),
        ("", "53100", False, ErrorCode.STORAGE_FULL),
        ("SQLITE_IOERR_WRITE", "", True, ErrorCode.STORAGE_FULL),
        ("SQLITE_IOERR_WRITE", "", False, ErrorCode.NETWORK_ERROR),
        ("SQLITE_READONLY_DBMOVED", "", False, ErrorCode.READ_ONLY),
        ("", "25006", False, ErrorCode.READ_ONLY),
        ("SQLITE_BUSY", "", False, ErrorCode.NETWORK_ERROR),
    ],
)
def test_database_failures_are_named_for_what_they_are(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    state: str,
    nearly_full: bool,
    code: ErrorCode,
) -> None:
    """An I/O error is a full disk only when the disk has (almost) no space left."""
    from sqlalchemy import exc as sa_exc

    from unified_search.records import engine

    monkeypatch.setattr(engine, "NEARLY_FULL", 1 << 62 if nearly_full else 0)
    failure = sa_exc.OperationalError("INSERT", {}, Original("disk trouble", name, state))
    coded = engine.coded_failure(failure, "the store", str(tmp_path))
    assert coded.code is code and "disk trouble" in coded.message
    other = sa_exc.IntegrityError("INSERT", {}, Original("constraint"))
    assert engine.coded_failure(other, "the store", None).code is ErrorCode.UNKNOWN


def test_the_status_of_a_store_that_cannot_be_read_says_so(
    sqlite_store: SearchStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    def unreadable(limit: int) -> Any:
        raise SearchError(ErrorCode.NETWORK_ERROR, "gone", provider="store")

    monkeypatch.setattr(sqlite_store.drops, "read", unreadable)
    assert sqlite_store.status().dropped_total is None
