"""Copy a collection to another deployment without embedding anything again.

Moving up from one machine to shared servers: the vectors are read from the
source's Chroma a page at a time and written to the target's with the side-store
rows of their chunks; the entity graph and the file registry follow. The target
is written under its write lock, and ends holding exactly the source's chunks. A
copy that was interrupted is continued by running it again: chunks the target
holds already are skipped.
"""

from __future__ import annotations

import asyncio
from typing import Any

from pydantic import BaseModel, ConfigDict

from unified_search.kb.collection import KBCollection
from unified_search.kb.consistency import chroma_ids, guarded

#: Chunks read from the source and written to the target per step.
PAGE = 1000


class CopyReport(BaseModel):
    """What ``copy_collection`` wrote.

    Example:
        >>> CopyReport(collection="docs", chunks=10, copied=10).copied
        10
    """

    model_config = ConfigDict(frozen=True)

    collection: str
    chunks: int
    """Chunks the source holds."""
    copied: int
    """Chunks written to the target (the others were there already)."""
    removed: int = 0
    """Chunks the target held that the source does not: deleted."""


async def copy_collection(source: KBCollection, target: KBCollection) -> CopyReport:
    """Make ``target`` hold what ``source`` holds: vectors, rows, graph and file registry."""
    async with guarded(target):
        wanted = await asyncio.to_thread(source.side.chunk_ids)
        held = await asyncio.to_thread(chroma_ids, target) & await asyncio.to_thread(
            target.side.chunk_ids
        )
        copied = 0
        offset = 0
        while True:
            page = await asyncio.to_thread(
                source.chroma.get,
                include=["embeddings", "metadatas"],
                limit=PAGE,
                offset=offset,
            )
            copied += await asyncio.to_thread(_write, source, target, page, wanted - held)
            if len(page["ids"]) < PAGE:
                break
            offset += PAGE
        extra = sorted(await asyncio.to_thread(target.side.chunk_ids) - wanted)
        await asyncio.to_thread(target.delete, extra)
        rows = await asyncio.to_thread(source.side.graph_and_files)
        await asyncio.to_thread(target.side.add_graph_and_files, rows)
    return CopyReport(collection=target.name, chunks=len(wanted), copied=copied, removed=len(extra))


def _write(
    source: KBCollection, target: KBCollection, page: dict[str, Any], missing: set[str]
) -> int:
    """Write the chunks of one page of Chroma that the target lacks; how many they were."""
    keep = [i for i, id_ in enumerate(page["ids"]) if id_ in missing]
    if not keep:
        return 0
    ids = [page["ids"][i] for i in keep]
    rows = {r.id: r for r in source.side.rows(ids)}
    keep = [i for i in keep if page["ids"][i] in rows]  # vectors without rows stay behind
    target.add_vectors(
        [page["ids"][i] for i in keep],
        [page["metadatas"][i] for i in keep],
        [page["embeddings"][i] for i in keep],
    )
    target.side.add_chunks([rows[page["ids"][i]] for i in keep])
    return len(keep)
