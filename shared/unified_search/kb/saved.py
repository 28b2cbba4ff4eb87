"""The lexical index of a collection, saved per generation and opened without rebuilding.

A collection's side store counts its changes (its generation). The index built
from some generation is saved in a folder named after it and BM25's parameters;
every process memory-maps that folder, so the index costs one build per change,
not one per process, and its pages are shared. In a shared deployment the folder
is only a cache: the writer keeps the index's files in the database, and any
machine that finds a newer generation there copies them to its own folder (which
can be deleted at any time) before mapping them. A process that finds no saved
index for the current generation (an older version's collection, a writer killed
before saving) builds it itself.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

from unified_search.config.kb import HybridConfig
from unified_search.kb.lexical import LexicalIndex
from unified_search.kb.sidestore import SideStore

#: Written last into a saved folder: without it the folder is incomplete and ignored.
_DONE = "complete"


def index_key(generation: int, config: HybridConfig) -> str:
    """The name of the index of ``generation`` built with ``config``'s BM25 parameters."""
    return f"g{generation}-k{config.bm25_k1:g}-b{config.bm25_b:g}"


def open_index(side: SideStore, folder: Path, key: str) -> LexicalIndex:
    """The saved index ``key`` mapped from ``folder``, fetched from a shared store or built."""
    target = folder / key
    if not (target / _DONE).exists():
        files = side.index_files(key) if side.shared else None
        if files is None:
            save_index(side, folder, key, share=False)
        else:
            _install(folder, key, lambda tmp: _write(tmp, files))
    return LexicalIndex.load(target, side.terms)


def save_index(side: SideStore, folder: Path, key: str, *, share: bool) -> None:
    """Build the index from the side store's rows and save it as ``key``.

    With ``share`` (the writer of a shared deployment) its files are also kept in the
    database, for the other machines. Older saved indexes of this folder are removed.
    """
    rows = side.index_rows()
    k1, b = _bm25_of(key)
    index = LexicalIndex([r[0] for r in rows], [r[1] for r in rows], k1=k1, b=b)
    _install(folder, key, index.save)
    if share:
        target = folder / key
        side.keep_index_files(
            key, {p.name: p.read_bytes() for p in sorted(target.iterdir()) if p.name != _DONE}
        )
    for old in folder.iterdir():
        if old.name != key and not old.name.startswith("."):
            shutil.rmtree(old, ignore_errors=True)


def _bm25_of(key: str) -> tuple[float, float]:
    _, k1, b = key.split("-")
    return float(k1[1:]), float(b[1:])


def _write(folder: Path, files: dict[str, bytes]) -> None:
    for name, data in files.items():
        (folder / Path(name).name).write_bytes(data)


def _install(folder: Path, key: str, fill: Callable[[Path], None]) -> None:
    """Fill a temporary folder, then rename it into place: readers never see half an index."""
    folder.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".build-", dir=folder))
    try:
        fill(tmp)
        (tmp / _DONE).touch()
        target = folder / key
        try:
            os.rename(tmp, target)
        except OSError:  # another process installed it meanwhile
            if not (target / _DONE).exists():
                shutil.rmtree(target, ignore_errors=True)
                os.rename(tmp, target)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
