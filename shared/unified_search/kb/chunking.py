"""Documents in, chunks out: token-aware windows with overlap and content-derived IDs.

Chunks are cut on cl100k_base token boundaries (tiktoken, offline) and carry
the character offsets of their text in the document, so a citation can point
back at the exact passage. A chunk's ID hashes its document ID, its text and
what is stored with it (title and metadata): indexing the same document again
produces the same IDs, which is what makes re-indexing idempotent and lets
unchanged chunks skip the embedding model, and a new title or front-matter
field changes the IDs, so it is never left stale in the index.
"""

from __future__ import annotations

import bisect
import functools
import hashlib
import itertools
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from unified_search.tokens import encoding


class Document(BaseModel):
    """A text to index, with what is known about where it came from.

    Example:
        >>> Document(text="Chroma stores vectors.", title="Chroma", source="notes/chroma.md").id
        'notes/chroma.md'
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    text: str
    id_: str | None = Field(default=None, alias="id")
    """Stable identifier; defaults to ``source``, else a hash of the text."""
    title: str = ""
    source: str | None = None
    """Path or URL of the original, kept as chunk metadata."""
    metadata: dict[str, Any] = Field(default_factory=dict)
    """Scalar values (str, int, float, bool) usable in metadata filters."""

    @property
    def id(self) -> str:
        """The document ID used to deduplicate results and replace old chunks."""
        if self.id_:
            return self.id_
        if self.source:
            return self.source
        return "sha256:" + hashlib.sha256(self.text.encode()).hexdigest()[:32]


@dataclass(frozen=True)
class Chunk:
    """A window of a document, the unit that is embedded, indexed and returned."""

    id: str
    document_id: str
    text: str
    title: str
    index: int
    start: int
    """Character offset of ``text`` in the document."""
    end: int
    metadata: dict[str, Any] = field(default_factory=dict)

    def chroma_metadata(self) -> dict[str, str | int | float | bool]:
        """Flat metadata as Chroma stores it (``None`` values dropped)."""
        base: dict[str, Any] = {
            "document_id": self.document_id,
            "title": self.title,
            "chunk": self.index,
            "start": self.start,
            "end": self.end,
        }
        merged = {**self.metadata, **base}
        return {k: v for k, v in merged.items() if isinstance(v, str | int | float | bool)}


def chunk_id(document_id: str, text: str, stored_with: str = "") -> str:
    """Derive a chunk ID from its document, its text and what is stored with it."""
    return hashlib.sha256(f"{document_id}\x00{text}\x00{stored_with}".encode()).hexdigest()[:32]


def token_windows(text: str, size: int, overlap: int) -> Iterator[tuple[int, int]]:
    """Yield ``(start, end)`` character spans of windows of ``size`` tokens overlapping by ``overlap``."""
    if len(text) <= size and len(text.encode()) <= size:  # a token holds a byte at least
        yield 0, len(text)
        return
    tokens = encoding().encode(text, disallowed_special=())
    if len(tokens) <= size:
        yield 0, len(text)
        return
    # Byte offsets of every token (lengths cached per token ID), characters counted only at
    # window edges: tiktoken's ``decode_with_offsets`` decodes and counts every token in
    # Python, several times slower.
    starts = list(itertools.accumulate(map(_token_bytes, tokens), initial=0))
    raw = text.encode()

    def char(token: int) -> int:
        """Characters before ``token`` (a character it starts inside counts as before it)."""
        return len(raw[: starts[token]].decode("utf-8", errors="ignore"))

    step = size - overlap
    for first in range(0, len(tokens), step):
        last = first + size
        yield char(first), char(last) if last < len(tokens) else len(text)
        if last >= len(tokens):
            return


@functools.cache
def _token_bytes(token: int) -> int:
    return len(encoding().decode_single_token_bytes(token))


def chunk_document(document: Document, size: int, overlap: int) -> list[Chunk]:
    """Cut ``document`` into chunks; a repeated window of the same document is kept once.

    ``start`` and ``end`` are the offsets of the chunk's own (stripped) text in the
    document. A document whose reader marked its pages (``PAGE_STARTS``) gives each
    chunk its pages (see ``page_fields``).
    """
    meta = dict(document.metadata)
    pages = page_starts(meta.pop(PAGE_STARTS, None))
    if document.source:
        meta["source"] = document.source
    chunks: dict[str, Chunk] = {}
    stored_with = json.dumps([document.title, meta], sort_keys=True, default=str)
    for window_start, window_end in token_windows(document.text, size, overlap):
        raw = document.text[window_start:window_end]
        text = raw.strip()
        if not text:
            continue
        start = window_start + len(raw) - len(raw.lstrip())
        cid = chunk_id(document.id, text, stored_with)
        if cid not in chunks:
            where = {**meta, **page_fields(pages, start, start + len(text))} if pages else meta
            chunks[cid] = Chunk(
                cid, document.id, text, document.title, len(chunks), start, start + len(text), where
            )
    return list(chunks.values())


#: Metadata key a reader sets on a paged document (a PDF): where each page starts in its text,
#: as offsets joined by commas (page 1 first). It is turned into each chunk's pages, not stored.
PAGE_STARTS = "page_starts"


def page_starts(raw: object) -> list[int]:
    """The page start offsets a reader wrote under ``PAGE_STARTS`` (empty when there are none)."""
    if not isinstance(raw, str) or not raw:
        return []
    return [int(part) for part in raw.split(",") if part.strip().isdigit()]


def page_fields(pages: list[int], start: int, end: int) -> dict[str, int | str]:
    """The pages of the text at ``start:end`` (1-based ``page`` and ``page_end``).

    ``page_breaks`` lists the offsets in the chunk where a later page begins, when it
    crosses one.

    Example:
        >>> page_fields([0, 100, 250], 90, 130)
        {'page': 1, 'page_end': 2, 'page_breaks': '10'}
    """
    first = max(1, bisect.bisect_right(pages, start))
    last = max(1, bisect.bisect_right(pages, max(start, end - 1)))
    fields: dict[str, int | str] = {"page": first, "page_end": last}
    breaks = [page - start for page in pages[first:last] if start < page < end]
    if breaks:
        fields["page_breaks"] = ",".join(map(str, breaks))
    return fields


def as_document(value: Document | Mapping[str, Any] | str) -> Document:
    """Accept a ``Document``, a mapping with its fields, or a bare string."""
    if isinstance(value, Document):
        return value
    if isinstance(value, str):
        return Document(text=value)
    if isinstance(value, Mapping):
        return Document.model_validate(dict(value))
    raise TypeError(
        f"a document must be a Document, a mapping or a str, not {type(value).__name__}"
    )
