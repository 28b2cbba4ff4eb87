"""Keyword extraction: the terms of a query or text that are worth searching for.

The builtin extractor tokenises English and Chinese (Chinese through the jieba
segmenter), drops stop words, keeps numbers and prices, keeps quoted phrases
and frequent word pairs together, and ranks by frequency then first position.
Other scripts are split on letters as a best effort. ``uses.keyword`` may name
an agent or an MCP tool instead; a bad answer from it falls back to the builtin
extractor with a logged warning.
"""

from __future__ import annotations

import importlib
import itertools
import logging
import re
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from unified_search.config.search import SearchConfig
from unified_search.contract.delegates import Delegates, parse_uses
from unified_search.nlp.stopwords import is_stop_word

logger = logging.getLogger(__name__)

_CJK = r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_TOKEN = re.compile(
    r'"(?P<quoted>[^"]+)"|“(?P<cquoted>[^”]+)”'
    r"|(?P<price>[$€£¥￥]\s?\d[\d,]*(?:\.\d+)?[km]?"
    r"|\d[\d,]*(?:\.\d+)?\s?(?:元|块|美元|欧元|(?:usd|eur|rmb|dollars?|euros?)(?![a-z])))"
    r"|(?P<number>\d+(?:[.,:]\d+)*(?:%|[a-z]{1,3}(?![a-z]))?)"
    r"|(?P<word>[a-z][a-z0-9]*(?:[+#]+|(?:[.\-'][a-z0-9]+)*))"
    rf"|(?P<cjk>[{_CJK}]+)"
    r"|(?P<other>[^\W\d_]+)"
)
_KEPT_KINDS = ("quoted", "cquoted", "price", "number", "word", "cjk", "other")


@dataclass(frozen=True)
class _Token:
    """A content word, or ``None`` text for a break (stop word or punctuation)."""

    text: str | None
    kind: str = "word"


def extract_keywords(
    text: str,
    max_keywords: int = 10,
    *,
    stop_words: Iterable[str] = (),
    phrase_min_count: int = 2,
) -> list[str]:
    """Return up to ``max_keywords`` keywords of ``text``, most frequent first.

    Example:
        >>> extract_keywords("best wireless headphones under $100")
        ['wireless', 'headphones', '$100']
    """
    if max_keywords < 1:
        raise ValueError("max_keywords must be at least 1")
    extra = frozenset(word.lower() for word in stop_words)
    tokens = list(_tokens(text.casefold(), extra))
    counts, first = _count(tokens, phrase_min_count)
    ranked = sorted(counts, key=lambda term: (-counts[term], first[term]))
    return ranked[:max_keywords]


def _count(tokens: list[_Token], phrase_min_count: int) -> tuple[dict[str, float], dict[str, int]]:
    """Count unigrams and frequent pairs; a pair's occurrences are taken from its words."""
    counts: dict[str, float] = {}
    first: dict[str, int] = {}
    for position, token in enumerate(tokens):
        if token.text is not None:
            counts[token.text] = counts.get(token.text, 0) + 1
            first.setdefault(token.text, position)
    for (left, right, phrase), seen in _pairs(tokens).items():
        if seen >= phrase_min_count:
            counts[phrase] = seen + 0.5  # a phrase outranks its own words at equal frequency
            first[phrase] = min(first[left], first[right])
            for word in (left, right):
                counts[word] -= seen
    return {term: n for term, n in counts.items() if n > 0}, first


def _pairs(tokens: list[_Token]) -> dict[tuple[str, str, str], int]:
    """Count adjacent pairs of words of the same script (no break between them)."""
    pairs: dict[tuple[str, str, str], int] = {}
    for left, right in itertools.pairwise(tokens):
        joiner = _joiner(left, right)
        if joiner is not None and left.text is not None and right.text is not None:
            key = (left.text, right.text, left.text + joiner + right.text)
            pairs[key] = pairs.get(key, 0) + 1
    return pairs


def _joiner(left: _Token, right: _Token) -> str | None:
    if left.text is None or right.text is None or left.text == right.text:
        return None
    if left.kind == right.kind == "cjk":
        return ""
    if {left.kind, right.kind} <= {"word", "number", "other"}:
        return " "
    return None


def _tokens(text: str, extra: frozenset[str]) -> Iterator[_Token]:
    """Yield content tokens in order, with a break wherever a stop word or punctuation sits."""
    end = 0
    for match in _TOKEN.finditer(text):
        if text[end : match.start()].strip():
            yield _Token(None)
        end = match.end()
        kind = next(k for k in _KEPT_KINDS if match.group(k) is not None)
        yield from _classify(match.group(kind).strip(), kind, extra)


def _classify(value: str, kind: str, extra: frozenset[str]) -> Iterator[_Token]:
    if kind in ("quoted", "cquoted"):
        yield _Token(" ".join(value.split()), "phrase")
    elif kind == "cjk":
        yield from (_content(word, "cjk", extra) for word in segment_chinese(value))
    else:
        yield _content(value, kind, extra)


def _content(value: str, kind: str, extra: frozenset[str]) -> _Token:
    """Keep ``value`` unless it is a stop word or a lone letter."""
    if is_stop_word(value, extra) or (kind == "word" and len(value) == 1):
        return _Token(None)
    return _Token(value, kind)


_segmenter: Callable[[str], list[str]] | None = None
_segmenter_lock = threading.Lock()


def segment_chinese(text: str) -> list[str]:
    """Split a run of Chinese characters into words (jieba, loaded quietly on first use).

    Without jieba the run is split into overlapping character pairs, a common
    fallback for Chinese search.
    """
    words = _load_segmenter()(text)
    return [word for word in (w.strip() for w in words) if word]


def _load_segmenter() -> Callable[[str], list[str]]:
    global _segmenter
    with _segmenter_lock:
        if _segmenter is None:
            _segmenter = _jieba_or_bigrams()
        return _segmenter


def _jieba_or_bigrams() -> Callable[[str], list[str]]:
    try:
        jieba = importlib.import_module("jieba")
    except ImportError:
        logger.warning("jieba is not installed; Chinese is split into character pairs")
        return _char_pairs
    jieba.setLogLevel(logging.WARNING)
    cut: Callable[[str], list[str]] = jieba.lcut
    return cut


def _char_pairs(text: str) -> list[str]:
    if len(text) < 2:
        return [text]
    return [text[i : i + 2] for i in range(len(text) - 1)]


async def keywords_for(query: str, config: SearchConfig, delegates: Delegates) -> list[str]:
    """Extract the keywords of ``query`` with the implementation named by ``uses.keyword``.

    ``None`` or ``builtin`` uses :func:`extract_keywords`. An agent or
    ``mcp:<server>.<tool>`` receives ``{"query", "max_keywords"}`` and answers a
    list of strings or ``{"keywords": [...]}``; any other answer, or a failure,
    falls back to the builtin extractor with a logged warning.
    """
    section = config.keyword
    uses = config.uses.keyword
    if uses is None or parse_uses(uses).kind == "builtin":
        return _builtin(query, config)
    payload = {"query": query, "max_keywords": section.max_keywords}
    try:
        answer = await delegates.call(uses, payload, config)
        return parse_keywords(answer)[: section.max_keywords]
    except Exception as exc:  # any delegate trouble: the builtin extractor still answers
        logger.warning("keyword extractor %r failed (%s); using the builtin one", uses, exc)
        return _builtin(query, config)


def _builtin(query: str, config: SearchConfig) -> list[str]:
    section = config.keyword
    return extract_keywords(
        query,
        section.max_keywords,
        stop_words=section.stop_words,
        phrase_min_count=section.phrase_min_count,
    )


def parse_keywords(answer: Any) -> list[str]:
    """Read a delegate's keywords: a list of strings, or ``{"keywords": [...]}``."""
    if isinstance(answer, dict):
        answer = answer.get("keywords")
    if not isinstance(answer, list) or not all(isinstance(k, str) for k in answer):
        raise ValueError(f"expected a list of keyword strings, got {type(answer).__name__}")
    keywords = [k.strip() for k in answer if k.strip()]
    if not keywords:
        raise ValueError("the answer holds no keywords")
    return keywords
