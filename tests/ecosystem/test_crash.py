"""``kill -9`` in the middle of a burst of recorded searches: the store stays whole."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import select

from unified_search.records.store import SearchStore

WORKER = Path(__file__).with_name("burst_worker.py")


def writer_processes(pid: int) -> list[int]:
    """The record writer processes ``pid`` started, from any of its threads (Linux)."""
    tasks = Path(f"/proc/{pid}/task").glob("*/children")
    children = [int(child) for task in tasks for child in task.read_text().split()]
    return [
        child
        for child in children
        if b"unified_search.records.writer_child" in Path(f"/proc/{child}/cmdline").read_bytes()
    ]


def running(pid: int) -> bool:
    """Whether ``pid`` still runs (a zombie waiting for its new parent does not)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def burst_then_kill(url: str, prefix: str, answers: int) -> list[tuple[str, int]]:
    """Run the burst until ``answers`` searches answered, kill it with SIGKILL, return them.

    The burst's record writer process outlives it only to finish the batch it writes.
    """
    process = subprocess.Popen(
        [sys.executable, str(WORKER), url, prefix],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    answered: list[tuple[str, int]] = []
    try:
        assert process.stdout is not None
        for line in process.stdout:
            _, request_id, n = line.split()
            answered.append((request_id, int(n)))
            if len(answered) >= answers:
                writers = writer_processes(process.pid)
                process.send_signal(signal.SIGKILL)
                break
    finally:
        if process.poll() is None:
            process.kill()
        out, err = process.communicate(timeout=60)
    assert process.returncode == -signal.SIGKILL, err
    assert writers, "the burst wrote on its own thread, not through a writer process"
    deadline = time.monotonic() + 30
    while any(map(running, writers)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(map(running, writers)), "the writer process outlived its parent"
    complete = out[: out.rfind("\n") + 1]  # the kill may cut the last line short
    answered += [(r, int(n)) for _, r, n in (line.split() for line in complete.splitlines())]
    return answered


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def crash_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, str]]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'burst.sqlite3'}", ""
        return
    url, prefix = request.getfixturevalue("postgres_url"), f"k{uuid.uuid4().hex[:10]}_"
    yield url, prefix
    store = SearchStore(url, table_prefix=prefix)
    store.metadata.drop_all(store.engine)
    store.close()


def test_a_killed_burst_leaves_every_record_whole(crash_store: tuple[str, str]) -> None:
    url, prefix = crash_store
    answered = burst_then_kill(url, prefix, answers=400)
    if url.startswith("sqlite"):
        with sqlite3.connect(url.removeprefix("sqlite:///")) as raw:
            assert raw.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    store = SearchStore(url, table_prefix=prefix)
    try:
        with store.engine.connect() as conn:
            records = conn.execute(select(store.records)).mappings().all()
            references = conn.execute(select(store.references)).mappings().all()
    finally:
        store.close()
    stored = {(ref["request_id"], ref["ref_index"]) for ref in references}
    record_ids = {record["id"] for record in records}
    # References always with their record, and every record with all its references.
    assert all(ref["record_id"] in record_ids for ref in references)
    for record in records:
        assert {(record["request_id"], i) for i in record["reference_indices"]} <= stored
    # Every search answers only once its record is committed (group commit): none that
    # answered is lost, in a scope it created or in one it continued.
    recorded = {record["request_id"] for record in records}
    fresh = [request_id for request_id, n in answered if n % 4]
    assert len(fresh) >= 250 and set(fresh) <= recorded
    continued = [n for request_id, n in answered if request_id == "shared"]
    kept = sum(1 for record in records if record["request_id"] == "shared")
    # At most the searches still waiting for their commit when it was killed come on top.
    assert len(continued) <= kept <= len(continued) + 20
