"""The lexical side of hybrid retrieval: BM25 (bm25s, Lucene variant) over stemmed terms.

Terms are lower-cased words of two or more letters, English stop words removed,
Snowball-stemmed (PyStemmer). The index is built once per change of a collection
and saved; every search process memory-maps the saved arrays. A chunk's title is counted ``title_boost`` times,
a one-line form of field weighting: titles name what a text is about. Optional
pseudo-relevance feedback adds the most telling terms of the first-pass top
documents to the query (RM3-like, weighted below the query's own terms).
"""

from __future__ import annotations

import functools
import itertools
import math
import re
import threading
import warnings
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from unified_search._optional import require

Scores = npt.NDArray[np.float32]
#: Words of two or more letters or digits, as bm25s and scikit-learn split them.
_TOKEN = re.compile(r"(?u)\b\w\w+\b")


@functools.cache
def _stemmer() -> Any:
    stemmer = require("Stemmer", extra="kb", purpose="lexical search")
    return stemmer.Stemmer("english")


def _bm25s() -> Any:
    # bm25s imports tqdm.auto, which warns "IProgress not found" in a Jupyter kernel
    # without ipywidgets; this index never shows a progress bar, so the warning says nothing.
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="IProgress not found")
        return require("bm25s", extra="kb", purpose="lexical search")


def analyze(text: str) -> list[str]:
    """Split ``text`` into the stemmed, stop-word-free terms the index holds."""
    global _STEMS
    # Whole lists go through C-level ``filterfalse``, ``set`` and ``map``: per word, Python
    # does nothing (this runs over every word of every chunk indexed).
    words = list(itertools.filterfalse(_stop_words().__contains__, _TOKEN.findall(text.lower())))
    table = _STEMS  # this call's table: another thread may start a new one meanwhile
    new = set(words).difference(table)
    if new:
        if len(table) > MAX_STEMS:
            _STEMS = table = {}
            new = set(words)
        unseen = list(new)
        table.update(zip(unseen, _stemmer().stemWords(unseen), strict=True))
    return list(map(table.__getitem__, words))


#: Stems of the words seen so far: a dictionary look-up per word, the stemmer once per new
#: word (stemming every occurrence took most of the time spent analysing texts).
_STEMS: dict[str, str] = {}
#: Words kept before a new table is started (a few tens of MB at most).
MAX_STEMS = 500_000


@functools.cache
def _stop_words() -> frozenset[str]:
    return frozenset(_bm25s().stopwords.STOPWORDS_EN)


def document_terms(title: str, text: str, title_boost: int) -> list[str]:
    """Terms of a chunk with its title repeated ``title_boost`` times."""
    return list(_title_terms(title)) * title_boost + analyze(text)


@functools.lru_cache(maxsize=4096)
def _title_terms(title: str) -> tuple[str, ...]:
    """A title's terms, analysed once for all the chunks of its document."""
    return tuple(analyze(title)) if title else ()


_IDS = "ids.npy"
_SORTED = "ids-sorted.npy"
_ROWS = "ids-rows.npy"
#: Held while a saved index is opened (see ``LexicalIndex.load``).
_OPENING = threading.Lock()


class ChunkIds(Sequence[str]):
    """Chunk IDs by row of a lexical index, as arrays (memory-mapped once saved).

    A list of a million Python strings took about 100 MB in every process; the arrays
    are read from the page cache. A row is found by binary search in the IDs sorted,
    which are kept beside the rows they came from (so a look-up touches a few pages,
    never the whole array).
    """

    def __init__(
        self,
        ids: npt.NDArray[np.bytes_],
        ordered: tuple[npt.NDArray[np.bytes_], npt.NDArray[np.int64]] | None = None,
    ) -> None:
        self._ids = ids
        if ordered is None:
            order = np.argsort(ids, kind="stable")
            ordered = (ids[order], order.astype(np.int64))
        self._sorted, self._rows = ordered

    @classmethod
    def of(cls, ids: Sequence[str]) -> ChunkIds:
        """The arrays of ``ids`` (UTF-8)."""
        return cls(np.array([i.encode() for i in ids], dtype=np.bytes_))

    def __len__(self) -> int:
        return len(self._ids)

    def __getitem__(self, row: int) -> str:  # type: ignore[override]
        return bytes(self._ids[row]).decode()

    def row(self, chunk_id: str) -> int | None:
        """The row of ``chunk_id``, ``None`` when the index does not hold it."""
        return self.rows([chunk_id])[0]

    def rows(self, chunk_ids: Sequence[str]) -> list[int | None]:
        """The row of each of ``chunk_ids`` (``None`` where the index does not hold it), at once."""
        if not chunk_ids or not len(self._ids):
            return [None] * len(chunk_ids)
        keys = np.array([c.encode() for c in chunk_ids], dtype=np.bytes_)
        at = np.minimum(np.searchsorted(self._sorted, keys), len(self._sorted) - 1)
        found = self._sorted[at] == keys
        rows = self._rows[at]
        return [int(r) if f else None for r, f in zip(rows, found, strict=True)]

    def save(self, folder: Path) -> None:
        """Write the arrays into ``folder`` (``.npy`` files)."""
        np.save(folder / _IDS, self._ids, allow_pickle=False)
        np.save(folder / _SORTED, self._sorted, allow_pickle=False)
        np.save(folder / _ROWS, self._rows, allow_pickle=False)

    @classmethod
    def load(cls, folder: Path) -> ChunkIds:
        """Map the arrays saved in ``folder``.

        An index saved before the sorted IDs were kept beside it sorts them once here.
        """

        def mapped(name: str) -> Any:
            return np.load(folder / name, mmap_mode="r", allow_pickle=False)

        ordered = (mapped(_SORTED), mapped(_ROWS)) if (folder / _ROWS).exists() else None
        return cls(mapped(_IDS), ordered)


TermsOf = Callable[[Sequence[str]], dict[str, list[str]]]
"""The terms of some chunks by ID (what query expansion reads of its feedback documents)."""


class LexicalIndex:
    """BM25 over the term lists of a collection's chunks, built in memory or opened where saved.

    Example:
        >>> index = LexicalIndex(["a", "b"], [["vector", "store"], ["graph"]])
        >>> index.search(["graph"], k=1)
        (['b'], [...])
    """

    def __init__(
        self, ids: Sequence[str], terms: Sequence[list[str]], *, k1: float = 0.9, b: float = 0.4
    ) -> None:
        self.ids = ChunkIds.of(ids)
        held = dict(zip(ids, terms, strict=True))  # the caller's lists, not copies of them
        self._terms_of: TermsOf = lambda wanted: {i: held[i] for i in wanted if i in held}
        self._bm25: Any = None
        if len(self.ids):
            self._bm25 = _bm25s().BM25(method="lucene", k1=k1, b=b)
            # An empty term list would break bm25s; a placeholder term matches no query.
            self._bm25.index([t or ["\x00"] for t in terms], show_progress=False)

    @classmethod
    def load(cls, folder: Path, terms_of: TermsOf) -> LexicalIndex:
        """Open the index saved in ``folder``, memory-mapped: nothing is rebuilt.

        One index opens at a time in a process: ``np.load`` reads each array's header with
        ``ast.literal_eval``, which CPython 3.11 could not run in two threads at once
        (``SystemError: AST constructor recursion depth mismatch`` when two collections of
        one search opened together).
        """
        index = cls.__new__(cls)
        index._terms_of = terms_of
        index._bm25 = None
        with _OPENING:
            index.ids = ChunkIds.load(folder)
            if len(index.ids):
                index._bm25 = _bm25s().BM25.load(folder, mmap=True, show_progress=False)
        return index

    def save(self, folder: Path) -> None:
        """Write the index to ``folder`` (bm25s's arrays and vocabulary, and the chunk IDs)."""
        folder.mkdir(parents=True, exist_ok=True)
        self.ids.save(folder)
        if self._bm25 is not None:
            self._bm25.save(folder, show_progress=False)

    def __len__(self) -> int:
        return len(self.ids)

    @functools.cached_property
    def _doc_freq(self) -> dict[str, int]:
        """Chunks holding each term (the entries of its column); only query expansion reads it."""
        if self._bm25 is None:
            return {}
        counts = np.diff(self._bm25.scores["indptr"])
        vocab = self._bm25.vocab_dict.items()  # bm25s also lists an empty term past the columns
        return {term: int(counts[column]) for term, column in vocab if column < len(counts)}

    def scores(self, weights: dict[str, float]) -> Scores:
        """BM25 score of every chunk for a weighted bag of query terms."""
        total = np.zeros(len(self.ids), dtype=np.float32)
        if self._bm25 is None:
            return total
        # bm25s keeps a column of (document, score) entries per term: adding the query's
        # columns touches their entries only (its ``get_scores`` made a full array per term).
        vocab, matrix = self._bm25.vocab_dict, self._bm25.scores
        indptr, documents, scores = matrix["indptr"], matrix["indices"], matrix["data"]
        for term, weight in weights.items():
            column = vocab.get(term)
            if column is not None and column < len(indptr) - 1:
                start, end = int(indptr[column]), int(indptr[column + 1])
                total[documents[start:end]] += np.float32(weight) * scores[start:end]
        return total

    def query(
        self,
        query_terms: list[str],
        *,
        prf_docs: int = 0,
        prf_terms: int = 10,
        prf_weight: float = 0.5,
    ) -> Scores:
        """BM25 score of every chunk, optionally after pseudo-relevance feedback."""
        weights = {t: float(n) for t, n in Counter(query_terms).items()}
        scores = self.scores(weights)
        if prf_docs and scores.any():
            expansion = self._expansion(scores, prf_docs, prf_terms, set(weights))
            scores = self.scores({**weights, **{t: prf_weight * w for t, w in expansion.items()}})
        return scores

    def search(self, query_terms: list[str], k: int, **prf: Any) -> tuple[list[str], list[float]]:
        """Top ``k`` chunk IDs and BM25 scores (``prf`` as for :meth:`query`)."""
        return top_k(self.ids, self.query(query_terms, **prf), k)

    def _expansion(
        self, scores: Scores, docs: int, terms: int, known: set[str]
    ) -> dict[str, float]:
        """Terms frequent in the top documents and rare in the collection, scaled to 0..1."""
        best = [
            self.ids[int(i)] for i in np.argsort(-scores, kind="stable")[:docs] if scores[i] > 0
        ]
        held = self._terms_of(best)
        counts: Counter[str] = Counter()
        for id_ in best:
            counts.update(held.get(id_, []))
        n = len(self.ids)
        weighted = {
            t: c * math.log(1 + n / self._doc_freq[t]) for t, c in counts.items() if t not in known
        }
        chosen = sorted(weighted.items(), key=lambda kv: (-kv[1], kv[0]))[:terms]
        top = chosen[0][1] if chosen else 1.0
        return {t: w / top for t, w in chosen}


def top_k(
    ids: Sequence[str], scores: Scores, k: int, *, keep_zero: bool = False
) -> tuple[list[str], list[float]]:
    """The ``k`` best positive-scoring IDs (or all, with ``keep_zero``), ties broken by ID."""
    n = len(scores)
    if k <= 0 or n == 0:
        return [], []
    # The k-th best score over all rows (one partition, no copy of the positive ones first);
    # everything tied with it is kept so the ID tie-break sees all of them.
    kth = np.partition(scores, n - k)[n - k] if n > k else scores.min()
    if keep_zero:
        chosen = np.flatnonzero(scores >= kth)
    else:
        chosen = np.flatnonzero(scores >= kth if kth > 0 else scores > 0)
    order = sorted(chosen.tolist(), key=lambda i: (-float(scores[i]), ids[i]))[:k]
    return [ids[i] for i in order], [float(scores[i]) for i in order]
