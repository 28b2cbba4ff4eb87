"""``kill -9`` in the middle of a burst of recorded searches: the store stays whole."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from sqlalchemy import select

from unified_search.store import SearchStore

WORKER = Path(__file__).with_name("burst_worker.py")


def burst_then_kill(url: str, prefix: str, answers: int) -> list[tuple[str, int]]:
    """Run the burst until ``answers`` searches answered, kill it with SIGKILL, return them."""
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
                process.send_signal(signal.SIGKILL)
                break
    finally:
        if process.poll() is None:
            process.kill()
        out, err = process.communicate(timeout=60)
    assert process.returncode == -signal.SIGKILL, err
    answered += [(r, int(n)) for _, r, n in (line.split() for line in out.splitlines())]
    return answered


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def crash_store(request: pytest.FixtureRequest, tmp_path: Path):
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
