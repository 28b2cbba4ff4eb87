"""One knowledge-base collection: Chroma vectors plus the side store, searched hybrid.

Everything here blocks (Chroma, the side store, numpy); the handler calls it
from worker threads. The lexical index is saved once per change of the
collection and memory-mapped by every search (see ``kb.saved``). Vectors live
in Chroma alone: a collection up to ``exact_limit`` chunks is searched exactly
over its vectors, read from Chroma once per change; a larger one through
Chroma's HNSW index, with the vectors of the chunks only BM25 found asked of
Chroma by ID.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from unified_search.config.kb import HybridConfig
from unified_search.errors import ErrorCode, SearchError
from unified_search.fusion import Ranking
from unified_search.kb.fusion import fuse
from unified_search.kb.lexical import LexicalIndex, top_k
from unified_search.kb.saved import index_key, open_index, save_index
from unified_search.kb.sidestore import SideStore, StoredChunk
from unified_search.kb.store import PROVIDER, similarity

Where = dict[str, Any]
#: Vectors read from Chroma per page when a small collection's are loaded.
PAGE = 5000
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
    first needs Chroma. ``folder`` holds the saved lexical indexes (a cache in a shared
    deployment); ``hybrid`` gives the BM25 parameters the writer saves the index with;
    ``embed`` embeds chunk texts again when ``kb check --repair`` finds rows without
    vectors; ``write_wait`` bounds the wait for another writer's lock.

    Example:
        Not run here: it needs an open Chroma collection.

        >>> coll = KBCollection("docs", lambda: chroma_collection, side, folder)  # doctest: +SKIP
        >>> coll.dense([0.1, ...], 10, None, HybridConfig())  # doctest: +SKIP
    """

    def __init__(
        self,
        name: str,
        open_chroma: Callable[[], Any],
        side: SideStore,
        folder: Path,
        *,
        hybrid: HybridConfig | None = None,
        embed: Callable[[list[str]], Sequence[Sequence[float]]] | None = None,
        write_wait: float = 60.0,
    ) -> None:
        self.name = name
        self.side = side
        self.folder = folder
        self.hybrid = hybrid or HybridConfig()
        self.embed = embed
        self.write_wait = write_wait
        """Seconds a write waits for another process's write to this collection."""
        self._open_chroma = open_chroma
        self._chroma: Any = None
        self._chroma_lock = threading.Lock()
        self._local: LocalIndex | None = None
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

    def save_lexical(self) -> None:
        """Save the lexical index of the current generation (the end of every write).

        In a shared deployment its files go to the database too, for the other machines.
        """
        key = index_key(self.side.generation(), self.hybrid)
        with self._lock:
            if not (self._local is not None and self._local.key == key):
                save_index(self.side, self.folder, key, share=self.side.shared)
                self._local = None

    # -- reading --------------------------------------------------------------------------

    def local(self, config: HybridConfig) -> LocalIndex:
        """The lexical index of the current generation (one query tells whether it changed)."""
        key = index_key(self.side.generation(), config)
        with self._lock:
            if self._local is None or self._local.key != key:
                self._local = LocalIndex(key, open_index(self.side, self.folder, key), self)
            return self._local

    def dense(
        self,
        vector: Vector,
        k: int,
        where: Where | None,
        config: HybridConfig,
        local: LocalIndex | None = None,
    ) -> Ranking:
        """Nearest chunks by cosine similarity (0..1), best first.

        ``local`` is the generation a search's lexical side read (so both sides see the
        same one, for one look at the store); by default the current one.

        Up to ``exact_limit`` chunks and without a filter, the collection's vectors are
        scanned exactly: one matrix product, faster than a Chroma round trip and free of
        approximation. Larger or filtered searches go to Chroma's HNSW index.
        """
        local = local or self.local(config)
        n = min(k, len(local.lexical))
        if n == 0:
            raise SearchError(
                ErrorCode.INVALID_QUERY,
                f"collection {self.name!r} is empty; index documents first",
                provider=PROVIDER,
            )
        if where is None and local.small(config):
            sims = np.clip(cosines(local.matrix(), vector), 0.0, 1.0)
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
        fetch = local.from_matrix if local.small(config) else self.vectors
        return Lexical(Ranking(ids, top), scores, local, VectorCache(fetch))

    def vectors(self, ids: Sequence[str]) -> dict[str, npt.NDArray[np.float32]]:
        """Unit vectors of ``ids`` as Chroma holds them (chunks it lacks are left out)."""
        if not ids:
            return {}
        found = self.chroma.get(ids=list(ids), include=["embeddings"])
        return dict(zip(found["ids"], units(found["embeddings"]), strict=True))

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
        # The vectors asked for here, in one call: the lexical candidates' (for the similarity
        # of those dense missed) and the best dense ones' (the fused best are almost always
        # among them).
        lexical.vectors([*lexical.ranking.ids, *dense.ids[: config.feedback_docs]])
        both = lexical.complete(dense, query)
        lexical.query_similarities = dict(zip(both.dense.ids, both.dense.scores, strict=True))
        top = [id_ for id_, _ in fuse(both.dense, both.lexical, config)[: config.feedback_docs]]
        held = lexical.vectors(top)
        found = [held[i] for i in top if i in held]
        if not found:
            return dense, query
        moved = unit(query + config.feedback_weight * np.mean(found, axis=0))
        return self.dense(moved, config.candidates, where, config, lexical.local), moved

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
        its vector. The threshold bounds cosine similarity to ``query``
        (the query's own vector when ``vector`` was moved by feedback); a chunk sharing
        terms with the query is kept even below it, as lexical evidence.
        """
        known = lexical.query_similarities if query is not None else {}
        if query is not None:  # the vectors still needed, asked of Chroma at once
            lexical.vectors([*(i for i in dense.ids if i not in known), *lexical.missing(dense)])
        both = lexical.complete(dense, vector)
        sims = dict(zip(both.dense.ids, both.dense.scores, strict=True))
        if query is not None:
            unknown = [i for i in sims if i not in known]
            sims = {i: known[i] for i in sims if i in known} | lexical.similarities(unknown, query)
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


class LocalIndex:
    """A generation's lexical index, and (for a small collection) its vectors, rows aligned."""

    def __init__(self, key: str, lexical: LexicalIndex, coll: KBCollection) -> None:
        self.key = key
        """Generation and BM25 parameters the lexical index was built from."""
        self.lexical = lexical
        self._coll = coll
        self._matrix: npt.NDArray[np.float32] | None = None
        self._lock = threading.Lock()

    def small(self, config: HybridConfig) -> bool:
        """Whether the collection is searched exactly over its vectors held here."""
        return len(self.lexical) <= config.exact_limit

    def matrix(self) -> npt.NDArray[np.float32]:
        """Unit vectors by row, read from Chroma on first use (a page at a time)."""
        with self._lock:
            if self._matrix is None:
                ids = self.lexical.ids
                matrix = np.zeros((len(ids), 0), np.float32)
                offset = 0
                while True:
                    page = self._coll.chroma.get(include=["embeddings"], limit=PAGE, offset=offset)
                    vectors = units(page["embeddings"])
                    if matrix.shape[1] == 0 and len(vectors):
                        matrix = np.zeros((len(ids), vectors.shape[1]), np.float32)
                    for row, vector in zip(ids.rows(page["ids"]), vectors, strict=True):
                        if row is not None:
                            matrix[row] = vector
                    if len(page["ids"]) < PAGE:
                        break
                    offset += PAGE
                self._matrix = matrix
            return self._matrix

    def from_matrix(self, ids: Sequence[str]) -> dict[str, npt.NDArray[np.float32]]:
        """Unit vectors of ``ids`` held here."""
        matrix = self.matrix()
        rows = zip(ids, self.lexical.ids.rows(ids), strict=True)
        return {i: matrix[r] for i, r in rows if r is not None and matrix.shape[1]}


class VectorCache:
    """Vectors of chunks asked for once per search, whoever asks again."""

    def __init__(
        self, fetch: Callable[[Sequence[str]], dict[str, npt.NDArray[np.float32]]]
    ) -> None:
        self._fetch = fetch
        self._held: dict[str, npt.NDArray[np.float32]] = {}

    def __call__(self, ids: Sequence[str]) -> dict[str, npt.NDArray[np.float32]]:
        """Unit vectors of those of ``ids`` that Chroma holds."""
        missing = [i for i in dict.fromkeys(ids) if i not in self._held]
        if missing:
            self._held.update(self._fetch(missing))
        return {i: self._held[i] for i in ids if i in self._held}


@dataclass(frozen=True)
class Pair:
    """The dense and the lexical ranking of the same candidates."""

    dense: Ranking
    lexical: Ranking


@dataclass
class Lexical:
    """One lexical search: its top candidates, the scores of every chunk, and their vectors."""

    ranking: Ranking
    scores: npt.NDArray[np.float32]
    local: LocalIndex
    vectors: VectorCache
    query_similarities: dict[str, float] = field(default_factory=dict)
    """Similarity to the query's own vector of the candidates a first fusion saw (feedback
    moves the vector the second dense search uses)."""

    def missing(self, dense: Ranking) -> list[str]:
        """The lexical candidates ``dense`` did not find."""
        found = set(dense.ids)
        return [i for i in self.ranking.ids if i not in found]

    def complete(self, dense: Ranking, vector: Vector) -> Pair:
        """Both rankings over the union of their candidates, each sorted by its own score."""
        sims = dict(zip(dense.ids, dense.scores, strict=True))
        sims.update(self.similarities(self.missing(dense), vector))
        rows = self.local.lexical.ids.rows(list(sims))
        lex = {
            i: 0.0 if r is None else float(self.scores[r]) for i, r in zip(sims, rows, strict=True)
        }
        return Pair(_ranking(sims), _ranking(lex))

    def similarities(self, ids: Sequence[str], vector: Vector) -> dict[str, float]:
        """Cosine similarity (0..1) of ``vector`` to each of ``ids`` whose vector is known."""
        held = self.vectors(ids)
        if not held:
            return {}
        found = cosines(np.stack(list(held.values())), vector)
        return {i: float(min(1.0, max(0.0, s))) for i, s in zip(held, found, strict=True)}


def unit(vector: Vector) -> npt.NDArray[np.float32]:
    """``vector`` scaled to length 1, so dot products are cosine similarities."""
    array = np.asarray(vector, dtype=np.float32)
    return array / max(float(np.linalg.norm(array)), 1e-12)


def units(vectors: Any) -> npt.NDArray[np.float32]:
    """Rows of ``vectors`` scaled to length 1, at once."""
    array = np.asarray(vectors, dtype=np.float32)
    if array.ndim != 2:
        return array.reshape(0, 0)
    scaled: npt.NDArray[np.float32] = array / np.clip(
        np.linalg.norm(array, axis=1, keepdims=True), 1e-12, None
    )
    return scaled


def cosines(vectors: npt.NDArray[np.float32], vector: Vector) -> npt.NDArray[np.float32]:
    """Cosine similarity of unit-length ``vectors`` rows to ``vector``.

    ``einsum`` runs one plain loop; a BLAS matrix-vector product starts its thread pool
    for a product this small and was 2-5x slower when the cores were busy.
    """
    found: npt.NDArray[np.float32] = np.einsum("ij,j->i", vectors, unit(vector))
    return found


def _ranking(scores: dict[str, float]) -> Ranking:
    order = sorted(scores, key=lambda i: (-scores[i], i))
    return Ranking(order, [scores[i] for i in order])


def _chroma_metadata(metadata: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in metadata.items() if isinstance(v, str | int | float | bool)}
