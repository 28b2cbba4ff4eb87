"""Modules that moved into subpackages still import from their old paths, with a warning."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

from unified_search._moved import MOVED


@pytest.mark.parametrize(("old", "new"), sorted(MOVED.items()))
def test_an_old_path_gives_the_new_module_and_names_its_home(old: str, new: str) -> None:
    sys.modules.pop(old, None)
    with pytest.warns(DeprecationWarning, match=f"{old} moved to {new}"):
        module = importlib.import_module(old)
    assert module is importlib.import_module(new)
    assert module.__spec__ is not None and module.__spec__.name == new  # its own identity kept


def test_no_old_path_is_still_a_module_of_its_own() -> None:
    """An old path that became a file again would shadow the alias and drift from its twin."""
    package = Path(importlib.import_module("unified_search").__file__ or "").parent
    for old in MOVED:
        relative = Path(*old.split(".")[1:])
        assert not (package / relative.with_suffix(".py")).exists(), old


def test_public_names_did_not_move() -> None:
    """The names ``unified_search`` exports are where they were; only module paths moved."""
    import unified_search

    for name in ("Searcher", "SearchStore", "SearchSession", "SearchConfig", "parse_citations"):
        assert getattr(unified_search, name).__name__ == name
