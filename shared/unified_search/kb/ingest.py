"""Ingestion: documents → chunks → (only new ones) embedded → upserted, with a report.

A document whose chunks all exist already costs nothing but hashing; chunks a
changed document no longer has are deleted, so the collection always mirrors
the last version of each document. Empty and non-text inputs are skipped and
counted with their reason, never raised: nothing indexed before is lost.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from unified_search.kb.chunking import Chunk, Document, as_document, chunk_document
from unified_search.kb.collection import KBCollection
from unified_search.kb.config import KBConfig
from unified_search.kb.embeddings import EmbeddingFunction
from unified_search.kb.graph import Extraction
from unified_search.kb.lexical import document_terms
from unified_search.kb.sidestore import StoredChunk

DocumentLike = Document | Mapping[str, Any] | str
Progress = Callable[[int, int], Awaitable[None] | None]
"""Called with (chunks embedded so far, chunks to embed)."""
Extractor = Callable[[list[Chunk]], Awaitable[list[Extraction]]]
"""Entities and relations of each chunk, in order."""


class Skipped(BaseModel):
    """A document that was not indexed, and why."""

    model_config = ConfigDict(frozen=True)

    index: int
    """Position of the document in the input."""
    document_id: str | None = None
    reason: str


class IngestReport(BaseModel):
    """What ``aadd_documents`` did.

    Example:
        >>> IngestReport(collection="docs", added=2, chunks_added=5).added
        2
    """

    model_config = ConfigDict(frozen=True)

    collection: str
    added: int = 0
    """Documents new or changed (their new chunks were embedded)."""
    unchanged: int = 0
    """Documents whose chunks were all indexed already."""
    skipped: list[Skipped] = Field(default_factory=list)
    chunks_added: int = 0
    chunks_removed: int = 0
    """Chunks of earlier versions of the documents, deleted."""


def prepare(docs: Sequence[Any]) -> tuple[list[Document], list[Skipped]]:
    """Validate inputs; empty or non-text ones become ``Skipped`` entries."""
    kept: list[Document] = []
    skipped: list[Skipped] = []
    for index, raw in enumerate(docs):
        try:
            doc = as_document(raw)
        except (TypeError, ValidationError) as exc:
            skipped.append(Skipped(index=index, reason=f"not text: {_first_line(exc)}"))
            continue
        if not doc.text.strip():
            skipped.append(Skipped(index=index, document_id=doc.id, reason="empty text"))
            continue
        kept.append(doc)
    return kept, skipped


def _first_line(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        error = exc.errors()[0]
        return f"{'.'.join(map(str, error['loc'])) or 'document'}: {error['msg']}"
    return str(exc).splitlines()[0]


def stored(chunk: Chunk, title_boost: int, vector: Sequence[float]) -> StoredChunk:
    """The side-store row of a chunk."""
    meta = chunk.chroma_metadata()
    blob = np.asarray(vector, dtype=np.float32).tobytes()
    return StoredChunk(
        chunk.id,
        chunk.document_id,
        document_terms(chunk.title, chunk.text, title_boost),
        chunk.text,
        meta,
        blob,
    )


async def ingest(
    coll: KBCollection,
    docs: Sequence[DocumentLike],
    *,
    embed: EmbeddingFunction,
    config: KBConfig,
    progress: Progress | None = None,
    extractor: Extractor | None = None,
) -> IngestReport:
    """Index ``docs`` into ``coll`` and report what changed."""
    documents, skipped = prepare(docs)
    documents = list({d.id: d for d in documents}.values())  # the last version of an ID wins
    size, overlap = config.chunking.size, config.chunking.overlap
    chunked = {d.id: chunk_document(d, size, overlap) for d in documents}
    existing = await asyncio.to_thread(coll.side.document_chunks, chunked)
    fresh = [c for doc_id, cs in chunked.items() for c in cs if c.id not in existing[doc_id]]
    stale = [cid for doc_id, cs in chunked.items() for cid in existing[doc_id] - {c.id for c in cs}]
    await asyncio.to_thread(coll.delete, stale)
    await _embed_and_store(coll, fresh, embed, config, progress)
    if extractor is not None and config.graph.extract:
        graphs = await extractor(fresh)
        await asyncio.to_thread(
            coll.side.add_graphs, [(c.id, g) for c, g in zip(fresh, graphs, strict=True)]
        )
    changed = {c.document_id for c in fresh} | {
        d for d, cs in existing.items() if cs - {c.id for c in chunked[d]}
    }
    return IngestReport(
        collection=coll.name,
        added=len(changed),
        unchanged=len(chunked) - len(changed),
        skipped=skipped,
        chunks_added=len(fresh),
        chunks_removed=len(stale),
    )


async def _embed_and_store(
    coll: KBCollection,
    chunks: list[Chunk],
    embed: EmbeddingFunction,
    config: KBConfig,
    progress: Progress | None,
) -> None:
    # Batches of a few hundred chunks: progress stays lively and a crash loses little work.
    step = max(config.embedding.batch_size, 256)
    boost = config.hybrid.title_boost
    for start in range(0, len(chunks), step):
        batch = chunks[start : start + step]
        vectors = await asyncio.to_thread(embed, [embed_text(c.title, c.text) for c in batch])
        await asyncio.to_thread(
            coll.upsert, [stored(c, boost, v) for c, v in zip(batch, vectors, strict=True)], vectors
        )
        await _report(progress, start + len(batch), len(chunks))


def embed_text(title: str, text: str) -> str:
    """The title leads the embedded text: it is the densest summary the model sees.

    Joined by a plain space: with all-MiniLM-L6-v2 this ranked better than a full stop
    between them (SciFact, dense nDCG@10 +0.005).
    """
    if title and not text.startswith(title):
        return f"{title} {text}"
    return text


async def _report(progress: Progress | None, done: int, total: int) -> None:
    if progress is None:
        return
    outcome = progress(done, total)
    if inspect.isawaitable(outcome):
        await outcome
