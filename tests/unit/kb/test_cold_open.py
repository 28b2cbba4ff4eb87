"""Opening an embedded collection for a search: the side store answers, Chroma opens once."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from unified_search.config import SearchConfig
from unified_search.contract.handler import SearchContext
from unified_search.errors import ErrorCode, SearchError
from unified_search.kb.handler import KBHandler
from unified_search.kb.store import make_client
from unified_search.types import SearchRequest

DOCS = [
    {"id": "vec", "title": "Vector stores", "text": "Chroma keeps embeddings in a vector index."},
    {"id": "bm25", "title": "Lexical ranking", "text": "BM25 ranks documents by term frequency."},
]


def req(query: str, **extra: Any) -> SearchRequest:
    return SearchRequest(query=query, type="kb", collections=["notes"], **extra)


class ChromaOpenings:
    """``make_client`` that counts its calls and, unless allowed, refuses to open Chroma."""

    def __init__(self, *, allowed: bool) -> None:
        self.allowed = allowed
        self.calls = 0

    def __call__(self, config: Any) -> Any:
        self.calls += 1
        if not self.allowed:
            raise AssertionError("Chroma was opened")
        return make_client(config)


@pytest.fixture
async def indexed(config: SearchConfig, make_embedding: Any) -> Path:
    """A collection ``notes`` indexed by another handler; returns its side-store file."""
    indexer = KBHandler.from_config(config, embedding=make_embedding())
    await indexer.aadd_documents("notes", DOCS)
    await indexer.aclose()
    return Path(config.kb.data_dir or "") / "collections" / "notes.sqlite"


@pytest.fixture
def openings(indexed: Path, monkeypatch: pytest.MonkeyPatch) -> ChromaOpenings:
    """Chroma openings from here on (after indexing), counted; a test may forbid them."""
    watched = ChromaOpenings(allowed=True)
    monkeypatch.setattr("unified_search.kb.handler.make_client", watched)
    return watched


@pytest.fixture
def fresh(indexed: Path, config: SearchConfig, make_embedding: Any) -> Callable[..., KBHandler]:
    """A new handler over the indexed collection, as a new process opens it."""

    def build(**embedding: Any) -> KBHandler:
        return KBHandler.from_config(config, embedding=make_embedding(**embedding))

    return build


async def test_searches_of_a_small_collection_read_its_vectors_from_chroma_once(
    fresh: Callable[..., KBHandler], openings: ChromaOpenings, ctx: SearchContext
) -> None:
    kb = fresh()
    assert await kb.afind_collections(["notes"]) == ["notes"]
    assert openings.calls == 0  # finding it needs the side store alone
    for _ in range(3):
        result = await kb.asearch(req("BM25 term frequency"), ctx)
        assert result.items[0].document_id == "bm25"
    await kb.aclose()
    assert openings.calls == 1


async def test_another_model_is_refused_on_the_side_store_without_opening_chroma(
    fresh: Callable[..., KBHandler], openings: ChromaOpenings, ctx: SearchContext
) -> None:
    openings.allowed = False
    other = fresh(name="another-model")
    with pytest.raises(SearchError) as info:
        await other.asearch(req("BM25"), ctx)
    assert info.value.code is ErrorCode.UNSUPPORTED
    assert "hash-64" in info.value.message and "another-model" in info.value.message
    await other.aclose()


async def test_another_index_format_is_refused_on_the_side_store(
    indexed: Path,
    fresh: Callable[..., KBHandler],
    openings: ChromaOpenings,
    ctx: SearchContext,
) -> None:
    with sqlite3.connect(indexed) as db:  # what a later version would have recorded
        db.execute(
            "UPDATE state SET value = ? WHERE key = 'built_with'",
            ('{"embedding_model": "hash-64", "index_format": 99}',),
        )
    db.close()
    openings.allowed = False
    kb = fresh()
    with pytest.raises(SearchError) as info:
        await kb.asearch(req("BM25"), ctx)
    assert info.value.code is ErrorCode.UNSUPPORTED
    assert "indexed in format 99" in info.value.message
    await kb.aclose()


async def test_a_collection_indexed_before_the_copy_gets_it_from_chroma_on_first_open(
    indexed: Path,
    fresh: Callable[..., KBHandler],
    openings: ChromaOpenings,
    ctx: SearchContext,
) -> None:
    with sqlite3.connect(indexed) as db:  # as an earlier version left it
        db.execute("DELETE FROM state WHERE key = 'built_with'")
    db.close()
    first = fresh()
    assert (await first.asearch(req("vector index"), ctx)).items
    await first.aclose()
    assert openings.calls == 1  # Chroma checked the model once ...
    openings.allowed = False
    second = fresh()
    assert await second.afind_collections(["notes"]) == ["notes"]  # ... and the copy answers
    with pytest.raises(SearchError, match="another-model"):
        await fresh(name="another-model").asearch(req("vector index"), ctx)
    await second.aclose()


async def test_a_filter_or_a_write_opens_chroma_when_it_needs_it(
    fresh: Callable[..., KBHandler], openings: ChromaOpenings, ctx: SearchContext
) -> None:
    kb = fresh()
    assert (await kb.asearch(req("vector index"), ctx)).items
    assert openings.calls == 1
    where = {"document_id": "vec"}
    found = await kb.asearch(req("vector index", options={"where": where}), ctx)
    assert [item.document_id for item in found.items] == ["vec"]
    assert openings.calls == 1
    await kb.aadd_documents("notes", [{"id": "new", "text": "Graphs link entities."}])
    assert openings.calls == 1  # one client for the handler's life
    assert (await kb.acheck("notes")).consistent
    await kb.aclose()


async def test_a_dropped_collection_is_no_longer_found_on_its_side_store(
    indexed: Path, fresh: Callable[..., KBHandler]
) -> None:
    kb = fresh()
    await kb.adrop_collection("notes")
    assert await kb.afind_collections(["notes"]) == []
    assert not indexed.exists()
    await kb.aclose()


async def test_finding_collections_lists_chroma_only_for_names_the_side_stores_do_not_know(
    fresh: Callable[..., KBHandler], openings: ChromaOpenings
) -> None:
    kb = fresh()
    assert await kb.afind_collections(["notes"]) == ["notes"]
    assert openings.calls == 0
    assert await kb.afind_collections(["missing", "notes", "../notes"]) == ["notes"]
    assert openings.calls == 1
    await kb.aclose()
