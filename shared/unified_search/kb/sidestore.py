"""What a collection keeps beside its vectors: chunk rows, terms, the entity graph, the registry.

One set of tables per collection, in a SQLite file of its own (embedded, the default)
or in PostgreSQL (``kb.store_url``, shared by every machine), written with the same
SQLAlchemy Core statements: values are always bound as parameters.

``chunks`` lists every indexed chunk with its document, its analysed terms (what the
BM25 index is built from), its text and metadata: a search reads its hits here
instead of asking Chroma again. It is also the registry that tells ingestion which
chunks exist already, so unchanged chunks are never embedded twice. ``mentions``
(which also tells which entities co-occur) and ``relations`` (typed ones an
extractor names) hold the graph. ``files`` and ``documents`` map indexed files (by
resolved path) to their public names, content hashes and documents, so re-indexing
a folder mirrors it. ``state`` keeps the generation (bumped in the transaction of
every change of the chunks, so a saved lexical index knows whether it is current),
a write in progress (found set, the last writer was killed and the collection is
checked before anything else is written) and a copy of the build marker Chroma
records on the collection (embedding model, index format), so a search checks the
model without opening Chroma. ``index_files`` holds the saved lexical index of a
server deployment, which every machine loads from there.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Column,
    Connection,
    Engine,
    Float,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    bindparam,
    cast,
    create_engine,
    delete,
    event,
    func,
    literal,
    or_,
    select,
    union_all,
    update,
)
from sqlalchemy import exc as sa_exc
from sqlalchemy.dialects import postgresql, sqlite

from unified_search.kb.graph import CO_OCCURS, Extraction

#: The ``state`` key of the build marker's copy.
_BUILD = "built_with"
_GENERATION = "generation"
_WRITING = "writing"
#: Values bound per ``IN (...)`` list.
_BATCH = 500
#: Bytes per row of a saved index file (PostgreSQL).
_PART = 8 * 1024 * 1024


def recorded_build(path: Path) -> dict[str, Any] | None:
    """The build marker kept in the side-store file at ``path``; ``None`` without file or marker.

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


class _Tables:
    """The tables of one collection; ``prefix`` tells collections apart in a shared database."""

    def __init__(self, prefix: str) -> None:
        self.meta = MetaData()
        m, p = self.meta, prefix
        self.chunks = Table(
            f"{p}chunks",
            m,
            Column("id", String, primary_key=True),
            Column("document_id", String, nullable=False),
            Column("terms", Text, nullable=False),
            Column("text", Text, nullable=False),
            Column("metadata", Text, nullable=False),
        )
        Index(f"{p}chunks_document", self.chunks.c.document_id)
        self.entities = Table(
            f"{p}entities",
            m,
            Column("key", String, primary_key=True),
            Column("name", String, nullable=False),
            Column("type", String, nullable=False),
        )
        self.mentions = Table(
            f"{p}mentions",
            m,
            Column("entity", String, primary_key=True),
            Column("chunk_id", String, primary_key=True),
        )
        Index(f"{p}mentions_chunk", self.mentions.c.chunk_id)
        self.relations = Table(
            f"{p}relations",
            m,
            Column("source", String, primary_key=True),
            Column("target", String, primary_key=True),
            Column("type", String, primary_key=True),
            Column("chunk_id", String, primary_key=True),
        )
        Index(f"{p}relations_chunk", self.relations.c.chunk_id)
        Index(f"{p}relations_target", self.relations.c.target)
        self.files = Table(
            f"{p}files",
            m,
            Column("path", String, primary_key=True),
            Column("name", String, nullable=False, unique=True),
            Column("digest", String, nullable=False),
            Column("indexed_at", Float, nullable=False),
        )
        self.documents = Table(
            f"{p}documents",
            m,
            Column("id", String, primary_key=True),
            Column("file", String, nullable=False),
        )
        Index(f"{p}documents_file", self.documents.c.file)
        self.state = Table(
            f"{p}state",
            m,
            Column("key", String, primary_key=True),
            Column("value", Text, nullable=False),
        )
        self.index_files = Table(
            f"{p}index_files",
            m,
            Column("key", String, primary_key=True),
            Column("name", String, primary_key=True),
            Column("part", Integer, primary_key=True),
            Column("data", LargeBinary, nullable=False),
        )

    def copied(self) -> dict[str, Table]:
        """The tables a copy of the collection carries besides its chunks."""
        return {
            "entities": self.entities,
            "mentions": self.mentions,
            "relations": self.relations,
            "files": self.files,
            "documents": self.documents,
        }


def table_prefix(collection: str) -> str:
    """The table-name prefix of ``collection`` in a shared database (within 63-byte names)."""
    return f"kb_{hashlib.sha256(collection.encode()).hexdigest()[:16]}_"


def sqlite_engine(path: Path) -> Engine:
    """An engine on the side-store file at ``path``: WAL, commits not waiting for the disk.

    A killed process loses nothing; a power cut may lose the last batches, which
    ``kb check`` finds in Chroma alone and repairs.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(f"sqlite:///{path}", connect_args={"check_same_thread": False})

    @event.listens_for(engine, "connect")
    def _tune(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA busy_timeout = 30000")
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute("PRAGMA synchronous = NORMAL")
        cursor.close()

    return engine


class SideStore:
    """The rows one collection keeps beside its vectors.

    Example:
        >>> import tempfile
        >>> store = SideStore.local(Path(tempfile.mkdtemp()) / "docs.sqlite")
        >>> store.add_chunks([StoredChunk("c1", "doc1", ["vector"], "Vectors.", {})])
        >>> store.fetch(["c1"])
        {'c1': ('Vectors.', {})}
    """

    def __init__(
        self, engine: Engine, prefix: str = "", *, path: Path | None = None, owned: bool = True
    ) -> None:
        self.engine = engine
        self.path = path
        """The SQLite file (embedded), ``None`` in a database server."""
        self._owned = owned
        self._t = _Tables(prefix)
        self._insert = postgresql.insert if engine.dialect.name == "postgresql" else sqlite.insert
        self._create()

    def _create(self) -> None:
        """Create the tables that are missing (and drop an earlier version's vector copies).

        Two processes opening a new collection at once may both find a table missing; the
        one that loses the race to create it finds it there on its second look.
        """
        for attempt in range(3):
            try:
                with self.engine.begin() as conn:
                    self._t.meta.create_all(conn)
                    _drop_vector_copies(conn)
                return
            except (sa_exc.IntegrityError, sa_exc.ProgrammingError, sa_exc.OperationalError):
                if attempt == 2:
                    raise

    @classmethod
    def local(cls, path: Path) -> SideStore:
        """The side store in its own SQLite file (embedded mode)."""
        return cls(sqlite_engine(path), path=path)

    @property
    def shared(self) -> bool:
        """Whether the rows live in a database server that other machines use too."""
        return self.path is None

    def close(self) -> None:
        """Release the connections (a shared engine stays open for its owner)."""
        if self._owned:
            self.engine.dispose()

    # -- chunks -----------------------------------------------------------------------------

    def generation(self) -> int:
        """How many times the chunks changed: a saved lexical index of another is stale."""
        with self.engine.connect() as conn:
            value = conn.scalar(select(self._t.state.c.value).where(self._key(_GENERATION)))
        return int(value or 0)

    def document_chunks(self, document_ids: Iterable[str]) -> dict[str, set[str]]:
        """Chunk IDs stored for each of ``document_ids``."""
        c = self._t.chunks
        found: dict[str, set[str]] = {doc: set() for doc in document_ids}
        for cid, doc in self._in(select(c.c.id, c.c.document_id), c.c.document_id, found):
            found[doc].add(cid)
        return found

    def index_rows(self) -> list[tuple[str, list[str]]]:
        """``(chunk_id, terms)`` of every chunk, ordered by ID (code points, as Python sorts)."""
        c = self._t.chunks
        with self.engine.connect() as conn:
            rows = [(r[0], json.loads(r[1])) for r in conn.execute(select(c.c.id, c.c.terms))]
        return sorted(rows)

    def terms(self, chunk_ids: Sequence[str]) -> dict[str, list[str]]:
        """``chunk_id -> terms`` of the stored chunks among ``chunk_ids``."""
        c = self._t.chunks
        return {
            r[0]: json.loads(r[1]) for r in self._in(select(c.c.id, c.c.terms), c.c.id, chunk_ids)
        }

    def add_chunks(
        self, rows: Sequence[StoredChunk], graphs: Sequence[tuple[str, Extraction]] = ()
    ) -> None:
        """Store chunks, replacing same IDs, and the extractions of chunks, in one transaction."""
        c = self._t.chunks
        values = [
            {
                "id": r.id,
                "document_id": r.document_id,
                "terms": json.dumps(r.terms),
                "text": r.text,
                "metadata": json.dumps(r.metadata),
            }
            for r in rows
        ]
        with self.engine.begin() as conn:
            self._insert_graphs(conn, graphs)
            if values:
                upsert = self._insert(c)
                conn.execute(
                    upsert.on_conflict_do_update(
                        index_elements=[c.c.id],
                        set_={
                            k: upsert.excluded[k]
                            for k in ("document_id", "terms", "text", "metadata")
                        },
                    ),
                    values,
                )
            self._bump(conn)

    def fetch(self, chunk_ids: Sequence[str]) -> dict[str, tuple[str, dict[str, Any]]]:
        """``chunk_id -> (text, metadata)`` of the stored chunks among ``chunk_ids``."""
        c = self._t.chunks
        query = select(c.c.id, c.c.text, c.c.metadata)
        return {r[0]: (r[1], json.loads(r[2])) for r in self._in(query, c.c.id, chunk_ids)}

    def delete_chunks(self, chunk_ids: Iterable[str]) -> None:
        """Forget chunks and what the graph learnt from them."""
        t = self._t
        ids = [{"cid": cid} for cid in chunk_ids]
        with self.engine.begin() as conn:
            if ids:
                for table in (t.chunks, t.mentions, t.relations):
                    column = table.c.id if table is t.chunks else table.c.chunk_id
                    conn.execute(delete(table).where(column == bindparam("cid")), ids)
                used = select(t.mentions.c.entity)
                conn.execute(delete(t.entities).where(t.entities.c.key.not_in(used)))
            self._bump(conn)

    def chunk_ids(self) -> set[str]:
        """The ID of every stored chunk."""
        with self.engine.connect() as conn:
            return set(conn.scalars(select(self._t.chunks.c.id)))

    def rows(self, chunk_ids: Sequence[str]) -> list[StoredChunk]:
        """Whole stored chunks, to write them to Chroma again."""
        c = self._t.chunks
        query = select(c.c.id, c.c.document_id, c.c.terms, c.c.text, c.c.metadata)
        found = [
            StoredChunk(r[0], r[1], json.loads(r[2]), r[3], json.loads(r[4]))
            for r in self._in(query, c.c.id, chunk_ids)
        ]
        return sorted(found, key=lambda r: r.id)

    def documents(self) -> list[tuple[str, str, int, str | None]]:
        """``(document ID, title, chunks, file name or None)`` of every document, by ID."""
        t = self._t
        query = (
            select(
                t.chunks.c.document_id, func.min(t.chunks.c.metadata), func.count(), t.files.c.name
            )
            .select_from(
                t.chunks.outerjoin(
                    t.documents, t.documents.c.id == t.chunks.c.document_id
                ).outerjoin(t.files, t.files.c.path == t.documents.c.file)
            )
            .group_by(t.chunks.c.document_id, t.files.c.name)
            .order_by(t.chunks.c.document_id)
        )
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        return [(r[0], json.loads(r[1]).get("title") or "", r[2], r[3]) for r in rows]

    # -- the graph --------------------------------------------------------------------------

    def add_graphs(self, items: Sequence[tuple[str, Extraction]]) -> None:
        """Record the extractions of many chunks in one transaction."""
        with self.engine.begin() as conn:
            self._insert_graphs(conn, items)

    def _insert_graphs(self, conn: Connection, items: Sequence[tuple[str, Extraction]]) -> None:
        """Insert extractions (within the caller's transaction).

        Co-occurrence is what ``mentions`` records already (two entities mentioned by one
        chunk), so only relations of another type are stored: writing every co-occurring
        pair took most of the indexing time outside Chroma.
        """
        t = self._t
        entities = {e.name.lower(): (e.name, e.type) for _, x in items for e in x.entities}
        mentions = {(e.name.lower(), cid) for cid, x in items for e in x.entities}
        relations = {
            (r.source.lower(), r.target.lower(), r.type, cid)
            for cid, x in items
            for r in x.relations
            if r.type != CO_OCCURS
        }
        for table, values in (
            (
                t.entities,
                [{"key": k, "name": n, "type": y} for k, (n, y) in sorted(entities.items())],
            ),
            (t.mentions, [{"entity": e, "chunk_id": c} for e, c in sorted(mentions)]),
            (
                t.relations,
                [
                    {"source": s, "target": g, "type": y, "chunk_id": c}
                    for s, g, y, c in sorted(relations)
                ],
            ),
        ):
            if values:
                conn.execute(self._insert(table).on_conflict_do_nothing(), values)

    def known_entities(self, keys: Iterable[str]) -> list[tuple[str, str, str]]:
        """``(key, name, type)`` of the given lower-cased names that the graph holds."""
        e = self._t.entities
        found = self._in(select(e.c.key, e.c.name, e.c.type), e.c.key, sorted(set(keys)))
        return sorted((r[0], r[1], r[2]) for r in found)

    def neighbours(self, key: str, limit: int) -> list[tuple[str, str, str, int]]:
        """``(key, name, type, weight)`` of entities related to ``key``, most related first.

        The weight counts the chunks mentioning both, plus the typed relations between them.
        """
        t = self._t
        m1, m2, r = t.mentions.alias("m1"), t.mentions.alias("m2"), t.relations
        others = union_all(
            select(m2.c.entity.label("other"))
            .join(m1, m2.c.chunk_id == m1.c.chunk_id)
            .where(m1.c.entity == key, m2.c.entity != m1.c.entity),
            select(r.c.target).where(r.c.source == key, r.c.type != CO_OCCURS),
            select(r.c.source).where(r.c.target == key, r.c.type != CO_OCCURS),
        ).subquery()
        e = t.entities
        weight = func.count().label("weight")
        query = (
            select(others.c.other, e.c.name, e.c.type, weight)
            .join(e, e.c.key == others.c.other)
            .group_by(others.c.other, e.c.name, e.c.type)
            .order_by(weight.desc(), others.c.other)
            .limit(limit)
        )
        with self.engine.connect() as conn:
            return [(r[0], r[1], r[2], r[3]) for r in conn.execute(query)]

    def mentioning(self, keys: Sequence[str], limit: int) -> list[tuple[str, int]]:
        """``(chunk_id, matched entities)`` of chunks mentioning most of ``keys``."""
        if not keys:
            return []
        m = self._t.mentions
        n = func.count().label("n")
        query = (
            select(m.c.chunk_id, n)
            .where(m.c.entity.in_(list(keys)))
            .group_by(m.c.chunk_id)
            .order_by(n.desc(), m.c.chunk_id)
            .limit(limit)
        )
        with self.engine.connect() as conn:
            return [(r[0], r[1]) for r in conn.execute(query)]

    # -- files and documents ----------------------------------------------------------------

    def files_under(self, root: str) -> dict[str, tuple[str, str]]:
        """``path -> (name, digest)`` of the indexed files at or under the folder ``root``."""
        return self._files_at(self._t.files.c.path, root)

    def files_named(self, name: str) -> dict[str, tuple[str, str]]:
        """``path -> (name, digest)`` of the files named ``name`` or inside the folder ``name``."""
        return self._files_at(self._t.files.c.name, name)

    def _files_at(self, column: Any, value: str) -> dict[str, tuple[str, str]]:
        """Files whose ``column`` (path or name) is ``value`` or lies under it."""
        f = self._t.files
        under = value.rstrip("/") + "/"
        query = select(f.c.path, f.c.name, f.c.digest).where(
            or_(column == value, func.substr(column, 1, len(under)) == under)
        )
        with self.engine.connect() as conn:
            return {r[0]: (r[1], r[2]) for r in conn.execute(query)}

    def name_owners(self, names: Iterable[str]) -> dict[str, str]:
        """``name -> path`` of the given public names that indexed files already own."""
        f = self._t.files
        return {r[0]: r[1] for r in self._in(select(f.c.name, f.c.path), f.c.name, set(names))}

    def file_documents(self, paths: Iterable[str]) -> dict[str, set[str]]:
        """Document IDs read from each of ``paths``."""
        d = self._t.documents
        found: dict[str, set[str]] = {path: set() for path in paths}
        for doc, path in self._in(select(d.c.id, d.c.file), d.c.file, found):
            found[path].add(doc)
        return found

    def record_files(self, rows: Sequence[tuple[str, str, str, Sequence[str]]]) -> None:
        """Remember ``(path, name, digest, document IDs)`` of files whose chunks are all stored."""
        t = self._t
        now = time.time()
        with self.engine.begin() as conn:
            self._forget(conn, [row[0] for row in rows], files=False)
            files = self._insert(t.files)
            conn.execute(
                files.on_conflict_do_update(
                    index_elements=[t.files.c.path],
                    set_={k: files.excluded[k] for k in ("name", "digest", "indexed_at")},
                ),
                [{"path": p, "name": n, "digest": d, "indexed_at": now} for p, n, d, _ in rows],
            )
            documents = self._insert(t.documents)
            values = [{"id": doc, "file": path} for path, _, _, docs in rows for doc in docs]
            if values:
                conn.execute(
                    documents.on_conflict_do_update(
                        index_elements=[t.documents.c.id], set_={"file": documents.excluded.file}
                    ),
                    values,
                )

    def forget_files(self, paths: Iterable[str]) -> None:
        """Forget indexed files and which documents they held (their chunks go separately)."""
        with self.engine.begin() as conn:
            self._forget(conn, list(paths), files=True)

    def _forget(self, conn: Connection, paths: list[str], *, files: bool) -> None:
        t = self._t
        gone = [{"p": path} for path in paths]
        if gone:
            conn.execute(delete(t.documents).where(t.documents.c.file == bindparam("p")), gone)
            if files:
                conn.execute(delete(t.files).where(t.files.c.path == bindparam("p")), gone)

    # -- state: build marker, write in progress, generation ---------------------------------

    def record_build(self, marker: Mapping[str, Any]) -> None:
        """Keep a copy of the collection's build marker (see ``kb.store.build_marker``)."""
        self._set(_BUILD, json.dumps(dict(marker)))

    def build(self) -> dict[str, Any] | None:
        """The copy of the build marker, ``None`` before one is recorded."""
        value = self._get(_BUILD)
        marker: dict[str, Any] | None = json.loads(value) if value else None
        return marker

    def forget_build(self) -> None:
        """Drop the copy of the build marker: the collection is being dropped."""
        with self.engine.begin() as conn:
            conn.execute(delete(self._t.state).where(self._key(_BUILD)))

    def writing(self) -> bool:
        """Whether a write was begun and never finished (its writer was killed)."""
        return self._get(_WRITING) is not None

    def mark_writing(self, writing: bool) -> None:
        """Set or clear the write-in-progress marker."""
        if writing:
            self._set(_WRITING, str(time.time()))
        else:
            with self.engine.begin() as conn:
                conn.execute(delete(self._t.state).where(self._key(_WRITING)))

    # -- the saved lexical index of a shared deployment --------------------------------------

    def index_files(self, key: str) -> dict[str, bytes] | None:
        """The files of the lexical index saved under ``key``; ``None`` when there is none."""
        x = self._t.index_files
        query = select(x.c.name, x.c.data).where(x.c.key == key).order_by(x.c.name, x.c.part)
        files: dict[str, bytes] = {}
        with self.engine.connect() as conn:
            for name, data in conn.execute(query):
                files[name] = files.get(name, b"") + bytes(data)
        return files or None

    def keep_index_files(self, key: str, files: Mapping[str, bytes]) -> None:
        """Save the lexical index's files under ``key``, in place of every older one."""
        x = self._t.index_files
        with self.engine.begin() as conn:
            conn.execute(delete(x))
            for name, data in files.items():
                for part, start in enumerate(range(0, max(len(data), 1), _PART)):
                    conn.execute(
                        x.insert().values(
                            key=key, name=name, part=part, data=data[start : start + _PART]
                        )
                    )

    def graph_and_files(self) -> dict[str, list[dict[str, Any]]]:
        """Every row of the graph and of the file registry, by table (to copy a collection)."""
        with self.engine.connect() as conn:
            return {
                name: [dict(row) for row in conn.execute(select(table)).mappings()]
                for name, table in self._t.copied().items()
            }

    def add_graph_and_files(self, rows: Mapping[str, Sequence[Mapping[str, Any]]]) -> None:
        """Add rows ``graph_and_files`` gave (those already here are kept), in one transaction."""
        with self.engine.begin() as conn:
            for name, table in self._t.copied().items():
                for start in range(0, len(rows.get(name, ())), _BATCH):
                    part = list(rows[name][start : start + _BATCH])
                    conn.execute(self._insert(table).on_conflict_do_nothing(), part)

    def drop(self) -> None:
        """Delete every table of the collection (a shared database) or its file (embedded)."""
        if self.path is None:
            with self.engine.begin() as conn:
                self._t.meta.drop_all(conn)
        self.close()
        if self.path is not None:
            for suffix in ("", "-wal", "-shm", "-journal"):
                Path(f"{self.path}{suffix}").unlink(missing_ok=True)

    # -- helpers ----------------------------------------------------------------------------

    def _key(self, key: str) -> Any:
        return self._t.state.c.key == key

    def _get(self, key: str) -> str | None:
        with self.engine.connect() as conn:
            value: str | None = conn.scalar(select(self._t.state.c.value).where(self._key(key)))
        return value

    def _set(self, key: str, value: str) -> None:
        s = self._t.state
        upsert = self._insert(s)
        with self.engine.begin() as conn:
            conn.execute(
                upsert.on_conflict_do_update(
                    index_elements=[s.c.key], set_={"value": upsert.excluded.value}
                ),
                {"key": key, "value": value},
            )

    def _bump(self, conn: Connection) -> None:
        """Count one more change of the chunks (within the caller's transaction)."""
        s = self._t.state
        conn.execute(self._insert(s).on_conflict_do_nothing(), {"key": _GENERATION, "value": "0"})
        conn.execute(
            update(s)
            .where(self._key(_GENERATION))
            .values(value=cast(cast(s.c.value, Integer) + literal(1), Text))
        )

    def _in(self, query: Any, column: Any, values: Iterable[str]) -> Iterator[Any]:
        """Rows of ``query`` whose ``column`` is among ``values``, asked a batch at a time."""
        wanted = list(values)
        with self.engine.connect() as conn:
            for start in range(0, len(wanted), _BATCH):
                yield from conn.execute(query.where(column.in_(wanted[start : start + _BATCH])))


def _drop_vector_copies(conn: Connection) -> None:
    """Files of earlier versions kept a copy of every vector: Chroma alone keeps them now."""
    if conn.dialect.name != "sqlite":
        return
    columns = {row[1] for row in conn.exec_driver_sql("PRAGMA table_info(chunks)")}
    if "vector" in columns:
        conn.exec_driver_sql("ALTER TABLE chunks DROP COLUMN vector")
