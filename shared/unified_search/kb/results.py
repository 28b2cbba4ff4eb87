"""Hits of several collections → one ranked list of ``ResultItem``s, chunk by chunk."""

from __future__ import annotations

from collections.abc import Sequence

from unified_search.kb.collection import Hit
from unified_search.types import ORIGIN, ResultItem, SearchType, Source

_URL_SCHEMES = ("http://", "https://")


def document_id(hit: Hit) -> str:
    """The document a hit's chunk belongs to."""
    return str(hit.metadata.get("document_id") or hit.id)


def merge_hits(hits: Sequence[Hit], limit: int, *, group_by_document: bool = False) -> list[Hit]:
    """The ``limit`` best chunks (ties by collection and chunk ID), each once.

    A chunk found twice (through the graph too, or in two collections holding the same
    document) keeps its best score; with ``group_by_document`` only the best chunk of
    each document is kept.
    """
    ranked = sorted(hits, key=lambda h: (-h.score, h.collection, h.id))
    best: dict[str, Hit] = {}
    for hit in ranked:
        best.setdefault(document_id(hit) if group_by_document else hit.id, hit)
    return list(best.values())[:limit]


def to_item(hit: Hit, source: Source) -> ResultItem:
    """The result item of a hit; chunk position and match evidence go to metadata."""
    meta = dict(hit.metadata)
    # Stored as "source" (chunk IDs depend on it); shown as ORIGIN: "source" is who asked.
    origin = meta.pop("source", None)
    if origin is not None:
        meta[ORIGIN] = origin
    url = origin if isinstance(origin, str) and origin.startswith(_URL_SCHEMES) else None
    evidence = {
        "chunk_id": hit.id,
        "similarity": hit.similarity,
        "lexical_score": hit.lexical,
        **hit.extra,
    }
    return ResultItem(
        type=SearchType.KB,
        title=str(meta.pop("title", "") or ""),
        content=hit.text,
        url=url,
        score=max(0.0, min(1.0, hit.score)),
        source=source,
        document_id=document_id(hit),
        collection=hit.collection,
        metadata={**meta, **{k: v for k, v in evidence.items() if v is not None}},
    )


def to_items(hits: Sequence[Hit], source: Source) -> list[ResultItem]:
    """Result items of ``hits``, in order."""
    return [to_item(hit, source) for hit in hits]
