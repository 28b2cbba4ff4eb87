"""Saves are all-or-nothing and many concurrent saves lose nothing."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, func, select

from unified_search.records.store import SearchRecord, SearchStore

MakeRecord = Callable[..., SearchRecord]


def row_counts(store: SearchStore) -> tuple[int, int]:
    with store.engine.connect() as conn:
        records = conn.scalar(select(func.count()).select_from(store.records))
        references = conn.scalar(select(func.count()).select_from(store.references))
    return int(records or 0), int(references or 0)


def test_an_invalid_second_record_stores_nothing(
    store: SearchStore, make_record: MakeRecord
) -> None:
    """A record that skipped validation fails the whole call before anything is written."""
    broken = SearchRecord.model_construct(**{**dict(make_record("r", 2)), "request_id": ""})
    with pytest.raises(ValueError, match="request_id"):
        store.save([make_record("r", 1), broken])
    assert row_counts(store) == (0, 0)


class FailOnReferenceInsert:
    """Raise from inside the transaction, after the records are written, as the references are."""

    def __init__(self, table: str) -> None:
        self.table = table
        self.seen = 0

    def __call__(self, conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if statement.startswith("INSERT INTO") and self.table in statement:
            self.seen += 1
            raise RuntimeError("disk on fire")


def test_a_failure_inside_the_transaction_stores_nothing(
    store: SearchStore, make_record: MakeRecord
) -> None:
    store.save([make_record("earlier", 1)])
    hook = FailOnReferenceInsert(store.references.name)
    event.listen(store.engine, "before_cursor_execute", hook)
    try:
        with pytest.raises(RuntimeError, match="disk on fire"):
            store.save([make_record("r", 1), make_record("r", 2), make_record("r", 3)])
    finally:
        event.remove(store.engine, "before_cursor_execute", hook)
    assert hook.seen == 1
    assert row_counts(store) == (1, 1)
    assert store.get_searches("r") == []
    assert store.get_reference("r", 1) is None


async def test_fifty_concurrent_saves_lose_nothing(
    store: SearchStore, make_record: MakeRecord
) -> None:
    """50 tasks save at once; five requests share indices, so conflicts are exercised too."""
    batches = [
        [make_record(f"req-{n % 5}", n // 5 + 1, chat_id="c"), make_record(f"own-{n}", 1, 2)]
        for n in range(50)
    ]
    saved = await asyncio.gather(*(store.asave(batch) for batch in batches))
    ids = [record.id for batch in saved for record in batch]
    assert len(set(ids)) == 100 and None not in ids
    assert row_counts(store) == (100, 50 + 100)
    for n in range(5):
        assert [ref.index for ref in store.get_references(f"req-{n}")] == list(range(1, 11))
        assert len(store.get_searches(f"req-{n}")) == 10
    assert all(len(store.get_references(f"own-{n}")) == 2 for n in range(50))
    assert await store.adelete_chat("c") == 50


async def test_two_sqlite_stores_on_one_file_write_concurrently(
    tmp_path: Path, make_record: MakeRecord
) -> None:
    """Separate engines (as separate processes would) queue on the lock instead of failing."""
    url = f"sqlite:///{tmp_path / 'shared.sqlite3'}"
    with SearchStore(url) as first, SearchStore(url) as second:
        jobs = [(first if n % 2 else second).asave([make_record(f"r{n}", 1, 2)]) for n in range(40)]
        await asyncio.gather(*jobs)
        assert row_counts(first) == (40, 80)


def test_sqlite_runs_in_wal_mode_with_a_busy_timeout(tmp_path: Path) -> None:
    with (
        SearchStore(f"sqlite:///{tmp_path / 'wal.sqlite3'}") as store,
        store.engine.connect() as conn,
    ):
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert int(conn.exec_driver_sql("PRAGMA busy_timeout").scalar() or 0) > 0


async def test_an_in_memory_store_is_shared_by_every_thread(make_record: MakeRecord) -> None:
    """Worker threads see one in-memory database and take turns on it."""
    async with SearchStore("sqlite:///:memory:") as store:
        await asyncio.gather(*(store.asave([make_record(f"r{n}", 1)]) for n in range(20)))
        assert row_counts(store) == (20, 20)
        assert len(await store.aget_references("r7")) == 1
