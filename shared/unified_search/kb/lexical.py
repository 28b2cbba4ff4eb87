"""The lexical side of hybrid retrieval: BM25 (bm25s, Lucene variant) over stemmed terms.

Terms are lower-cased words of two or more letters, English stop words removed,
Snowball-stemmed (PyStemmer). A chunk's title is counted ``title_boost`` times,
a one-line form of field weighting: titles name what a text is about. Optional
pseudo-relevance feedback adds the most telling terms of the first-pass top
documents to the query (RM3-like, weighted below the query's own terms).
"""

from __future__ import annotations

import functools
import math
import re
import warnings
from collections import Counter
from collections.abc import Sequence
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
    stop = _stop_words()
    words = [w for w in _TOKEN.findall(text.lower()) if w not in stop]
    table = _STEMS  # this call's table: another thread may start a new one meanwhile
    new = list({w for w in words if w not in table})
    if new:
        if len(table) > MAX_STEMS:
            _STEMS = table = {}
            new = list(set(words))
        table.update(zip(new, _stemmer().stemWords(new), strict=True))
    return [table[w] for w in words]


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


class LexicalIndex:
    """BM25 over the term lists of a collection's chunks, rebuilt in memory from them.

    Example:
        >>> index = LexicalIndex(["a", "b"], [["vector", "store"], ["graph"]])
        >>> index.search(["graph"], k=1)
        (['b'], [...])
    """

    def __init__(
        self, ids: Sequence[str], terms: Sequence[list[str]], *, k1: float = 0.9, b: float = 0.4
    ) -> None:
        self.ids = list(ids)
        self._terms = [list(t) for t in terms]
        self._bm25: Any = None
        if self.ids:
            self._bm25 = _bm25s().BM25(method="lucene", k1=k1, b=b)
            # An empty term list would break bm25s; a placeholder term matches no query.
            self._bm25.index([t or ["\x00"] for t in self._terms], show_progress=False)

    def __len__(self) -> int:
        return len(self.ids)

    @functools.cached_property
    def _doc_freq(self) -> Counter[str]:
        """Chunks holding each term; counted on first use, as only query expansion reads it."""
        return Counter(term for t in self._terms for term in set(t))

    def scores(self, weights: dict[str, float]) -> Scores:
        """BM25 score of every chunk for a weighted bag of query terms."""
        total = np.zeros(len(self.ids), dtype=np.float32)
        if self._bm25 is None:
            return total
        vocab = self._bm25.vocab_dict
        for term, weight in weights.items():
            if term in vocab:
                total += weight * self._bm25.get_scores([term])
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
        best = np.argsort(-scores, kind="stable")[:docs]
        counts: Counter[str] = Counter()
        for i in best:
            if scores[i] > 0:
                counts.update(self._terms[i])
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
    positive = np.arange(len(scores)) if keep_zero else np.flatnonzero(scores > 0)
    if len(positive) > k:
        # Keep everything tied with the k-th score so the ID tie-break sees all of them.
        kth = np.partition(scores[positive], len(positive) - k)[len(positive) - k]
        positive = positive[scores[positive] >= kth]
    order = sorted(positive.tolist(), key=lambda i: (-float(scores[i]), ids[i]))[:k]
    return [ids[i] for i in order], [float(scores[i]) for i in order]
