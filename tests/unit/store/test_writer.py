"""The record writer: batches, back-pressure, retries, close, and what searches wait for."""

from __future__ import annotations

import asyncio
import threading
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from sqlalchemy import event

from unified_search.engine.searcher import Searcher
from unified_search.errors import ErrorCode, SearchError
from unified_search.records.store import SearchStore
from unified_search.records.writer import MIN_BATCH, PendingWrite, RecordWriter

WordSearcher = Callable[[SearchStore], Searcher]


def write(name: str, rows: int = 1) -> PendingWrite:
    return PendingWrite(name, [name] * rows)


def held_writes(store: SearchStore) -> threading.Event:
    """Hold ``store``'s batch writes (up to 10 s) until the returned event is set."""
    gate = threading.Event()
    original = store._write_batch

    def held(batch: Sequence[PendingWrite]) -> None:
        gate.wait(10)
        original(batch)

    store.writer._write = held  # type: ignore[method-assign]
    return gate


class Recorder:
    """A batch writer that remembers what it wrote, optionally blocking or failing first."""

    def __init__(self, failures: list[Exception] | None = None) -> None:
        self.batches: list[list[str]] = []
        self.failures = failures or []
        self.gate = threading.Event()
        self.gate.set()

    def __call__(self, batch: Sequence[PendingWrite]) -> None:
        self.gate.wait(10)
        if self.failures:
            raise self.failures.pop(0)
        self.batches.append([w.request_id for w in batch])


async def test_writes_queued_during_a_commit_share_the_next_ones() -> None:
    recorder = Recorder()
    writer = RecordWriter(recorder)
    recorder.gate.clear()
    await writer.asubmit(write("first"), wait=1)
    await asyncio.sleep(0.05)  # the thread is now inside the first commit
    for n in range(20):
        await writer.asubmit(write(f"w{n}"), wait=1)
    recorder.gate.set()
    writer.close()
    assert recorder.batches[0] == ["first"]
    assert [name for batch in recorder.batches[1:] for name in batch] == [
        f"w{n}" for n in range(20)
    ]
    assert len(recorder.batches) <= 3


async def test_a_batch_takes_about_half_of_what_waits() -> None:
    """So some searches are answered, and work again, while the others are written."""
    recorder = Recorder()
    writer = RecordWriter(recorder)
    recorder.gate.clear()
    await writer.asubmit(write("first"), wait=1)
    await asyncio.sleep(0.05)
    for n in range(4 * MIN_BATCH):
        await writer.asubmit(write(f"w{n}"), wait=1)
    recorder.gate.set()
    writer.close()
    sizes = [len(batch) for batch in recorder.batches]
    assert sizes == [1, 2 * MIN_BATCH, MIN_BATCH, MIN_BATCH]
    assert [name for batch in recorder.batches[1:] for name in batch] == [
        f"w{n}" for n in range(4 * MIN_BATCH)
    ]


async def test_a_full_queue_slows_searches_down_and_refuses_only_after_the_wait() -> None:
    recorder = Recorder()
    recorder.gate.clear()
    writer = RecordWriter(recorder, max_pending=2)
    writes = [write(f"w{n}") for n in range(4)]
    await writer.asubmit(writes[0], wait=1)
    await asyncio.sleep(0.05)  # taken into the blocked commit
    for item in writes[1:3]:  # these two fill the queue
        await writer.asubmit(item, wait=1)
    with pytest.raises(SearchError) as refused:
        await writer.asubmit(write("late"), wait=0.1)
    assert refused.value.code is ErrorCode.TIMEOUT and "behind" in str(refused.value)
    waiting = asyncio.ensure_future(writer.asubmit(writes[3], wait=5))
    await asyncio.sleep(0.1)
    assert not waiting.done()  # back-pressure: it waits for room
    recorder.gate.set()
    await waiting
    writer.close()
    assert sorted(name for batch in recorder.batches for name in batch) == [
        "w0",
        "w1",
        "w2",
        "w3",
    ]
    assert all(item.done.result() is None for item in writes)


async def test_a_store_that_fails_is_retried_until_the_batch_is_written(
    caplog: pytest.LogCaptureFixture,
) -> None:
    down = SearchError(ErrorCode.NETWORK_ERROR, "connection refused", provider="store")
    recorder = Recorder(failures=[down, down])
    writer = RecordWriter(recorder)
    item = write("r1")
    await writer.asubmit(item, wait=1)
    assert await writer.await_commit(item, wait=5)
    assert recorder.batches == [["r1"]] and writer.problem is None
    messages = [r.getMessage() for r in caplog.records]
    assert sum("retrying" in m and "connection refused" in m for m in messages) == 2
    assert any("back" in m for m in messages)
    writer.close()


async def test_one_bad_write_is_dropped_loudly_and_the_others_are_written(
    caplog: pytest.LogCaptureFixture,
) -> None:
    class RefusesBad(Recorder):
        def __call__(self, batch: Sequence[PendingWrite]) -> None:
            if any(w.request_id == "bad" for w in batch):
                raise SearchError(ErrorCode.UNKNOWN, "constraint violated", provider="store")
            super().__call__(batch)

    recorder = RefusesBad()
    recorder.gate.clear()
    writer = RecordWriter(recorder)
    await writer.asubmit(write("first"), wait=1)
    await asyncio.sleep(0.05)
    bad, good = write("bad"), write("good")
    await writer.asubmit(bad, wait=1)
    await writer.asubmit(good, wait=1)
    recorder.gate.set()
    writer.close()
    assert recorder.batches == [["first"], ["good"]]
    with pytest.raises(SearchError, match="constraint"):
        bad.done.result()
    assert any("search bad dropped" in r.getMessage() for r in caplog.records)
    assert writer.dropped == 1


async def test_close_writes_everything_queued_and_gives_up_on_a_dead_store_in_time() -> None:
    recorder = Recorder()
    writer = RecordWriter(recorder)
    for n in range(50):
        await writer.asubmit(write(f"w{n}"), wait=1)
    writer.close()
    assert sum(len(batch) for batch in recorder.batches) == 50

    dead = Recorder(failures=[SearchError(ErrorCode.NETWORK_ERROR, "gone")] * 1000)
    closing = RecordWriter(dead)
    lost = write("lost")
    await closing.asubmit(lost, wait=1)
    await asyncio.to_thread(closing.close, 0.3)
    with pytest.raises(SearchError, match="gone"):
        lost.done.result(timeout=1)


# -- through the store ----------------------------------------------------------------------


def count_commits(store: SearchStore) -> list[int]:
    commits = [0]

    @event.listens_for(store.engine, "commit")
    def _count(conn: object) -> None:
        commits[0] += 1

    return commits


async def test_a_burst_of_searches_is_recorded_in_few_transactions(
    store: SearchStore, word_searcher: WordSearcher
) -> None:
    searcher = word_searcher(store)
    commits = count_commits(store)
    responses = await asyncio.gather(
        *(searcher.asearch({"query": f"w{n} shared", "type": "kb"}) for n in range(60))
    )
    assert store.flush()
    assert commits[0] < 30
    for response in responses:
        assert response.warnings == [] and response.status == "ok"
        [record] = store.get_searches(response.request_id)
        assert [ref.title for ref in record.references] == [i.title for i in response.items]
    await searcher.aclose()


async def test_a_new_scope_is_numbered_on_disk_before_its_answer(
    store: SearchStore, word_searcher: WordSearcher
) -> None:
    """Another process can continue the scope the moment the answer is out."""
    searcher = word_searcher(store)
    response = await searcher.asearch({"query": "a b", "type": "kb"})
    other = SearchStore(store.url, table_prefix=store.records.name.removesuffix("search_records"))
    continued = other.allocate_citations(
        response.request_id, [i.key for i in response.items] + ["kb:c:new"]
    )
    assert sorted(continued.values()) == [1, 2, 3]
    other.close()
    await searcher.aclose()


@pytest.mark.parametrize("sync", [False, True])
async def test_every_search_answers_once_its_record_is_committed(
    tmp_path: Path, sync: bool, word_searcher: WordSearcher
) -> None:
    """Group commit: a search in a scope it did not create waits for its batch too."""
    url = f"sqlite:///{tmp_path / 'records.sqlite3'}"
    store = SearchStore(url, sync=sync, wait=10)  # time enough on a loaded machine
    writes: list[float] = []
    original = store._write_batch

    def slow(batch: Sequence[PendingWrite]) -> None:
        writes.append(len(batch))
        threading.Event().wait(0.2)
        original(batch)

    store.writer._write = slow  # type: ignore[method-assign]
    searcher = word_searcher(store)
    response = await searcher.asearch({"query": "a b", "type": "kb"}, request_id="chat")
    reader = SearchStore(url)  # another connection: sees only what is committed
    assert len(reader.get_searches("chat")) == 1
    assert response.warnings == [] and response.status == "ok"
    # ``sync`` also makes every commit wait for the disk.
    with store.engine.connect() as conn:
        synchronous = conn.exec_driver_sql("PRAGMA synchronous").scalar_one()
    assert synchronous == (2 if sync else 1)  # FULL, NORMAL
    await searcher.aclose()
    reader.close()


@pytest.mark.postgres
@pytest.mark.parametrize("sync", [False, True])
def test_postgres_commits_wait_for_the_disk_only_in_sync_stores(
    postgres_url: str, sync: bool
) -> None:
    store = SearchStore(postgres_url, table_prefix=f"s{uuid.uuid4().hex[:12]}_", sync=sync)
    try:
        with store.engine.connect() as conn:
            setting = conn.exec_driver_sql("SHOW synchronous_commit").scalar_one()
        assert setting == ("on" if sync else "off")
    finally:
        store.metadata.drop_all(store.engine)
        store.close()


async def test_a_record_that_fails_to_save_makes_its_answer_partial(
    store: SearchStore, word_searcher: WordSearcher
) -> None:
    """The database refuses one search's record: that answer says so, the others are stored."""
    table = store.records.name
    with store.engine.begin() as conn:
        if store.engine.dialect.name == "sqlite":
            conn.exec_driver_sql(
                f"CREATE TRIGGER {table}_refuse BEFORE INSERT ON {table} "
                "WHEN instr(NEW.query, 'poison') > 0 BEGIN SELECT RAISE(ABORT, 'refused'); END"
            )
        else:
            conn.exec_driver_sql(
                f"CREATE FUNCTION {table}_refuse() RETURNS trigger LANGUAGE plpgsql AS $$ "
                "BEGIN IF strpos(NEW.query, 'poison') > 0 THEN RAISE EXCEPTION 'refused'; END IF; "
                "RETURN NEW; END $$"
            )
            conn.exec_driver_sql(
                f"CREATE TRIGGER {table}_refuse BEFORE INSERT ON {table} "
                f"FOR EACH ROW EXECUTE FUNCTION {table}_refuse()"
            )
    searcher = word_searcher(store)
    queries = ["poison a", "good b", "good c"]
    # Continued scopes: nothing but the record makes these searches wait for the store.
    responses = await asyncio.gather(
        *(
            searcher.asearch({"query": q, "type": "kb"}, request_id=f"scope-{n}")
            for n, q in enumerate(queries)
        )
    )
    poisoned, *good = responses
    assert poisoned.status == "partial" and [i.title for i in poisoned.items] == ["poison", "a"]
    [warning] = poisoned.warnings
    assert warning.provider == "store" and "could not store the search record" in warning.message
    assert "refused" in warning.message and not warning.retryable
    logs = [log.message for log in poisoned.trace[0].logs]
    assert any("could not store the search record" in m for m in logs)
    for response in good:
        assert response.status == "ok" and response.warnings == []
        assert len(store.get_searches(response.request_id)) == 1
    assert store.get_searches(poisoned.request_id) == []
    await searcher.aclose()
    if store.engine.dialect.name == "postgresql":
        with store.engine.begin() as conn:
            conn.exec_driver_sql(f"DROP TRIGGER {table}_refuse ON {table}")
            conn.exec_driver_sql(f"DROP FUNCTION {table}_refuse()")


async def test_a_store_slower_than_the_wait_never_holds_the_answer(
    tmp_path: Path, word_searcher: WordSearcher
) -> None:
    store = SearchStore(f"sqlite:///{tmp_path / 'r.sqlite3'}", wait=0.2, sync=True)
    gate = held_writes(store)
    searcher = word_searcher(store)
    response = await searcher.asearch({"query": "a b", "type": "kb"})
    reader = SearchStore(store.url)  # another connection: sees only what is committed
    assert reader.get_searches(response.request_id) == []  # answered, the write still held
    reader.close()
    assert response.status == "partial" and [i.title for i in response.items] == ["a", "b"]
    # Not written in time (TIMEOUT), or, on a busy machine, already known to hang.
    codes = {w.code for w in response.warnings}
    assert codes and codes <= {ErrorCode.TIMEOUT, ErrorCode.NETWORK_ERROR}
    assert all(w.retryable for w in response.warnings)
    assert response.trace[0].output["citations_persisted"] is False
    logs = [log.message for log in response.trace[0].logs]
    assert any("could not store the search record" in m and "queued" in m for m in logs)
    gate.set()
    await searcher.aclose()
    reopened = SearchStore(store.url)
    assert len(reopened.get_searches(response.request_id)) == 1
    reopened.close()


async def test_a_write_behind_store_answers_before_the_commit_and_writes_after(
    tmp_path: Path, word_searcher: WordSearcher
) -> None:
    url = f"sqlite:///{tmp_path / 'records.sqlite3'}"
    store = SearchStore(url, await_commit=False)
    gate = held_writes(store)
    searcher = word_searcher(store)
    response = await searcher.asearch({"query": "a b", "type": "kb"}, request_id="chat")
    assert response.status == "ok" and response.warnings == []
    reader = SearchStore(url)  # another connection: sees only what is committed
    assert reader.get_searches("chat") == []  # answered, the write still held
    gate.set()
    await searcher.aclose()  # closing writes what is queued
    assert len(reader.get_searches("chat")) == 1
    reader.close()


async def test_a_write_behind_store_that_fails_is_reported_by_the_searches_that_follow(
    tmp_path: Path, word_searcher: WordSearcher
) -> None:
    store = SearchStore(f"sqlite:///{tmp_path / 'records.sqlite3'}", await_commit=False)
    down = SearchError(ErrorCode.NETWORK_ERROR, "connection refused", provider="store")
    failures = [down] * 3
    original = store._write_batch

    def flaky(batch: Sequence[PendingWrite]) -> None:
        if failures:
            raise failures.pop()
        original(batch)

    store.writer._write = flaky  # type: ignore[method-assign]
    searcher = word_searcher(store)
    first = await searcher.asearch({"query": "a b", "type": "kb"}, request_id="first")
    assert first.status == "ok"  # answered before its write was tried
    while store.writer.problem is None and failures:
        await asyncio.sleep(0.01)
    later = await searcher.asearch({"query": "c d", "type": "kb"}, request_id="later")
    if store.writer.problem is not None:  # not yet written again (retries back off from 50 ms)
        assert later.status == "partial" and later.warnings
        assert {w.provider for w in later.warnings} == {"store"}
    await searcher.aclose()  # the retries write both
    reopened = SearchStore(store.url)
    assert [len(reopened.get_searches(r)) for r in ("first", "later")] == [1, 1]
    reopened.close()


def test_a_synchronous_store_waits_for_its_commits() -> None:
    with pytest.raises(ValueError, match="await_commit"):
        SearchStore("sqlite:///:memory:", sync=True, await_commit=False)
