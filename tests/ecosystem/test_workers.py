"""Two OS processes continuing one request never hand out the same citation ID."""

from __future__ import annotations

import json
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from unified_search.records.store import SearchStore

WORKER = Path(__file__).with_name("citation_worker.py")
SEARCHES = 25


def run_workers(url: str, prefix: str, names: list[str]) -> list[list[tuple[str, str]]]:
    """Run one worker per name at once; if one fails, the others are killed before failing."""
    processes = [
        subprocess.Popen(
            [sys.executable, str(WORKER), url, prefix, "shared-request", name, str(SEARCHES)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name in names
    ]
    try:
        outputs = []
        for process in processes:
            out, err = process.communicate(timeout=120)
            assert process.returncode == 0, err
            outputs.append([tuple(pair) for pair in json.loads(out)])
        return outputs
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
            process.communicate()  # reap it and close its pipes


# Imports first, says so, then opens the store the moment the "go" file appears.
OPENER = """
import os, sys
from unified_search.records.store import SearchStore
print("ready", flush=True)
while not os.path.exists(sys.argv[2]):
    pass
SearchStore(sys.argv[1]).close()
"""


def test_workers_creating_a_new_sqlite_file_at_once_all_start(tmp_path: Path) -> None:
    """Processes opening one new SQLite file at the same moment take turns instead of failing."""
    url, go = f"sqlite:///{tmp_path / 'new.sqlite3'}", tmp_path / "go"
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", OPENER, url, str(go)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(4)
    ]
    try:
        for process in processes:
            assert process.stdout is not None and process.stdout.readline() == "ready\n"
        go.touch()
        outcomes = [(p.communicate(timeout=120)[1], p.returncode) for p in processes]
        failures = [err for err, code in outcomes if code != 0]
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
            process.communicate()
    assert failures == []


def check_unique(shown: list[tuple[str, str]]) -> dict[str, str]:
    by_item: dict[str, set[str]] = {}
    for item, cid in shown:
        by_item.setdefault(item, set()).add(cid)
    assert all(len(ids) == 1 for ids in by_item.values()), "an item changed its ID"
    ids = {item: next(iter(cids)) for item, cids in by_item.items()}
    assert len(set(ids.values())) == len(ids), "two items share an ID"
    return ids


def stores(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[str, str]:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'shared.sqlite3'}", ""
    return request.getfixturevalue("postgres_url"), f"w{uuid.uuid4().hex[:10]}_"


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def shared_store(request: pytest.FixtureRequest, tmp_path: Path):
    url, prefix = stores(request, tmp_path)
    yield url, prefix
    if prefix:
        store = SearchStore(url, table_prefix=prefix)
        store.metadata.drop_all(store.engine)
        store.close()


def test_two_processes_and_a_restart_continue_one_request(shared_store):
    url, prefix = shared_store
    first, second = run_workers(url, prefix, ["a", "b"])
    ids = check_unique(first + second)
    assert len(ids) == 2 * SEARCHES + 1
    (restarted,) = run_workers(url, prefix, ["c"])
    later = check_unique(first + second + restarted)
    assert later["common"] == ids["common"]
    new = [int(later[f"c-{i}"].removeprefix("ref_")) for i in range(SEARCHES)]
    assert min(new) > max(int(cid.removeprefix("ref_")) for cid in ids.values())
    store = SearchStore(url, table_prefix=prefix)
    for item, cid in later.items():
        stored = store.get_reference("shared-request", int(cid.removeprefix("ref_")))
        assert stored is not None and stored.title == item
    store.close()
