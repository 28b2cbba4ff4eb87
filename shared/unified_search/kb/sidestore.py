"""What a collection keeps beside its vectors: lexical terms and the entity graph (SQLite).

One SQLite file per collection under the data directory. ``chunks`` lists
every indexed chunk with its document and its analysed terms (the BM25 index
is rebuilt from them in memory); ``mentions`` (which also tells which entities co-occur)
and ``relations`` (typed ones an extractor names) hold the graph. Chunk text, metadata and a
float32 copy of the vector are kept here too: a search reads its hits locally
instead of asking Chroma again, and scores the chunks only BM25 found against
the query vector, so fusion sees both scores of every candidate.
It is also the registry that tells ingestion which chunks exist already, so
unchanged chunks are never embedded twice. ``files`` and ``documents`` map
indexed files (by resolved path, which stays on this machine) to their public
names, content hashes and documents, so re-indexing a folder mirrors it.
``state`` marks a write in progress: found set, the last writer was killed and
the collection is checked before anything else is written. It also keeps a copy
of the build marker Chroma records on the collection (embedding model, index
format), so a search that needs nothing from Chroma checks the model without
opening it. Values are always bound as parameters, never formatted into SQL.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from unified_search.kb.graph import CO_OCCURS, Extraction

_SCHEMA = """
CREATE TABLE IF NOT EXISTS chunks (
    id TEXT PRIMARY KEY, document_id TEXT NOT NULL, terms TEXT NOT NULL,
    text TEXT NOT NULL, metadata TEXT NOT NULL, vector BLOB NOT NULL);
CREATE INDEX IF NOT EXISTS chunks_document ON chunks (document_id);
CREATE TABLE IF NOT EXISTS entities (key TEXT PRIMARY KEY, name TEXT NOT NULL, type TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS mentions (entity TEXT NOT NULL, chunk_id TEXT NOT NULL, PRIMARY KEY (entity, chunk_id));
CREATE INDEX IF NOT EXISTS mentions_chunk ON mentions (chunk_id);
CREATE TABLE IF NOT EXISTS relations (
    source TEXT NOT NULL, target TEXT NOT NULL, type TEXT NOT NULL, chunk_id TEXT NOT NULL,
    PRIMARY KEY (source, target, type, chunk_id));
CREATE INDEX IF NOT EXISTS relations_chunk ON relations (chunk_id);
CREATE INDEX IF NOT EXISTS relations_target ON relations (target);
CREATE TABLE IF NOT EXISTS files (
    path TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE, digest TEXT NOT NULL,
    indexed_at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS documents (id TEXT PRIMARY KEY, file TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS documents_file ON documents (file);
CREATE TABLE IF NOT EXISTS state (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


#: The ``state`` key of the build marker's copy.
_BUILD = "built_with"


def recorded_build(path: Path) -> dict[str, Any] | None:
    """The build marker kept in the side store at ``path``; ``None`` without file or marker.

    Reads without creating anything: a name that was never indexed leaves no file behind.
    """
    if not path.is_file():
        return None
    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=rw", uri=True)
    except sqlite3.Error:
        return None
    try:
        row = db.execute("SELECT value FROM state WHERE key = ?", (_BUILD,)).fetchone()
    except sqlite3.Error:  # a file without the state table (an early version's)
        return None
    finally:
        db.close()
    marker: dict[str, Any] | None = json.loads(row[0]) if row else None
    return marker


@dataclass(frozen=True)
class StoredChunk:
    """One chunk row: its analysed terms for BM25 and what a hit shows."""

    id: str
    document_id: str
    terms: list[str]
    text: str
    metadata: dict[str, Any]
    vector: bytes = b""
    """float32 bytes of the chunk's embedding."""


class SideStore:
    """The SQLite file of one collection.

    Example:
        >>> store = SideStore(Path("/tmp/kb/docs.sqlite"))
        >>> store.add_chunks([StoredChunk("c1", "doc1", ["vector"], "Vectors.", {})])
        >>> store.fetch(["c1"])
        {'c1': ('Vectors.', {})}
    """

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._db = sqlite3.connect(path, check_same_thread=False)
        self._lock = threading.Lock()
        self.version = 0
        """Bumped on every change, so cached indexes know when to rebuild."""
        with self._lock, self._db:
            # WAL with NORMAL sync: a commit does not wait for the disk. A killed process
            # loses nothing; a power cut may lose the last batches, which ``kb check``
            # finds in Chroma alone and repairs.
            self._db.execute("PRAGMA journal_mode = WAL")
            self._db.execute("PRAGMA synchronous = NORMAL")
            self._db.executescript(_SCHEMA)

    def close(self) -> None:
        """Close the file."""
        self._db.close()

    def document_chunks(self, document_ids: Iterable[str]) -> dict[str, set[str]]:
        """Chunk IDs stored for each of ``document_ids``."""
        found: dict[str, set[str]] = {}
        with self._lock:
            for doc in set(document_ids):
                rows = self._db.execute("SELECT id FROM chunks WHERE document_id = ?", (doc,))
                found[doc] = {row[0] for row in rows}
        return found

    def index_rows(self) -> list[tuple[str, list[str], bytes]]:
        """``(chunk_id, terms, vector bytes)`` of every chunk, ordered by ID."""
        with self._lock:
            rows = self._db.execute("SELECT id, terms, vector FROM chunks ORDER BY id").fetchall()
        return [(r[0], json.loads(r[1]), r[2]) for r in rows]

    def add_chunks(
        self, rows: Sequence[StoredChunk], graphs: Sequence[tuple[str, Extraction]] = ()
    ) -> None:
        """Store chunks, replacing same IDs, and the extractions of chunks, in one transaction."""
        with self._lock, self._db:
            self._insert_graphs(graphs)
            self._db.executemany(
                "INSERT OR REPLACE INTO chunks (id, document_id, terms, text, metadata, vector) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (
                        r.id,
                        r.document_id,
                        json.dumps(r.terms),
                        r.text,
                        json.dumps(r.metadata),
                        r.vector,
                    )
                    for r in rows
                ],
            )
            self.version += 1

    def fetch(self, chunk_ids: Sequence[str]) -> dict[str, tuple[str, dict[str, Any]]]:
        """``chunk_id -> (text, metadata)`` of the stored chunks among ``chunk_ids``."""
        ids = list(chunk_ids)
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))  # placeholders only; the IDs are bound
        sql = f"SELECT id, text, metadata FROM chunks WHERE id IN ({marks})"
        with self._lock:
            rows = self._db.execute(sql, ids).fetchall()
        return {row[0]: (row[1], json.loads(row[2])) for row in rows}

    def changed_since(self, seen: tuple[int, int] | None) -> tuple[bool, tuple[int, int]]:
        """Whether this or another connection changed the file since ``seen``, and the new mark."""
        with self._lock:
            external = int(self._db.execute("PRAGMA data_version").fetchone()[0])
        mark = (self.version, external)
        return mark != seen, mark

    def delete_chunks(self, chunk_ids: Iterable[str]) -> None:
        """Forget chunks and what the graph learnt from them."""
        ids = [(cid,) for cid in chunk_ids]
        with self._lock, self._db:
            self._db.executemany("DELETE FROM chunks WHERE id = ?", ids)
            self._db.executemany("DELETE FROM mentions WHERE chunk_id = ?", ids)
            self._db.executemany("DELETE FROM relations WHERE chunk_id = ?", ids)
            self._db.execute("DELETE FROM entities WHERE key NOT IN (SELECT entity FROM mentions)")
            self.version += 1

    def add_graphs(self, items: Sequence[tuple[str, Extraction]]) -> None:
        """Record the extractions of many chunks in one transaction."""
        with self._lock, self._db:
            self._insert_graphs(items)

    def _insert_graphs(self, items: Sequence[tuple[str, Extraction]]) -> None:
        """Insert extractions (within the caller's transaction).

        Co-occurrence is what ``mentions`` records already (two entities mentioned by one
        chunk), so only relations of another type are stored: writing every co-occurring
        pair took most of the indexing time outside Chroma.
        """
        entities = {(e.name.lower(), e.name, e.type) for _, x in items for e in x.entities}
        mentions = {(e.name.lower(), cid) for cid, x in items for e in x.entities}
        relations = {
            (r.source.lower(), r.target.lower(), r.type, cid)
            for cid, x in items
            for r in x.relations
            if r.type != CO_OCCURS
        }
        self._db.executemany("INSERT OR IGNORE INTO entities VALUES (?, ?, ?)", entities)
        self._db.executemany("INSERT OR IGNORE INTO mentions VALUES (?, ?)", mentions)
        self._db.executemany("INSERT OR IGNORE INTO relations VALUES (?, ?, ?, ?)", relations)

    def known_entities(self, keys: Iterable[str]) -> list[tuple[str, str, str]]:
        """``(key, name, type)`` of the given lower-cased names that the graph holds."""
        wanted = sorted(set(keys))
        with self._lock:
            return [
                row
                for key in wanted
                for row in self._db.execute(
                    "SELECT key, name, type FROM entities WHERE key = ?", (key,)
                )
            ]

    def neighbours(self, key: str, limit: int) -> list[tuple[str, str, str, int]]:
        """``(key, name, type, weight)`` of entities related to ``key``, most related first.

        The weight counts the chunks mentioning both, plus the typed relations between them.
        """
        sql = """
            SELECT other, e.name, e.type, COUNT(*) AS weight FROM (
                SELECT m2.entity AS other FROM mentions m1
                    JOIN mentions m2 ON m2.chunk_id = m1.chunk_id
                    WHERE m1.entity = ? AND m2.entity != m1.entity
                UNION ALL SELECT target FROM relations WHERE source = ? AND type != ?
                UNION ALL SELECT source FROM relations WHERE target = ? AND type != ?)
            JOIN entities e ON e.key = other
            GROUP BY other ORDER BY weight DESC, other LIMIT ?"""
        with self._lock:
            return list(self._db.execute(sql, (key, key, CO_OCCURS, key, CO_OCCURS, limit)))

    def mentioning(self, keys: Sequence[str], limit: int) -> list[tuple[str, int]]:
        """``(chunk_id, matched entities)`` of chunks mentioning most of ``keys``."""
        if not keys:
            return []
        marks = ",".join("?" * len(keys))
        sql = (
            f"SELECT chunk_id, COUNT(*) AS n FROM mentions WHERE entity IN ({marks}) "
            "GROUP BY chunk_id ORDER BY n DESC, chunk_id LIMIT ?"
        )
        with self._lock:
            return list(self._db.execute(sql, (*keys, limit)))

    # -- files, documents and the write marker ---------------------------------------------

    def files_under(self, root: str) -> dict[str, tuple[str, str]]:
        """``path -> (name, digest)`` of the indexed files at or under the folder ``root``."""
        return self._files_at("path", root)

    def files_named(self, name: str) -> dict[str, tuple[str, str]]:
        """``path -> (name, digest)`` of the files named ``name`` or inside the folder ``name``."""
        return self._files_at("name", name)

    def _files_at(self, column: str, value: str) -> dict[str, tuple[str, str]]:
        """Files whose ``column`` (``path`` or ``name``) is ``value`` or lies under it."""
        sql = {  # the two statements spelt out: the column is never formatted into SQL
            "path": "SELECT path, name, digest FROM files WHERE path = ? OR substr(path, 1, ?) = ?",
            "name": "SELECT path, name, digest FROM files WHERE name = ? OR substr(name, 1, ?) = ?",
        }[column]
        under = value.rstrip("/") + "/"
        with self._lock:
            rows = self._db.execute(sql, (value, len(under), under)).fetchall()
        return {row[0]: (row[1], row[2]) for row in rows}

    def name_owners(self, names: Iterable[str]) -> dict[str, str]:
        """``name -> path`` of the given public names that indexed files already own."""
        with self._lock:
            return {
                name: row[0]
                for name in set(names)
                for row in self._db.execute("SELECT path FROM files WHERE name = ?", (name,))
            }

    def file_documents(self, paths: Iterable[str]) -> dict[str, set[str]]:
        """Document IDs read from each of ``paths``."""
        with self._lock:
            return {
                path: {
                    row[0]
                    for row in self._db.execute("SELECT id FROM documents WHERE file = ?", (path,))
                }
                for path in set(paths)
            }

    def record_files(self, rows: Sequence[tuple[str, str, str, Sequence[str]]]) -> None:
        """Remember ``(path, name, digest, document IDs)`` of files whose chunks are all stored."""
        now = time.time()
        with self._lock, self._db:
            paths = [(row[0],) for row in rows]
            self._db.executemany("DELETE FROM documents WHERE file = ?", paths)
            self._db.executemany(
                "INSERT OR REPLACE INTO files (path, name, digest, indexed_at) VALUES (?, ?, ?, ?)",
                [(path, name, digest, now) for path, name, digest, _ in rows],
            )
            self._db.executemany(
                "INSERT OR REPLACE INTO documents (id, file) VALUES (?, ?)",
                [(doc, path) for path, _, _, docs in rows for doc in docs],
            )

    def forget_files(self, paths: Iterable[str]) -> None:
        """Forget indexed files and which documents they held (their chunks go separately)."""
        gone = [(path,) for path in paths]
        with self._lock, self._db:
            self._db.executemany("DELETE FROM documents WHERE file = ?", gone)
            self._db.executemany("DELETE FROM files WHERE path = ?", gone)

    def documents(self) -> list[tuple[str, str, int, str | None]]:
        """``(document ID, title, chunks, file name or None)`` of every document, by ID."""
        sql = """
            SELECT c.document_id, json_extract(min(c.metadata), '$.title'), COUNT(*), f.name
            FROM chunks c LEFT JOIN documents d ON d.id = c.document_id
            LEFT JOIN files f ON f.path = d.file
            GROUP BY c.document_id ORDER BY c.document_id"""
        with self._lock:
            return [(r[0], r[1] or "", r[2], r[3]) for r in self._db.execute(sql)]

    def chunk_ids(self) -> set[str]:
        """The ID of every stored chunk."""
        with self._lock:
            return {row[0] for row in self._db.execute("SELECT id FROM chunks")}

    def rows(self, chunk_ids: Sequence[str]) -> list[StoredChunk]:
        """Whole stored chunks (vector copies included), to write them to Chroma again."""
        ids = list(chunk_ids)
        found: list[StoredChunk] = []
        for start in range(0, len(ids), 500):
            part = ids[start : start + 500]
            marks = ",".join("?" * len(part))  # placeholders only; the IDs are bound
            sql = (
                "SELECT id, document_id, terms, text, metadata, vector FROM chunks "
                f"WHERE id IN ({marks}) ORDER BY id"
            )
            with self._lock:
                rows = self._db.execute(sql, part).fetchall()
            found += [
                StoredChunk(r[0], r[1], json.loads(r[2]), r[3], json.loads(r[4]), r[5])
                for r in rows
            ]
        return found

    def record_build(self, marker: Mapping[str, Any]) -> None:
        """Keep a copy of the collection's build marker (see ``kb.store.build_marker``)."""
        with self._lock, self._db:
            self._db.execute(
                "INSERT OR REPLACE INTO state VALUES (?, ?)", (_BUILD, json.dumps(dict(marker)))
            )

    def forget_build(self) -> None:
        """Drop the copy of the build marker: the collection is being dropped."""
        with self._lock, self._db:
            self._db.execute("DELETE FROM state WHERE key = ?", (_BUILD,))

    def writing(self) -> bool:
        """Whether a write was begun and never finished (its writer was killed)."""
        with self._lock:
            row = self._db.execute("SELECT value FROM state WHERE key = 'writing'").fetchone()
        return row is not None

    def mark_writing(self, writing: bool) -> None:
        """Set or clear the write-in-progress marker."""
        with self._lock, self._db:
            if writing:
                self._db.execute(
                    "INSERT OR REPLACE INTO state VALUES ('writing', ?)", (time.time(),)
                )
            else:
                self._db.execute("DELETE FROM state WHERE key = 'writing'")
