"""What ``KBHandler`` does to collections besides searching them: files in, files out, checks.

A mixin keeps these beside the handler without growing it: indexing files and
folders (mirrored, see ``kb.mirror``), removing them, listing documents,
dropping a collection, copying one to another deployment (``kb.copy``), and
checking (and repairing) that Chroma and the side store agree. Each async method has its sync twin.
"""

from __future__ import annotations

import asyncio
import errno
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict

from unified_search._sync import sync_twin
from unified_search.kb.consistency import Consistency, check, guarded, locked_repair
from unified_search.kb.shared import store_errors
from unified_search.kb.store import collection_names

if TYPE_CHECKING:
    from unified_search.config.search import SearchConfig
    from unified_search.kb.collection import KBCollection
    from unified_search.kb.copy import CopyReport
    from unified_search.kb.embeddings import EmbeddingFunction
    from unified_search.kb.ingest import Progress
    from unified_search.kb.mirror import IndexOptions, IndexReport


class DocumentInfo(BaseModel):
    """One document of a collection, as ``list_documents`` shows it."""

    model_config = ConfigDict(frozen=True)

    id: str
    title: str
    chunks: int
    file: str | None = None
    """The indexed file's name (relative to its folder); ``None`` for documents added in code."""


class Removed(BaseModel):
    """What ``remove_paths`` deleted."""

    model_config = ConfigDict(frozen=True)

    documents: int
    chunks: int
    unmatched: list[str]
    """Paths that matched no indexed file or document."""


class KBAdmin:
    """Index files and folders, remove them, list, drop and check collections."""

    config: SearchConfig
    _client: Any
    _collections: dict[str, KBCollection]

    if TYPE_CHECKING:  # provided by KBHandler

        @property
        def embedding(self) -> EmbeddingFunction:
            """The model that embeds chunks."""

        async def _collection(self, name: str, *, create: bool = False) -> KBCollection: ...

        def _extractor(self, ctx: Any) -> Any: ...

        def _recorded_here(self, name: str) -> bool: ...

    @store_errors
    async def aindex_paths(
        self,
        collection: str,
        paths: Sequence[str | Path],
        *,
        options: IndexOptions | None = None,
        progress: Progress | None = None,
    ) -> IndexReport:
        """Index files and folders so ``collection`` mirrors them (only changes are read).

        Raises:
            FileNotFoundError: a path does not exist; nothing is created or indexed.

        Example:
            Not run here: ``docs/`` stands for a folder of the caller's.

            >>> kb.index_paths("help", ["docs/"]).skipped  # doctest: +SKIP
            [SkippedFile(path='logo.png', reason='unsupported file type .png')]
        """
        from unified_search.kb.mirror import index_paths  # searching never needs the file readers

        missing = [str(p) for p in paths if not _present(Path(p).expanduser())]
        if missing:  # a typo must not leave an empty collection behind
            raise FileNotFoundError(errno.ENOENT, "no such file or folder", missing[0])
        coll = await self._collection(collection, create=True)
        return await index_paths(
            coll,
            paths,
            embed=self.embedding,
            config=self.config.kb,
            options=options,
            progress=progress,
            extractor=self._extractor(None),
        )

    index_paths = sync_twin(aindex_paths)

    @store_errors
    async def aremove_paths(self, collection: str, paths: Sequence[str]) -> Removed:
        """Remove files, folders (on disk or as listed) or document IDs from ``collection``."""
        from unified_search.kb.mirror import remove_paths

        coll = await self._collection(collection)
        async with guarded(coll):
            documents, chunks, unmatched = await asyncio.to_thread(remove_paths, coll, paths)
        return Removed(documents=documents, chunks=chunks, unmatched=unmatched)

    remove_paths = sync_twin(aremove_paths)

    @store_errors
    async def alist_documents(self, collection: str) -> list[DocumentInfo]:
        """Every document of ``collection`` with its title, chunk count and file."""
        coll = await self._collection(collection)
        rows = await asyncio.to_thread(coll.side.documents)
        return [DocumentInfo(id=i, title=t, chunks=n, file=f) for i, t, n, f in rows]

    list_documents = sync_twin(alist_documents)

    @store_errors
    async def adrop_collection(self, collection: str) -> None:
        """Delete ``collection``: its vectors, lexical index and graph."""
        coll = await self._collection(collection)
        self._collections.pop(collection, None)
        # Without its marker the side store no longer answers for the collection, whatever
        # happens next: it is Chroma's to say whether the collection still exists.
        await asyncio.to_thread(coll.side.forget_build)
        await asyncio.to_thread(self._client.delete_collection, collection)
        await asyncio.to_thread(coll.side.drop)
        await asyncio.to_thread(shutil.rmtree, coll.folder, True)

    drop_collection = sync_twin(adrop_collection)

    @store_errors
    async def acheck(self, collection: str, *, fix: bool = False) -> Consistency:
        """Compare Chroma with the lexical side of ``collection``; with ``fix``, repair it."""
        coll = await self._collection(collection)
        return await asyncio.to_thread(locked_repair if fix else check, coll)

    check = sync_twin(acheck)

    @store_errors
    async def acopy_to(self, collection: str, target: KBAdmin) -> CopyReport:
        """Copy ``collection`` into ``target``'s deployment (same name), embedding nothing.

        Example:
            Not run here: it needs a Chroma server and PostgreSQL for the target.

            >>> laptop.copy_to("help", servers).copied  # doctest: +SKIP
            1204
        """
        from unified_search.kb.copy import copy_collection

        source = await self._collection(collection)
        return await copy_collection(source, await target._collection(collection, create=True))

    copy_to = sync_twin(acopy_to)

    async def alist_collections(self) -> list[str]:
        """Names of the existing collections, sorted."""
        return await asyncio.to_thread(collection_names, self._client)

    async def afind_collections(self, names: Sequence[str]) -> list[str]:
        """Those of ``names`` that exist, in order.

        Embedded collections are found by their side stores without opening Chroma;
        Chroma is listed only for a name they do not answer for.
        """
        known = await asyncio.to_thread(lambda: {n for n in names if self._recorded_here(n)})
        if not set(names) <= known:
            known |= set(await self.alist_collections())
        return [name for name in names if name in known]

    list_collections = sync_twin(alist_collections)


def _present(path: Path) -> bool:
    """Whether ``path`` is there (a broken link is, and is reported as such)."""
    return path.exists() or path.is_symlink()
