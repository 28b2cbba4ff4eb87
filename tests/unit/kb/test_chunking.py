from __future__ import annotations

import itertools

import pytest
from pydantic import ValidationError

from unified_search.config.kb import ChunkingConfig
from unified_search.kb.chunking import (
    Document,
    as_document,
    chunk_document,
    chunk_id,
    token_windows,
)
from unified_search.tokens import count_tokens

LONG = " ".join(f"Sentence number {i} talks about vectors and terms." for i in range(200))


def test_short_text_is_one_chunk_with_full_offsets() -> None:
    doc = Document(id="d1", text="A short note.", title="Note", source="notes/a.md")
    [chunk] = chunk_document(doc, size=64, overlap=8)
    assert (chunk.start, chunk.end, chunk.text) == (0, len(doc.text), "A short note.")
    assert chunk.chroma_metadata()["source"] == "notes/a.md"
    assert chunk.chroma_metadata()["title"] == "Note"


def test_windows_respect_size_and_overlap() -> None:
    spans = list(token_windows(LONG, size=100, overlap=20))
    assert len(spans) > 5
    for start, end in spans:
        assert count_tokens(LONG[start:end]) <= 101  # a re-encoded cut may merge one token
    for (s1, e1), (s2, _) in itertools.pairwise(spans):
        assert s1 < s2 < e1  # the next window starts inside the previous one
    assert spans[-1][1] == len(LONG)


def test_offsets_point_at_the_chunk_text() -> None:
    doc = Document(id="d", text=LONG)
    for chunk in chunk_document(doc, size=80, overlap=10):
        assert doc.text[chunk.start : chunk.end].strip() == chunk.text


def test_chunk_ids_are_stable_and_content_derived() -> None:
    doc = Document(id="d", text=LONG)
    first = [c.id for c in chunk_document(doc, 80, 10)]
    assert first == [c.id for c in chunk_document(doc, 80, 10)]
    assert len(set(first)) == len(first)
    assert chunk_id("d", "x") != chunk_id("e", "x")
    retitled = Document(id="d", text=LONG, title="New title")
    tagged = Document(id="d", text=LONG, metadata={"tags": "a"})
    for changed in (retitled, tagged):  # what is stored with a chunk is part of its identity
        assert not set(first) & {c.id for c in chunk_document(changed, 80, 10)}


def test_document_id_defaults_to_source_then_hash() -> None:
    assert Document(text="t", source="a.md").id == "a.md"
    assert Document(text="t").id == Document(text="t").id
    assert Document(text="t").id.startswith("sha256:")
    assert Document(text="t", id="x", source="a.md").id == "x"


def test_as_document_accepts_mapping_and_str_and_rejects_others() -> None:
    assert as_document("hello").text == "hello"
    assert as_document({"id": "1", "text": "t", "title": "T"}).title == "T"
    with pytest.raises(TypeError):
        as_document(3)  # type: ignore[arg-type]
    with pytest.raises(ValidationError):
        as_document({"text": "t", "unknown": 1})


def test_overlap_must_be_smaller_than_size() -> None:
    with pytest.raises(ValidationError, match="overlap"):
        ChunkingConfig(size=32, overlap=32)
