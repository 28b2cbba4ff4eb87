"""Index files and folders so that a collection mirrors them.

Re-indexing a folder reads only the files whose content hash changed, deletes
the documents of files that are gone from it (or now excluded), and keeps the
indexed version of a file that exists but cannot be read this time (nothing
already indexed is lost to a bad read). A file counts as indexed only once all
of its chunks are stored, so an interrupted or killed run is continued by
running it again: finished files are skipped by their hash, chunks already
stored by their ID.

Documents are named by their path relative to the indexed folder. A file keeps
the name it was first indexed under; a new file whose name another file owns
gets the shortest longer name (its folders above) that is free.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from unified_search.config.kb import KBConfig, LimitsConfig
from unified_search.kb.chunking import Document
from unified_search.kb.collection import KBCollection
from unified_search.kb.consistency import guarded
from unified_search.kb.embeddings import EmbeddingFunction
from unified_search.kb.files import (
    MAX_FILE_BYTES,
    ReadFile,
    SkippedFile,
    SourceFile,
    Walk,
    digest,
    file_bytes,
    parse_file,
    walk,
)
from unified_search.kb.ingest import Extractor, IngestProgress, Progress, Writer, plan, report
from unified_search.kb.readers import Unreadable
from unified_search.kb.store import dropped_meanwhile


class IndexOptions(BaseModel):
    """Which files under the given paths are read."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    recursive: bool = True
    exclude: list[str] = Field(default_factory=list)
    """Glob patterns matched against a file's relative path and its name."""
    hidden: bool = False
    """Also read hidden files and folders (names starting with ``.``)."""
    max_file_bytes: int = Field(default=MAX_FILE_BYTES, ge=1)
    """Larger files are skipped and reported."""


class IndexReport(BaseModel):
    """What indexing files and folders changed.

    Example:
        >>> IndexReport(collection="docs", files=3, unchanged=3).changed
        0
    """

    model_config = ConfigDict(frozen=True)

    collection: str
    files: int = 0
    """Files found under the paths (read or not)."""
    unchanged: int = 0
    """Files whose content hash matched the indexed version: not read again."""
    changed: int = 0
    """Files new or changed since the last index: read, their new chunks embedded."""
    removed: int = 0
    """Indexed files gone from the folders (their documents deleted)."""
    documents: int = 0
    """Documents added or changed."""
    chunks_added: int = 0
    chunks_removed: int = 0
    skipped: list[SkippedFile] = Field(default_factory=list)
    """Every file, folder or record not indexed, with its reason."""


@dataclass
class _Run:
    """The files of one run and what they hold, gathered before anything is written."""

    found: Walk
    known: dict[str, tuple[str, str]] = field(default_factory=dict)
    """Indexed ``path -> (name, digest)`` under the walked roots."""
    read: list[tuple[ReadFile, str, list[Document]]] = field(default_factory=list)
    """Changed files: the file, its name and its documents."""
    unchanged: int = 0
    skipped: list[SkippedFile] = field(default_factory=list)

    @property
    def gone(self) -> list[str]:
        """Indexed files no longer found (what a folder that could not be listed holds stays)."""
        present = {str(f.path) for f in self.found.files}
        hidden = [f"{folder}/" for folder in self.found.unlisted]
        return sorted(p for p in set(self.known) - present if not p.startswith(tuple(hidden)))


async def index_paths(
    coll: KBCollection,
    paths: Sequence[str | Path],
    *,
    embed: EmbeddingFunction,
    config: KBConfig,
    options: IndexOptions | None = None,
    progress: Progress | None = None,
    extractor: Extractor | None = None,
) -> IndexReport:
    """Mirror the files under ``paths`` into ``coll`` and report what changed."""
    options = options or IndexOptions()
    found = await asyncio.to_thread(
        walk, paths, recursive=options.recursive, exclude=options.exclude, hidden=options.hidden
    )
    run = _Run(found, skipped=list(found.skipped))
    async with guarded(coll), dropped_meanwhile(coll.name):
        await _read_all(coll, run, options, progress, config.limits)
        documents = [d for _, _, docs in run.read for d in docs]
        todo = await asyncio.to_thread(plan, coll, documents, config)
        run.skipped += [SkippedFile(doc, reason) for doc, reason in todo.failed.items()]
        dropped = await asyncio.to_thread(_dropped_chunks, coll, run)
        await asyncio.to_thread(coll.delete, sorted({*todo.stale, *dropped}))
        await asyncio.to_thread(coll.side.forget_files, run.gone)
        marks = _Marks(coll, run, [c.document_id for c in todo.fresh])
        await asyncio.to_thread(marks.record, 0)
        writer = Writer(coll, embed, config, extractor, progress, stored=marks.record)
        marks.failed = writer.failed
        await writer.write(todo.fresh)
        run.skipped += [SkippedFile(doc, reason) for doc, reason in writer.failed.items()]
    return IndexReport(
        collection=coll.name,
        files=len(found.files),
        unchanged=run.unchanged,
        changed=len(run.read),
        removed=len(run.gone),
        documents=len(todo.changed - writer.failed.keys()),
        chunks_added=writer.written,
        chunks_removed=len(set(todo.stale) | dropped),
        skipped=run.skipped,
    )


async def _read_all(
    coll: KBCollection,
    run: _Run,
    options: IndexOptions,
    progress: Progress | None,
    limits: LimitsConfig,
) -> None:
    """Hash every file, parse the changed ones and name their documents."""
    total = len(run.found.files)
    for root in run.found.roots:
        run.known.update(await asyncio.to_thread(coll.side.files_under, str(root)))
    taken: dict[str, str] = {name: path for path, (name, _) in run.known.items()}
    await report(progress, IngestProgress("reading", 0, total))
    for done, file in enumerate(run.found.files, start=1):
        outcome = await asyncio.to_thread(_read_one, coll, file, run.known, taken, options, limits)
        if isinstance(outcome, SkippedFile):
            run.skipped.append(outcome)
        elif outcome is None:
            run.unchanged += 1
        else:
            read, name = outcome
            docs, bad = read.documents(name)
            run.read.append((read, name, docs))
            run.skipped += bad
        await report(progress, IngestProgress("reading", done, total))


def _read_one(
    coll: KBCollection,
    file: SourceFile,
    known: dict[str, tuple[str, str]],
    taken: dict[str, str],
    options: IndexOptions,
    limits: LimitsConfig,
) -> tuple[ReadFile, str] | SkippedFile | None:
    """The parsed file and its name; ``None`` when unchanged; the reason when unreadable."""
    path = str(file.path)
    try:
        data = file_bytes(file, options.max_file_bytes)
        if path in known and known[path][1] == digest(data):
            return None
        read = parse_file(file, data, limits)
    except Unreadable as exc:
        kept = " (its indexed version is kept)" if path in known else ""
        return SkippedFile(file.name, f"{exc}{kept}")
    name = known[path][0] if path in known else _free_name(coll, file, taken)
    taken[name] = path
    return read, name


def _free_name(coll: KBCollection, file: SourceFile, taken: dict[str, str]) -> str:
    """The shortest of the file's names that no other file owns."""
    path = str(file.path)
    names = list(file.names())
    owners = {**coll.side.name_owners(names), **taken}
    return next((n for n in names if owners.get(n, path) == path), names[-1])


def _dropped_chunks(coll: KBCollection, run: _Run) -> set[str]:
    """Chunks of gone files, and of documents a changed file no longer has."""
    paths = [*run.gone, *(str(read.file.path) for read, _, _ in run.read)]
    kept = {d.id for _, _, docs in run.read for d in docs}
    before = coll.side.file_documents(paths)
    old = {doc for docs in before.values() for doc in docs} - kept
    owned = coll.side.document_chunks(old)
    return {cid for ids in owned.values() for cid in ids}


class _Marks:
    """Record each changed file as indexed once the writer has stored its last fresh chunk."""

    def __init__(self, coll: KBCollection, run: _Run, fresh_documents: Sequence[str]) -> None:
        self.coll = coll
        self.failed: dict[str, str] = {}
        """Documents the writer left out: their files keep no hash, so the next run reads them."""
        last: dict[str, int] = {}
        for position, doc in enumerate(fresh_documents):
            last[doc] = position + 1
        # A file with a record that could not be read keeps no hash: the next run reads it
        # again and reports that record again.
        partial = {s.path.partition("#")[0] for s in run.skipped}
        self.waiting = [
            (
                max((last.get(d.id, 0) for d in docs), default=0),
                str(read.file.path),
                name,
                "" if name in partial or not docs else read.digest,
                [d.id for d in docs],
            )
            for read, name, docs in run.read
        ]

    def record(self, stored: int) -> None:
        """Remember the files whose chunks are all among the first ``stored`` fresh ones."""
        ready = [w for w in self.waiting if w[0] <= stored]
        self.waiting = [w for w in self.waiting if w[0] > stored]
        rows = [
            (path, name, "" if self.failed.keys() & set(ids) else digest, ids)
            for _, path, name, digest, ids in ready
        ]
        if rows:
            self.coll.side.record_files(rows)


def remove_paths(coll: KBCollection, paths: Iterable[str]) -> tuple[int, int, list[str]]:
    """Forget files or documents and delete their chunks (blocking).

    Each path is a file or folder on disk, a name ``list`` shows (a file or a folder of
    them), or the ID of a document added from Python. Returns the documents and chunks
    removed, and the paths that matched nothing.
    """
    files: dict[str, tuple[str, str]] = {}
    documents: set[str] = set()
    unmatched: list[str] = []
    for raw in paths:
        matched = coll.side.files_under(str(Path(raw).expanduser().resolve()))
        matched = matched or coll.side.files_named(raw.strip("/"))
        files.update(matched)
        if not matched and coll.side.document_chunks([raw])[raw]:
            documents.add(raw)
        elif not matched:
            unmatched.append(raw)
    documents |= {d for docs in coll.side.file_documents(files).values() for d in docs}
    owned = coll.side.document_chunks(documents)
    chunks = sorted({cid for ids in owned.values() for cid in ids})
    coll.delete(chunks)
    coll.side.forget_files(files)
    return sum(1 for ids in owned.values() if ids), len(chunks), unmatched
