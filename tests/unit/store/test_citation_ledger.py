"""Persisted citation numbering: atomic per scope, continued by restarts, shared by threads."""

from __future__ import annotations

import threading

from unified_search.records.store import SearchStore


def test_new_keys_are_numbered_in_order_and_known_keys_keep_their_index(store: SearchStore):
    assert store.allocate_citations("r1", ["a", "b", "a"]) == {"a": 1, "b": 2}
    assert store.allocate_citations("r1", ["b", "c"]) == {"b": 2, "c": 3}
    assert store.allocate_citations("r2", ["c"]) == {"c": 1}


def test_floor_keeps_indices_this_process_handed_out_unused(store: SearchStore):
    assert store.allocate_citations("r1", ["a"], floor=7) == {"a": 8}
    assert store.allocate_citations("r1", ["b"], floor=3) == {"b": 9}


def test_remembered_numbering_is_continued(store: SearchStore):
    store.remember_citations("fresh", {"x": 1, "y": 2})
    store.remember_citations("fresh", {"x": 1})  # writing twice changes nothing
    assert store.allocate_citations("fresh", ["y", "z"]) == {"y": 2, "z": 3}


def test_a_reopened_store_continues_the_numbering(store: SearchStore):
    store.allocate_citations("r1", ["a", "b"])
    again = SearchStore(
        store.url, table_prefix=store.ledger.scopes.name.removesuffix("citation_scopes")
    )
    try:
        assert again.allocate_citations("r1", ["c", "a"]) == {"c": 3, "a": 1}
    finally:
        again.close()


def test_long_item_keys_fit(store: SearchStore):
    key = "web:https://example.com/" + "x" * 5000
    assert store.allocate_citations("r1", [key]) == {key: 1}
    assert store.allocate_citations("r1", [key]) == {key: 1}


def test_threads_numbering_one_scope_never_share_an_index(store: SearchStore):
    results: list[dict[str, int]] = []
    lock = threading.Lock()

    def work(worker: int) -> None:
        for round_ in range(10):
            got = store.allocate_citations("busy", [f"w{worker}-{round_}", "common"])
            with lock:
                results.append(got)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    by_key: dict[str, set[int]] = {}
    for got in results:
        for key, index in got.items():
            by_key.setdefault(key, set()).add(index)
    assert all(len(indices) == 1 for indices in by_key.values())
    indices = [next(iter(v)) for v in by_key.values()]
    assert len(indices) == len(set(indices)) == 41


def test_bad_scope_is_a_value_error(store: SearchStore):
    import pytest

    with pytest.raises(ValueError, match="scope"):
        store.allocate_citations("  ", ["a"])
