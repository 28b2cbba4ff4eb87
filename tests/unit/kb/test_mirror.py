"""Indexing folders: the collection mirrors them, survives interrupts and kills, names stay relative."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path
from typing import Any

import pytest

from unified_search.config import SearchConfig
from unified_search.contract.handler import SearchContext
from unified_search.kb import consistency
from unified_search.kb.handler import KBHandler
from unified_search.kb.mirror import IndexOptions
from unified_search.types import SearchRequest


def write(folder: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return folder


FILES = {
    "install.md": "# Install\n\nRun pip install to set the tool up.",
    "guides/search.md": "# Search\n\nSearch finds passages about glaciers.",
    "faq.txt": "Gift cards last three years.",
}


async def test_reindex_reads_only_changes_and_removes_deleted_files(
    kb: KBHandler, tmp_path: Path, embedding: Any
) -> None:
    docs = write(tmp_path / "docs", FILES)
    first = await kb.aindex_paths("help", [docs])
    assert (first.files, first.changed, first.documents, first.chunks_added) == (3, 3, 3, 3)
    embedding.embedded.clear()

    (docs / "faq.txt").write_text("Gift cards last five years.")
    (docs / "install.md").unlink()
    second = await kb.aindex_paths("help", [docs])
    assert (second.unchanged, second.changed, second.removed) == (1, 1, 1)
    assert (second.chunks_added, second.chunks_removed) == (1, 2)
    assert embedding.embedded == ["faq Gift cards last five years."]
    listed = {d.id: d for d in await kb.alist_documents("help")}
    assert set(listed) == {"faq.txt", "guides/search.md"}
    assert listed["guides/search.md"].file == "guides/search.md"
    assert (await kb.acheck("help")).consistent


async def test_records_with_the_same_id_in_two_files_are_two_documents(
    kb: KBHandler, tmp_path: Path
) -> None:
    docs = write(
        tmp_path / "docs",
        {
            "a.jsonl": '{"id": 1, "text": "Comets have tails."}\n{"text": "No ID here."}\n',
            "b/c.jsonl": '{"id": 1, "text": "Asteroids are rocky."}\n',
        },
    )
    await kb.aindex_paths("records", [docs])
    listed = {d.id for d in await kb.alist_documents("records")}
    assert listed == {"a.jsonl#1", "a.jsonl#2", "b/c.jsonl#1"}
    (docs / "b" / "c.jsonl").unlink()
    report = await kb.aindex_paths("records", [docs])
    assert (report.removed, report.unchanged) == (1, 1)
    assert {d.id for d in await kb.alist_documents("records")} == {"a.jsonl#1", "a.jsonl#2"}


async def test_unreadable_now_keeps_the_indexed_version_excluded_now_removes_it(
    kb: KBHandler, tmp_path: Path
) -> None:
    docs = write(tmp_path / "docs", FILES)
    await kb.aindex_paths("help", [docs])
    (docs / "faq.txt").write_bytes(b"caf\xe9")
    kept = await kb.aindex_paths("help", [docs])
    assert [(s.path, s.reason) for s in kept.skipped] == [
        ("faq.txt", "not UTF-8 text (byte 0xe9 at offset 3) (its indexed version is kept)")
    ]
    assert "faq.txt" in {d.id for d in await kb.alist_documents("help")}
    excluded = await kb.aindex_paths("help", [docs], options=IndexOptions(exclude=["guides/*"]))
    assert excluded.removed == 1
    assert "guides/search.md" not in {d.id for d in await kb.alist_documents("help")}


async def test_names_are_relative_and_equal_names_from_two_folders_both_stay(
    kb: KBHandler, tmp_path: Path, ctx: SearchContext
) -> None:
    one = write(tmp_path / "alpha" / "docs", {"README.md": "# Alpha\n\nAlpha glaciers."})
    two = write(tmp_path / "beta" / "docs", {"README.md": "# Beta\n\nBeta glaciers."})
    await kb.aindex_paths("help", [one])
    await kb.aindex_paths("help", [two])
    assert {d.id for d in await kb.alist_documents("help")} == {"README.md", "docs/README.md"}
    # indexed alone, a file keeps the name it was first indexed under
    again = await kb.aindex_paths("help", [one / "README.md"])
    assert again.unchanged == 1
    result = await kb.asearch(
        SearchRequest(query="glaciers", type="kb", collections=["help"], threshold=0.0), ctx
    )
    for item in result.items:
        assert str(tmp_path) not in item.model_dump_json()
        assert item.metadata["origin"] == item.document_id  # "source" is who asked
        assert "source" not in item.metadata and item.source == "user"


async def test_remove_by_path_on_disk_by_listed_name_and_by_document_id(
    kb: KBHandler, tmp_path: Path
) -> None:
    docs = write(tmp_path / "docs", FILES)
    await kb.aindex_paths("help", [docs])
    await kb.aadd_documents("help", [{"id": "note-1", "text": "A note added in code."}])
    removed = await kb.aremove_paths("help", [str(docs / "install.md"), "guides", "note-1", "zz"])
    assert (removed.documents, removed.chunks, removed.unmatched) == (3, 3, ["zz"])
    assert {d.id for d in await kb.alist_documents("help")} == {"faq.txt"}
    again = await kb.aindex_paths("help", [docs])
    assert again.changed == 2  # removed files are indexed again on the next run


async def test_drop_collection_deletes_vectors_and_side_store(
    kb: KBHandler, tmp_path: Path, config: SearchConfig
) -> None:
    await kb.aindex_paths("help", [write(tmp_path / "docs", FILES)])
    side = Path(config.kb.data_dir or "") / "collections" / "help.sqlite"
    assert side.exists()
    await kb.adrop_collection("help")
    assert "help" not in await kb.alist_collections() and not side.exists()


async def test_a_killed_write_is_repaired_before_the_next_one(
    kb: KBHandler, tmp_path: Path
) -> None:
    docs = write(tmp_path / "docs", FILES)
    await kb.aindex_paths("help", [docs])
    coll = await kb._collection("help")
    # What a writer killed between its Chroma write and its side-store write leaves behind:
    coll.chroma.upsert(ids=["orphan"], embeddings=[[0.1] * 64], documents=["half written"])
    coll.side.mark_writing(True)
    lost = coll.side.chunk_ids().pop()
    coll.chroma.delete(ids=[lost])  # and damage from outside: a chunk Chroma lost
    found = await kb.acheck("help")
    assert (found.only_in_chroma, found.only_in_side_store) == (["orphan"], [lost])
    await kb.aindex_paths("help", [docs])  # finds the marker, repairs first
    assert (await kb.acheck("help")).consistent
    assert not coll.side.writing()


class SlowEmbedding:
    """Hash vectors, a little slower per call, so a task can be cancelled mid-way."""

    def __init__(self, base: Any) -> None:
        self.name = base.name
        self.base = base
        self.calls = 0

    def __call__(self, texts: list[str]) -> list[list[float]]:
        self.calls += 1
        time.sleep(0.05)
        return list(self.base(texts))


def notes(folder: Path, count: int) -> Path:
    """A folder of ``count`` one-chunk notes."""
    return write(folder, {f"n{i:03}.md": f"# Note {i}\n\nabout topic {i}" for i in range(count)})


async def test_cancelled_indexing_keeps_finished_batches_and_a_rerun_finishes(
    tmp_path: Path, config: SearchConfig, make_embedding: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("unified_search.kb.ingest.EMBED_GROUP", 8)
    monkeypatch.setattr("unified_search.kb.ingest.WRITE_BATCH", 16)
    docs = notes(tmp_path / "docs", 120)
    slow = SlowEmbedding(make_embedding())
    kb = KBHandler.from_config(config, embedding=slow)
    seen: list[Any] = []
    task = asyncio.ensure_future(kb.aindex_paths("notes", [docs], progress=seen.append))
    while not any(u.stage == "embedding" and u.stored >= 32 for u in seen):
        await asyncio.sleep(0.01)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    kept = seen[-1].stored
    coll = await kb._collection("notes")
    assert 32 <= kept < 120 and len(coll.side.chunk_ids()) == kept
    assert (await kb.acheck("notes")).consistent and not coll.side.writing()
    rerun = await kb.aindex_paths("notes", [docs])
    assert rerun.chunks_added == 120 - kept and rerun.unchanged + rerun.changed == 120
    assert len(consistency.chroma_ids(coll)) == len(coll.side.chunk_ids()) == 120
    await kb.aclose()


async def test_a_slow_model_has_its_chunks_written_every_few_seconds_not_per_batch(
    tmp_path: Path, config: SearchConfig, make_embedding: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("unified_search.kb.ingest.EMBED_GROUP", 8)
    monkeypatch.setattr("unified_search.kb.ingest.WRITE_EVERY", 0.12)
    docs = notes(tmp_path / "docs", 64)
    kb = KBHandler.from_config(config, embedding=SlowEmbedding(make_embedding()))
    seen: list[Any] = []
    await kb.aindex_paths("notes", [docs], progress=seen.append)
    stored = sorted({u.stored for u in seen if u.stage == "embedding"})
    # 8 calls of 0.05 s: far below WRITE_BATCH chunks, yet written in several steps.
    assert stored[0] == 0 and stored[-1] == 64 and len(stored) >= 3
    await kb.aclose()


async def test_a_200_mb_file_and_a_symlink_loop_are_skipped_the_rest_indexed(
    kb: KBHandler, tmp_path: Path
) -> None:
    docs = write(tmp_path / "docs", FILES)
    with open(docs / "huge.txt", "wb") as big:
        big.truncate(200 * 1024 * 1024)  # sparse: no disk used, but 200 MB by its size
    os.symlink(docs / "loop", docs / "loop")
    report = await kb.aindex_paths("help", [docs])
    assert {(s.path, s.reason) for s in report.skipped} == {
        ("huge.txt", "larger than 64 MB (200 MB)"),
        ("loop", "symbolic link loop"),
    }
    assert report.changed == 3


async def test_a_folder_that_cannot_be_listed_keeps_what_is_indexed_from_it(
    kb: KBHandler, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    docs = write(tmp_path / "docs", FILES)
    await kb.aindex_paths("help", [docs])
    real = os.scandir

    def scandir(path: Any) -> Any:  # root lists any folder whatever its mode bits say
        if str(path).endswith("guides"):
            raise PermissionError(13, "Permission denied", str(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)
    report = await kb.aindex_paths("help", [docs])
    assert ("guides/", "permission denied") in {(s.path, s.reason) for s in report.skipped}
    assert report.removed == 0
    assert "guides/search.md" in {d.id for d in await kb.alist_documents("help")}
