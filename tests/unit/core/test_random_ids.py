"""Random identifiers: drawn in blocks, never repeated, not shared with a forked worker."""

from __future__ import annotations

import multiprocessing
import re
import sys

import pytest

from unified_search._random_ids import random_hex


def test_identifiers_are_32_hex_digits_and_never_repeat() -> None:
    drawn = [random_hex() for _ in range(5_000)]  # many blocks of the OS's randomness
    assert all(re.fullmatch(r"[0-9a-f]{32}", value) for value in drawn)
    assert len(set(drawn)) == len(drawn)


def _child_draws(results: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    results.put([random_hex() for _ in range(10)])


@pytest.mark.skipif(sys.platform == "win32", reason="fork is POSIX only")
def test_a_forked_worker_does_not_repeat_its_parents_identifiers() -> None:
    random_hex()  # the parent now holds a block it has not used up
    context = multiprocessing.get_context("fork")
    results = context.Queue()
    child = context.Process(target=_child_draws, args=(results,))
    child.start()
    from_child = results.get(timeout=30)
    child.join(30)
    from_parent = [random_hex() for _ in range(10)]
    assert not set(from_child) & set(from_parent)
