"""A document the chunker or the model fails on is skipped with the error; the others are indexed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from unified_search.config import SearchConfig
from unified_search.errors import ErrorCode, SearchError
from unified_search.kb import ingest
from unified_search.kb.chunking import as_document
from unified_search.kb.collection import KBCollection
from unified_search.kb.handler import KBHandler


def poisoned(base: type[Any], word: str = "poison") -> Any:
    """An embedding (of ``base``) that fails on any text holding ``word``."""

    class Poisoned(base):  # type: ignore[misc, valid-type]
        def __call__(self, texts: list[str]) -> list[list[float]]:
            if any(word in text for text in texts):
                raise ValueError(f"the model cannot embed {word!r}")
            return list(super().__call__(texts))

    return Poisoned()


async def test_a_document_that_cannot_be_chunked_costs_only_itself(kb: KBHandler) -> None:
    docs: list[Any] = [
        {"id": "a", "text": "Batteries last ten hours."},
        {"id": "bad", "text": "A lone surrogate \ud800 cannot be written as UTF-8."},
        "Returns within thirty days.",
    ]
    report = await kb.aadd_documents("iso", docs)
    assert [(s.index, s.document_id) for s in report.skipped] == [(1, "bad")]
    assert report.skipped[0].reason.startswith("could not be chunked: UnicodeEncodeError")
    assert report.added == 2
    assert {d.id for d in await kb.alist_documents("iso")} == {"a", as_document(docs[2]).id}


async def test_a_document_the_model_fails_on_is_skipped_and_read_again_next_run(
    config: SearchConfig, tmp_path: Path, make_embedding: Any
) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.md").write_text("# A\n\nBatteries last ten hours.")
    (folder / "b.md").write_text("# B\n\nThis one holds poison for the model.")
    (folder / "c.md").write_text("# C\n\nReturns within thirty days.")
    kb = KBHandler.from_config(config, embedding=poisoned(make_embedding))
    try:
        first = await kb.aindex_paths("iso", [folder])
        listed = {d.id for d in await kb.alist_documents("iso")}
        again = await kb.aindex_paths("iso", [folder])
    finally:
        await kb.aclose()
    assert listed == {"a.md", "c.md"}
    assert [(s.path, s.reason) for s in first.skipped] == [
        ("b.md", "could not be embedded: ValueError: the model cannot embed 'poison'")
    ]
    assert (first.documents, first.chunks_added) == (2, 2)
    assert (again.changed, again.unchanged) == (1, 2)  # no hash kept for b.md: read again

    healthy = KBHandler.from_config(config, embedding=make_embedding())
    try:
        fixed = await healthy.aindex_paths("iso", [folder])
        listed = {d.id for d in await healthy.alist_documents("iso")}
    finally:
        await healthy.aclose()
    assert (fixed.changed, fixed.skipped, listed) == (1, [], {"a.md", "b.md", "c.md"})


async def test_chunks_written_before_their_document_failed_are_deleted(
    tmp_path: Path, make_embedding: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ingest, "EMBED_GROUP", 2)
    monkeypatch.setattr(ingest, "WRITE_BATCH", 2)
    profile = {"kb": {"data_dir": str(tmp_path / "kb"), "chunking": {"size": 16, "overlap": 0}}}
    kb = KBHandler.from_config(
        SearchConfig.load(profile=profile), embedding=poisoned(make_embedding)
    )
    words = " ".join(f"word{i}" for i in range(60))
    try:
        report = await kb.aadd_documents(
            "iso",
            [{"id": "long", "text": f"{words} poison at the end"}, {"id": "ok", "text": "fine"}],
        )
        listed = {d.id: d.chunks for d in await kb.alist_documents("iso")}
        consistent = (await kb.acheck("iso")).consistent
    finally:
        await kb.aclose()
    assert [s.document_id for s in report.skipped] == ["long"]
    assert listed == {"ok": 1} and consistent


async def test_a_model_that_fails_on_everything_stops_the_run(
    config: SearchConfig, make_embedding: Any
) -> None:
    kb = KBHandler.from_config(config, embedding=poisoned(make_embedding, word=""))
    try:
        with pytest.raises(ValueError, match="cannot embed"):
            await kb.aadd_documents("iso", ["one", "two", "three"])
    finally:
        await kb.aclose()


async def test_a_collection_dropped_while_it_is_indexed_stops_the_run_as_not_found(
    config: SearchConfig, tmp_path: Path, make_embedding: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``kb drop`` from another process in the middle of an index run: NOT_FOUND, named."""
    monkeypatch.setattr(ingest, "EMBED_GROUP", 2)
    monkeypatch.setattr(ingest, "WRITE_BATCH", 2)
    folder = tmp_path / "docs"
    folder.mkdir()
    for n in range(8):
        (folder / f"d{n}.md").write_text(f"# Doc {n}\n\nPassage {n} about batteries.")
    other = KBHandler.from_config(config, embedding=make_embedding())
    base = make_embedding()
    calls = [0]

    def dropping(texts: list[str]) -> list[list[float]]:
        calls[0] += 1
        if calls[0] == 3:  # two batches are stored by now
            other.drop_collection("doomed")
        return list(base(texts))

    dropping.name = base.name  # type: ignore[attr-defined]
    kb = KBHandler.from_config(config, embedding=dropping)
    try:
        await kb.aadd_documents("doomed", ["seed"])
        with pytest.raises(SearchError) as caught:
            await kb.aindex_paths("doomed", [folder])
    finally:
        await kb.aclose()
        await other.aclose()
    assert caught.value.code is ErrorCode.NOT_FOUND
    assert caught.value.message.startswith("collection 'doomed' was dropped while it was being")


async def test_a_failed_chroma_write_stops_the_run_with_no_side_row_beyond_chroma(
    config: SearchConfig, make_embedding: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Batches are written two at a time; the side store still only holds what Chroma holds."""
    monkeypatch.setattr(ingest, "EMBED_GROUP", 2)
    monkeypatch.setattr(ingest, "WRITE_BATCH", 2)
    written: list[list[str]] = []
    add_vectors = KBCollection.add_vectors

    def failing_second(self: KBCollection, ids: Any, metadatas: Any, vectors: Any) -> None:
        if len(written) == 1:
            raise RuntimeError("chroma went away")
        written.append(list(ids))
        add_vectors(self, ids, metadatas, vectors)

    monkeypatch.setattr(KBCollection, "add_vectors", failing_second)
    kb = KBHandler.from_config(config, embedding=make_embedding())
    try:
        with pytest.raises(RuntimeError, match="chroma went away"):
            await kb.aadd_documents("iso", [f"Passage {n} about batteries." for n in range(8)])
        coll = await kb._collection("iso")
        side = coll.side.chunk_ids()
    finally:
        await kb.aclose()
    assert side == set(written[0])
