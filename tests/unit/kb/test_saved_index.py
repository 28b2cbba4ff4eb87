"""The lexical index saved per generation: opened without rebuilding, scoring as if built."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from unified_search.config import SearchConfig
from unified_search.contract.handler import SearchContext
from unified_search.kb.handler import KBHandler
from unified_search.kb.lexical import LexicalIndex, analyze
from unified_search.kb.sidestore import SideStore, StoredChunk
from unified_search.types import SearchRequest

TEXTS = {
    "a1": "Chroma stores embeddings of documents in a vector index.",
    "b2": "BM25 ranks documents by term frequency and inverse document frequency.",
    "c3": "Entity graphs relate names found in documents.",
    "d4": "Term frequency saturates: BM25 bounds the weight of repeated terms.",
    "e5": "",
}
QUERIES = ["term frequency", "vector index of documents", "graphs", "nothing matches here"]


@pytest.mark.parametrize("prf_docs", [0, 2])
def test_a_saved_index_scores_as_the_one_built_in_memory(tmp_path: Path, prf_docs: int) -> None:
    terms = {i: analyze(t) for i, t in TEXTS.items()}
    built = LexicalIndex(list(terms), list(terms.values()))
    built.save(tmp_path)
    loaded = LexicalIndex.load(tmp_path, lambda ids: {i: terms[i] for i in ids})
    assert len(loaded) == len(built) and list(loaded.ids) == list(built.ids)
    for query in QUERIES:
        here, there = (i.query(analyze(query), prf_docs=prf_docs) for i in (built, loaded))
        assert np.array_equal(here, there)
    assert [loaded.ids.row(i) for i in ("a1", "e5", "zz")] == [0, 4, None]


@pytest.mark.parametrize("saved", [True, False], ids=["saved", "in-memory"])
def test_rows_are_found_at_once_for_unsorted_ids_of_any_length(tmp_path: Path, saved: bool) -> None:
    rng = np.random.default_rng(3)
    ids = [f"{rng.integers(1 << 60):x}" for _ in range(500)]  # unsorted, as content hashes are
    index = LexicalIndex(ids, [["t"]] * len(ids))
    if saved:
        index.save(tmp_path)
        index = LexicalIndex.load(tmp_path, lambda wanted: {})
    asked = [ids[7], "absent", ids[0] + "0", ids[0][:-1], ids[-1], ""]
    assert index.ids.rows(asked) == [7, None, None, None, len(ids) - 1, None]
    assert all(index.ids.row(i) == n for n, i in enumerate(ids))
    assert index.ids.rows([]) == []


def test_an_index_saved_without_its_sorted_ids_still_opens(tmp_path: Path) -> None:
    terms = {i: analyze(t) for i, t in TEXTS.items()}
    built = LexicalIndex(list(reversed(terms)), list(reversed(terms.values())))
    built.save(tmp_path)
    for name in ("ids-sorted.npy", "ids-rows.npy"):  # what an earlier version saved lacked
        (tmp_path / name).unlink()
    loaded = LexicalIndex.load(tmp_path, lambda ids: {i: terms[i] for i in ids})
    assert loaded.ids.rows(["a1", "e5", "zz"]) == [4, 0, None]
    for query in QUERIES:
        assert loaded.search(analyze(query), k=3) == built.search(analyze(query), k=3)


def test_an_empty_index_saves_and_opens(tmp_path: Path) -> None:
    LexicalIndex([], []).save(tmp_path)
    assert LexicalIndex.load(tmp_path, lambda ids: {}).search(["x"], k=3) == ([], [])


def test_a_side_store_of_an_earlier_version_opens_without_its_vector_copies(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.sqlite"
    with sqlite3.connect(path) as db:  # what an earlier version wrote
        db.executescript(
            "CREATE TABLE chunks (id TEXT PRIMARY KEY, document_id TEXT NOT NULL, "
            "terms TEXT NOT NULL, text TEXT NOT NULL, metadata TEXT NOT NULL, "
            "vector BLOB NOT NULL);"
            "CREATE TABLE state (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
        )
        db.execute(
            "INSERT INTO chunks VALUES (?, ?, ?, ?, ?, ?)",
            ("c1", "d1", json.dumps(["old"]), "Old text.", "{}", b"\x00" * 16),
        )
    db.close()
    side = SideStore.local(path)
    assert side.index_rows() == [("c1", ["old"])] and side.generation() == 0
    side.add_chunks([StoredChunk("c2", "d2", ["new"], "New text.", {"title": "New"})])
    assert side.generation() == 1
    assert [(r.id, r.text) for r in side.rows(["c1", "c2"])] == [
        ("c1", "Old text."),
        ("c2", "New text."),
    ]
    side.close()


async def test_a_new_process_opens_the_saved_index_without_rebuilding(
    config: SearchConfig,
    make_embedding: Any,
    ctx: SearchContext,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    writer = KBHandler.from_config(config, embedding=make_embedding())
    docs = [{"id": i, "text": t} for i, t in TEXTS.items() if t]
    await writer.aadd_documents("notes", docs[:2])
    request = SearchRequest(query="term frequency", type="kb", collections=["notes"])

    def rebuilt(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the lexical index was rebuilt")

    monkeypatch.setattr("unified_search.kb.saved.save_index", rebuilt)
    reader = KBHandler.from_config(config, embedding=make_embedding())
    assert (await reader.asearch(request, ctx)).items[0].document_id == "b2"
    monkeypatch.undo()
    await writer.aadd_documents("notes", docs[2:])  # a new generation, saved by its writer
    monkeypatch.setattr("unified_search.kb.saved.save_index", rebuilt)
    found = await reader.asearch(request, ctx)  # the reader sees it at its next search
    assert {item.document_id for item in found.items} >= {"b2", "d4"}
    await reader.aclose()
    await writer.aclose()
