"""Keep Chroma and the side store in agreement, also after a writer was killed.

Every write goes to Chroma first and to the side store second, so a writer
killed between the two leaves chunks in Chroma that the side store (and so the
lexical index) does not know; a side-store chunk missing from Chroma can only
come from outside damage. ``check`` compares the two sets of chunk IDs;
``repair`` deletes Chroma's extra chunks and embeds the missing ones again from
the side store's rows (text and metadata). ``guarded`` wraps every write: it
sets a marker first, and last saves the lexical index of what was written and
clears the marker, so the next writer finds a killed write and repairs before
it starts.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from pydantic import BaseModel, ConfigDict

from unified_search.kb.collection import KBCollection
from unified_search.kb.ingest import embed_text
from unified_search.kb.locks import write_lock

#: IDs asked of Chroma per page while listing a collection.
PAGE = 5000


class Consistency(BaseModel):
    """How Chroma and the side store of one collection compare.

    Example:
        >>> Consistency(collection="docs", chunks=10).consistent
        True
    """

    model_config = ConfigDict(frozen=True)

    collection: str
    chunks: int
    """Chunks the side store (and the lexical index) holds."""
    only_in_chroma: list[str] = []
    """Chunk IDs in Chroma that the side store does not know (deleted by ``repair``)."""
    only_in_side_store: list[str] = []
    """Chunk IDs missing from Chroma (embedded again by ``repair``)."""
    unfinished: bool = False
    """A write began and has not finished: it is running, or its writer was killed (the next
    write, or ``repair``, completes the check)."""
    repaired: bool = False

    @property
    def consistent(self) -> bool:
        """Whether both hold exactly the same chunks."""
        return not self.only_in_chroma and not self.only_in_side_store


def chroma_ids(coll: KBCollection) -> set[str]:
    """Every chunk ID Chroma holds for the collection, read a page at a time."""
    found: set[str] = set()
    offset = 0
    while True:
        page = coll.chroma.get(include=[], limit=PAGE, offset=offset)["ids"]
        found.update(page)
        if len(page) < PAGE:
            return found
        offset += PAGE


def check(coll: KBCollection) -> Consistency:
    """Compare Chroma with the side store (blocking)."""
    side = coll.side.chunk_ids()
    chroma = chroma_ids(coll)
    return Consistency(
        collection=coll.name,
        chunks=len(side),
        only_in_chroma=sorted(chroma - side),
        only_in_side_store=sorted(side - chroma),
        unfinished=coll.side.writing(),
    )


def repair(coll: KBCollection) -> Consistency:
    """Make Chroma hold exactly the side store's chunks; return what was found (blocking)."""
    found = check(coll)
    if found.only_in_chroma:
        coll.chroma.delete(ids=found.only_in_chroma)
    missing = coll.side.rows(found.only_in_side_store)
    if missing:
        if coll.embed is None:
            raise RuntimeError("repairing rows without vectors needs the embedding model")
        texts = [embed_text(r.metadata.get("title") or "", r.text) for r in missing]
        coll.upsert(missing, list(coll.embed(texts)))
    coll.save_lexical()
    coll.side.mark_writing(False)
    return found.model_copy(update={"repaired": not found.consistent})


@asynccontextmanager
async def guarded(coll: KBCollection) -> AsyncIterator[None]:
    """Run a write holding the collection's write lock, with the marker set.

    A write that another process left unfinished is repaired first.
    """
    lock = write_lock(coll.side, coll.name, coll.write_wait)
    await asyncio.to_thread(lock.__enter__)
    try:
        if await asyncio.to_thread(coll.side.writing):
            await asyncio.to_thread(repair, coll)
        await asyncio.to_thread(coll.side.mark_writing, True)
        try:
            yield
        except asyncio.CancelledError:
            # Cancelled writes finish their batch first (see ``ingest.Writer``): nothing is
            # half done.
            await asyncio.to_thread(_finish, coll)
            raise
        await asyncio.to_thread(_finish, coll)
    finally:
        await asyncio.to_thread(lock.__exit__, None, None, None)


def locked_repair(coll: KBCollection) -> Consistency:
    """``repair`` holding the collection's write lock (blocking)."""
    with write_lock(coll.side, coll.name, coll.write_wait):
        return repair(coll)


def _finish(coll: KBCollection) -> None:
    coll.save_lexical()
    coll.side.mark_writing(False)
