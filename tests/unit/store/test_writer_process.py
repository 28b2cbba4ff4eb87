"""A busy store writes through a process of its own: what it writes, and when that process dies."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from sqlalchemy import event

from unified_search.contract.response import SearchResponse
from unified_search.engine.searcher import Searcher
from unified_search.records.store import SearchStore

WordSearcher = Callable[[SearchStore], Searcher]


async def burst(searcher: Searcher, start: int, count: int) -> list[SearchResponse]:
    return await asyncio.gather(
        *(
            searcher.asearch({"query": f"w{n} shared", "type": "kb"})
            for n in range(start, start + count)
        )
    )


async def until_the_process_writes(store: SearchStore, searcher: Searcher) -> int:
    """Search in bursts until the store's writer process is ready; return its process ID."""
    process = store._process
    assert process is not None
    deadline = time.monotonic() + 60
    while not process.ready:
        assert time.monotonic() < deadline, "the writer process never became ready"
        await burst(searcher, 0, 8)
        await asyncio.sleep(0.05)
    assert process.pid is not None
    return process.pid


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (the store waits for its writer process: no zombie is left)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


async def test_a_busy_store_writes_in_its_own_process_and_stops_it_on_close(
    store: SearchStore, word_searcher: WordSearcher
) -> None:
    searcher = word_searcher(store)
    pid = await until_the_process_writes(store, searcher)
    assert pid != os.getpid()
    commits: list[object] = []

    def count(conn: object) -> None:
        commits.append(conn)

    event.listen(store.engine, "commit", count)
    responses = await burst(searcher, 100, 60)
    event.remove(store.engine, "commit", count)
    assert commits == []  # none of these records was written by this process
    for response in responses:
        assert response.status == "ok" and response.warnings == []
        [record] = store.get_searches(response.request_id)
        assert [ref.title for ref in record.references] == [i.title for i in response.items]
    await searcher.aclose()
    assert not alive(pid)


async def test_a_quiet_store_writes_itself(tmp_path: Path, word_searcher: WordSearcher) -> None:
    """One search at a time never pays for starting a process (a command-line search)."""
    store = SearchStore(f"sqlite:///{tmp_path / 'quiet.sqlite3'}")
    searcher = word_searcher(store)
    for n in range(3):
        response = await searcher.asearch({"query": f"q{n}", "type": "kb"})
        assert response.status == "ok"
    assert store._process is not None and store._process.pid is None
    await searcher.aclose()


async def test_a_killed_writer_process_loses_no_answered_search(
    tmp_path: Path, word_searcher: WordSearcher
) -> None:
    """Its batch is retried (here, or in a new process): every answer that said stored is."""
    url = f"sqlite:///{tmp_path / 'killed.sqlite3'}"
    store = SearchStore(url, wait=20)  # time enough for the retry on a loaded machine
    searcher = word_searcher(store)
    pid = await until_the_process_writes(store, searcher)
    answered: list[SearchResponse] = []

    async def worker(first: int) -> None:
        for n in range(first, first + 300, 20):
            answered.append(await searcher.asearch({"query": f"k{n} shared", "type": "kb"}))

    workers = asyncio.gather(*(worker(n) for n in range(20)))
    while len(answered) < 60:
        await asyncio.sleep(0.01)
    os.kill(pid, signal.SIGKILL)
    await workers
    assert len(answered) == 300
    assert all(r.status == "ok" and r.warnings == [] for r in answered)
    for response in answered:
        assert store.get_searches(response.request_id)  # twice at most, if killed after commit
    await searcher.aclose()
    with sqlite3.connect(tmp_path / "killed.sqlite3") as raw:
        assert raw.execute("PRAGMA integrity_check").fetchall() == [("ok",)]


async def test_a_writer_process_that_cannot_start_leaves_the_writing_to_the_store(
    tmp_path: Path,
    word_searcher: WordSearcher,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    monkeypatch.setattr(sys, "executable", str(tmp_path / "no-such-python"))
    store = SearchStore(f"sqlite:///{tmp_path / 'alone.sqlite3'}")
    searcher = word_searcher(store)
    responses = [r for start in (0, 100, 200) for r in await burst(searcher, start, 30)]
    assert all(r.status == "ok" and r.warnings == [] for r in responses)
    assert all(store.get_searches(r.request_id) for r in responses)
    assert store._process is not None and store._process.pid is None
    failures = [r for r in caplog.records if "writer process could not start" in r.message]
    assert len(failures) == 1  # tried once, not at every batch
    await searcher.aclose()
