"""Evidence that a passage says what a sentence says: shared terms, and meaning (embeddings).

A reference is read as windows: each of its sentences, and each pair of
neighbouring sentences (a claim often sums up two). The lexical evidence of a
window is the share of the sentence's terms it contains (stemmed English words,
Chinese words, numbers; numbers count double, since a misquoted figure is the
commonest unsupported claim). The embedding evidence is the cosine of the
sentence and the window under the bundled model, computed only for the windows
with the most shared terms, so its cost per sentence stays bounded.
"""

from __future__ import annotations

import functools
import itertools
import re
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from unified_search._optional import require
from unified_search.citations.sentences import sentence_spans
from unified_search.nlp.keywords import segment_chinese
from unified_search.nlp.stopwords import CHINESE, ENGLISH

#: Reference text read, from its start: a bound on the work a huge page can cause.
MAX_REFERENCE_CHARS = 60_000
#: Windows of one reference compared with a sentence at most.
MAX_WINDOWS = 600
#: Words that turn a claim around: never dropped as stop words.
_NEGATIONS = frozenset({"no", "not", "nor", "never", "without", "cannot", "don't", "doesn't"})
_STOP = (ENGLISH - _NEGATIONS) | CHINESE
_TERM = re.compile(r"\d+(?:[.,]\d+)*|[^\W\d_]+(?:'[^\W\d_]+)?|[\u3400-\u9fff\uf900-\ufaff]+")
_CJK_RUN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+")
_NUMBER = re.compile(r"\d")

Embed = Callable[[list[str]], Sequence[Sequence[float]]]
"""Texts to unit vectors (the bundled model, or any embedding function)."""


@functools.cache
def _stemmer() -> object:
    return require("Stemmer", extra="kb", purpose="citation checks").Stemmer("english")


_stems: dict[str, str] = {}
_stems_lock = threading.Lock()


def _stem_all(words: list[str]) -> list[str]:
    new = [w for w in set(words) if w not in _stems]
    if new:
        stemmed = _stemmer().stemWords(new)  # type: ignore[attr-defined]
        with _stems_lock:
            if len(_stems) > 200_000:
                _stems.clear()
            _stems.update(zip(new, stemmed, strict=True))
    return [_stems.get(w, w) for w in words]


def terms(text: str) -> dict[str, float]:
    """The weighted terms of ``text``: stems and Chinese words 1, numbers 2, stop words none."""
    found: dict[str, float] = {}
    words: list[str] = []
    for token in _TERM.findall(text.lower()):
        if _NUMBER.match(token):
            found[token.replace(",", "")] = 2.0
        elif _CJK_RUN.fullmatch(token):
            for word in segment_chinese(token):
                if word not in _STOP and (len(word) > 1 or len(token) == 1):
                    found[word] = 1.0
        elif token not in _STOP and len(token) > 1:
            words.append(token)
    for stem in _stem_all(words):
        found[stem] = 1.0
    return found


def coverage(sentence: dict[str, float], window: dict[str, float]) -> float:
    """The weighted share of the sentence's terms that the window contains (0..1)."""
    total = sum(sentence.values())
    if not total:
        return 0.0
    return sum(weight for term, weight in sentence.items() if term in window) / total


@dataclass(frozen=True)
class Window:
    """A passage of a reference: one sentence or two neighbouring ones."""

    start: int
    end: int
    text: str
    terms: dict[str, float]


@functools.lru_cache(maxsize=256)
def windows(content: str) -> tuple[Window, ...]:
    """The windows of a reference's content (remembered: an answer cites a reference often)."""
    head = content[:MAX_REFERENCE_CHARS]
    spans = [(start, end) for start, end, _ in sentence_spans(head)]
    found = [_window(head, start, end) for start, end in spans]
    found += [_window(head, a[0], b[1]) for a, b in itertools.pairwise(spans)]
    return tuple(found[:MAX_WINDOWS])


def _window(text: str, start: int, end: int) -> Window:
    return Window(start, end, text[start:end], terms(text[start:end]))


class EmbeddingCache:
    """Vectors of texts seen lately, so a reference cited by many sentences is embedded once."""

    def __init__(self, embed: Embed, size: int = 4096) -> None:
        self.embed = embed
        self._size = size
        self._vectors: dict[str, Sequence[float]] = {}
        self._lock = threading.Lock()

    def vectors(self, texts: Sequence[str]) -> list[Sequence[float]]:
        """One vector per text, in order, embedding only those not seen yet."""
        with self._lock:
            known = {t: self._vectors[t] for t in texts if t in self._vectors}
        missing = [t for t in dict.fromkeys(texts) if t not in known]
        if missing:
            known |= dict(zip(missing, self.embed(missing), strict=True))
            with self._lock:
                if len(self._vectors) + len(missing) > self._size:
                    self._vectors.clear()
                self._vectors.update((t, known[t]) for t in missing)
        return [known[t] for t in texts]


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    """The cosine of two unit vectors (their dot product)."""
    return float(sum(x * y for x, y in zip(a, b, strict=True)))
