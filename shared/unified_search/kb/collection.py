"""One knowledge-base collection: Chroma vectors plus the side store, searched hybrid.

Everything here blocks (Chroma, SQLite, numpy); the handler calls it from
worker threads. The lexical index is rebuilt in memory from the side store
when the store changed since the last search. Chroma is opened on first need:
a search of a small collection without a filter reads the side store alone.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from unified_search.config.kb import HybridConfig
from unified_search.errors import ErrorCode, SearchError
from unified_search.fusion import Ranking
from unified_search.kb.fusion import fuse
from unified_search.kb.lexical import LexicalIndex, top_k
from unified_search.kb.sidestore import SideStore, StoredChunk
from unified_search.kb.store import PROVIDER, similarity

Where = dict[str, Any]
Vector = Sequence[float] | npt.NDArray[np.float32]


@dataclass(frozen=True)
class Hit:
    """A chunk found by a search, with the evidence behind its score."""

    id: str
    collection: str
    score: float
    """Fused relevance in 0..1 (convex fusion) or the fusion's own scale (rrf)."""
    text: str
    metadata: dict[str, Any]
    similarity: float | None = None
    """Cosine similarity in 0..1 when the dense search saw the chunk."""
    lexical: float | None = None
    """BM25 score when the lexical search matched the chunk."""
    extra: dict[str, Any] = field(default_factory=dict)


class KBCollection:
    """A Chroma collection with its lexical index and graph beside it.

    ``open_chroma`` returns the Chroma collection; it is called once, when something
    first needs Chroma (a write, a filter, a collection past ``exact_limit``).

    Example:
        Not run here: it needs an open Chroma collection.

        >>> coll = KBCollection("docs", lambda: chroma_collection, SideStore(path))  # doctest: +SKIP
        >>> coll.dense([0.1, ...], 10, None, HybridConfig())  # doctest: +SKIP
    """

    def __init__(self, name: str, open_chroma: Callable[[], Any], side: SideStore) -> None:
        self.name = name
        self.side = side
        self._open_chroma = open_chroma
        self._chroma: Any = None
        self._chroma_lock = threading.Lock()
        self._local: LocalIndex | None = None
        self._mark: tuple[int, int] | None = None
        self._lock = threading.Lock()

    @property
    def chroma(self) -> Any:
        """The Chroma collection, opened on first use."""
        with self._chroma_lock:
            if self._chroma is None:
                self._chroma = self._open_chroma()
            return self._chroma

    # -- writing --------------------------------------------------------------------------

    def upsert(self, rows: Sequence[StoredChunk], vectors: Sequence[Sequence[float]]) -> None:
        """Write chunks to Chroma, then to the side store (so a failed write leaves no half row).

        Chroma's ``add`` is enough (and faster than its upsert): chunk IDs derive from
        content, so an ID Chroma holds already holds exactly these values. Chroma gets no
        document text: hits are read from the side store, and Chroma's full-text index of
        the text took more than half of its write time.
        """
        if not rows:
            return
        self.add_vectors([r.id for r in rows], [r.metadata for r in rows], vectors)
        self.side.add_chunks(rows)

    def add_vectors(
        self,
        ids: Sequence[str],
        metadatas: Sequence[dict[str, Any]],
        vectors: Sequence[Sequence[float]],
    ) -> None:
        """Write vectors and their filterable metadata to Chroma (the first half of ``upsert``)."""
        self.chroma.add(
            ids=list(ids),
            embeddings=np.asarray(vectors, dtype=np.float32),
            metadatas=[_chroma_metadata(m) for m in metadatas],
        )

    def delete(self, chunk_ids: Sequence[str]) -> None:
        """Remove chunks from Chroma and from the side store."""
        if chunk_ids:
            self.chroma.delete(ids=list(chunk_ids))
            self.side.delete_chunks(chunk_ids)

    # -- reading --------------------------------------------------------------------------

    def local(self, config: HybridConfig) -> LocalIndex:
        """BM25 and vector copies of every chunk, rebuilt when the store or BM25's settings changed."""
        with self._lock:
            changed, mark = self.side.changed_since(self._mark)
            if changed or self._local is None or self._local.params != _bm25(config):
                self._local = LocalIndex.build(self.side.index_rows(), config)
                self._mark = mark
            return self._local

    def dense(self, vector: Vector, k: int, where: Where | None, config: HybridConfig) -> Ranking:
        """Nearest chunks by cosine similarity (0..1), best first.

        Up to ``exact_limit`` chunks and without a filter, the in-memory vector copy is
        scanned exactly: one matrix product, faster than a Chroma round trip and free of
        approximation. Larger or filtered searches go to Chroma's HNSW index.
        """
        local = self.local(config)
        n = min(k, len(local.rows))
        if n == 0:
            raise SearchError(
                ErrorCode.INVALID_QUERY,
                f"collection {self.name!r} is empty; index documents first",
                provider=PROVIDER,
            )
        if where is None and len(local.rows) <= config.exact_limit:
            sims = np.clip(cosines(local.vectors, vector), 0.0, 1.0)
            ids, scores = top_k(local.lexical.ids, sims, n, keep_zero=True)
            return Ranking(ids, scores)
        found = self.chroma.query(
            query_embeddings=np.asarray(vector, dtype=np.float32).reshape(1, -1),
            n_results=n,
            where=where,
            include=["distances"],
        )
        ids, sims_ = found["ids"][0], [similarity(d) for d in found["distances"][0]]
        order = sorted(range(len(ids)), key=lambda i: (-sims_[i], ids[i]))
        return Ranking([ids[i] for i in order], [sims_[i] for i in order])

    def lexical(self, terms: list[str], config: HybridConfig, where: Where | None) -> Lexical:
        """BM25 scores of every chunk and the best ``candidates`` (filtered by ``where``)."""
        local = self.local(config)
        scores = local.lexical.query(
            terms,
            prf_docs=config.prf_docs,
            prf_terms=config.prf_terms,
            prf_weight=config.prf_weight,
        )
        ids, top = top_k(local.lexical.ids, scores, config.candidates)
        if where and ids:
            allowed = set(self.chroma.get(ids=ids, where=where, include=[])["ids"])
            kept = [i for i, id_ in enumerate(ids) if id_ in allowed]
            ids, top = [ids[i] for i in kept], [top[i] for i in kept]
        return Lexical(Ranking(ids, top), scores, local)

    def feedback(
        self,
        dense: Ranking,
        lexical: Lexical,
        vector: Vector,
        config: HybridConfig,
        where: Where | None,
    ) -> tuple[Ranking, npt.NDArray[np.float32]]:
        """The dense ranking again for the query vector moved toward its first top chunks.

        Rocchio's pseudo-relevance feedback on the dense side: the mean vector of the
        ``feedback_docs`` best chunks of a first fusion, weighted ``feedback_weight``, is
        added to the unit query vector. A short query gains the vocabulary of the
        passages that answer it. Returns the new ranking and the moved vector.
        """
        query = unit(vector)
        if not config.feedback_docs or config.fusion == "lexical":
            return dense, query
        both = lexical.complete(dense, query)
        top = [id_ for id_, _ in fuse(both.dense, both.lexical, config)[: config.feedback_docs]]
        rows = [lexical.local.rows[i] for i in top if i in lexical.local.rows]
        if not rows:
            return dense, query
        moved = unit(query + config.feedback_weight * lexical.local.vectors[rows].mean(axis=0))
        return self.dense(moved, config.candidates, where, config), moved

    def hits(
        self,
        dense: Ranking,
        lexical: Lexical,
        vector: Vector,
        config: HybridConfig,
        limit: int,
        threshold: float,
        query: Vector | None = None,
    ) -> list[Hit]:
        """Fuse both rankings over their union and keep ``limit`` chunks that pass ``threshold``.

        Every candidate gets both scores: a chunk only Chroma found gets its BM25 score
        (0 without shared terms), a chunk only BM25 found gets its cosine similarity from
        the side store's vector copy. The threshold bounds cosine similarity to ``query``
        (the query's own vector when ``vector`` was moved by feedback); a chunk sharing
        terms with the query is kept even below it, as lexical evidence.
        """
        both = lexical.complete(dense, vector)
        sims = dict(zip(both.dense.ids, both.dense.scores, strict=True))
        if query is not None:
            sims = lexical.similarities(list(sims), query)
        lex = {i: s for i, s in zip(both.lexical.ids, both.lexical.scores, strict=True) if s > 0}
        fused = [
            (id_, score)
            for id_, score in fuse(both.dense, both.lexical, config)
            if id_ in lex or sims.get(id_, 0.0) >= threshold
        ][:limit]
        stored = self.side.fetch([id_ for id_, _ in fused])
        return [
            Hit(id_, self.name, score, *stored[id_], similarity=sims.get(id_), lexical=lex.get(id_))
            for id_, score in fused
            if id_ in stored
        ]


@dataclass(frozen=True)
class LocalIndex:
    """The in-memory side of a collection: BM25 and the vector copies, rows aligned."""

    lexical: LexicalIndex
    vectors: npt.NDArray[np.float32]
    rows: dict[str, int]
    params: tuple[float, float]
    """BM25's ``k1`` and ``b`` as the lexical index was built with them."""

    @classmethod
    def build(cls, rows: list[tuple[str, list[str], bytes]], config: HybridConfig) -> LocalIndex:
        """Index ``(chunk_id, terms, vector bytes)`` rows."""
        ids = [r[0] for r in rows]
        lexical = LexicalIndex(ids, [r[1] for r in rows], k1=config.bm25_k1, b=config.bm25_b)
        vectors = np.zeros((0, 0), np.float32)
        if rows:
            vectors = np.stack([np.frombuffer(r[2], dtype=np.float32) for r in rows])
            vectors /= np.clip(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12, None)
        return cls(lexical, vectors, {id_: i for i, id_ in enumerate(ids)}, _bm25(config))


@dataclass(frozen=True)
class Pair:
    """The dense and the lexical ranking of the same candidates."""

    dense: Ranking
    lexical: Ranking


@dataclass(frozen=True)
class Lexical:
    """One lexical search: its top candidates, and the scores of every chunk."""

    ranking: Ranking
    scores: npt.NDArray[np.float32]
    local: LocalIndex

    def complete(self, dense: Ranking, vector: Vector) -> Pair:
        """Both rankings over the union of their candidates, each sorted by its own score."""
        sims = dict(zip(dense.ids, dense.scores, strict=True))
        missing = [i for i in self.ranking.ids if i not in sims]
        sims.update(self.similarities(missing, vector))
        rows = self.local.rows
        lex = {i: float(self.scores[rows[i]]) if i in rows else 0.0 for i in sims}
        return Pair(_ranking(sims), _ranking(lex))

    def similarities(self, ids: Sequence[str], vector: Vector) -> dict[str, float]:
        """Cosine similarity (0..1) of ``vector`` to each of ``ids`` held in memory."""
        rows = self.local.rows
        held = [i for i in ids if i in rows]
        if not held:
            return {}
        found = cosines(self.local.vectors[[rows[i] for i in held]], vector)
        return {i: float(min(1.0, max(0.0, s))) for i, s in zip(held, found, strict=True)}


def unit(vector: Vector) -> npt.NDArray[np.float32]:
    """``vector`` scaled to length 1, so dot products are cosine similarities."""
    array = np.asarray(vector, dtype=np.float32)
    return array / max(float(np.linalg.norm(array)), 1e-12)


def cosines(vectors: npt.NDArray[np.float32], vector: Vector) -> npt.NDArray[np.float32]:
    """Cosine similarity of unit-length ``vectors`` rows to ``vector``.

    ``einsum`` runs one plain loop; a BLAS matrix-vector product starts its thread pool
    for a product this small and was 2-5x slower when the cores were busy.
    """
    found: npt.NDArray[np.float32] = np.einsum("ij,j->i", vectors, unit(vector))
    return found


def _bm25(config: HybridConfig) -> tuple[float, float]:
    return config.bm25_k1, config.bm25_b


def _ranking(scores: dict[str, float]) -> Ranking:
    order = sorted(scores, key=lambda i: (-scores[i], i))
    return Ranking(order, [scores[i] for i in order])


def _chroma_metadata(metadata: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in metadata.items() if isinstance(v, str | int | float | bool)}
