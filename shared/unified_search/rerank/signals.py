"""The three signals of the intent reranker: keyword match, freshness and authority."""

from __future__ import annotations

import fnmatch
import functools
import math
import re
from collections.abc import Mapping, Sequence
from datetime import datetime

from unified_search import dates
from unified_search.nlp.intent import Freshness
from unified_search.types import ResultItem

#: Metadata keys under which sources report a publication date.
DATE_KEYS = (
    "published_date",
    "published_at",
    "publishedDate",
    "published",
    "page_age",
    "date",
    "age",
)

#: Days after which an item's freshness halves, by the intent's freshness need.
HALF_LIFE_DAYS: dict[Freshness, float] = {
    "day": 1.0,
    "week": 7.0,
    "month": 30.0,
    "year": 365.0,
    "none": 730.0,
}

_SUFFIX = re.compile(r"(?:ing|ed|es|s)$")


def keyword_match(
    terms: Sequence[Sequence[str]], item: ResultItem, weights: Sequence[float] | None = None
) -> float:
    """Weighted share of query terms found in the item's title and content (0 without terms).

    Each term is a group of spellings (``("k8s", "kubernetes")``); any one of them
    counts. English words also match their inflections (``mutations`` ~ ``mutation``).
    """
    if not terms:
        return 0.0
    weights = weights or [1.0] * len(terms)
    text = f"{item.title}\n{item.content}".casefold()
    found = [any(_contains(text, s.casefold()) for s in spellings) for spellings in terms]
    return sum(w for w, hit in zip(weights, found, strict=True) if hit) / (sum(weights) or 1.0)


def keyword_matches(terms: Sequence[Sequence[str]], items: Sequence[ResultItem]) -> list[float]:
    """``keyword_match`` of every item, each term weighted by its rarity among the items.

    A term every candidate contains tells them apart no better than none, so
    terms weigh ``log(1 + n / (1 + df))`` with ``df`` the number of items holding them.
    """
    texts = [f"{item.title}\n{item.content}".casefold() for item in items]
    df = [sum(1 for t in texts if any(_contains(t, s.casefold()) for s in sp)) for sp in terms]
    weights = [math.log(1 + len(items) / (1 + d)) for d in df]
    return [keyword_match(terms, item, weights) for item in items]


@functools.lru_cache(maxsize=4096)
def _term_pattern(term: str) -> re.Pattern[str]:
    """Whole-word pattern of ``term``; longer English words also match their inflections."""
    if not (term.isalpha() and len(term) > 4):
        return re.compile(rf"(?<![a-z0-9]){re.escape(term)}(?![a-z0-9])")
    return re.compile(rf"(?<![a-z0-9]){re.escape(_SUFFIX.sub('', term))}[a-z]{{0,4}}(?![a-z0-9])")


def _contains(text: str, term: str) -> bool:
    if term.isascii():
        return _term_pattern(term).search(text) is not None
    return term in text


def published(item: ResultItem, now: datetime) -> datetime | None:
    """The item's publication date from its metadata, when one can be read."""
    for key in DATE_KEYS:
        value = item.metadata.get(key)
        if isinstance(value, str) and value.strip():
            parsed = parse_date(value.strip(), now)
            if parsed is not None:
                return parsed
    return None


def parse_date(value: str, now: datetime) -> datetime | None:
    """Read a date in any form providers send (``unified_search.dates``); naive dates are UTC."""
    return dates.parse_date(value, now)


def freshness(item: ResultItem, need: Freshness, now: datetime, *, undated: float = 0.5) -> float:
    """1 for an item published now, halving every half-life of ``need``; ``undated`` without a date."""
    date = published(item, now)
    if date is None:
        return undated
    age_days = max((now - date).total_seconds() / 86400, 0.0)
    return float(0.5 ** (age_days / HALF_LIFE_DAYS[need]))


def domain_match(host: str, domains: Mapping[str, object] | Sequence[str]) -> str | None:
    """The most specific of ``domains`` that is ``host`` or one of its parents."""
    matches = [d for d in domains if host == d or host.endswith("." + d)]
    return max(matches, key=len) if matches else None


def pattern_match(host: str, patterns: Mapping[str, object] | Sequence[str]) -> str | None:
    """The first ``*`` pattern of ``patterns`` the whole ``host`` matches (``docs.*``, ``*.edu``)."""
    return next((p for p in patterns if "*" in p and fnmatch.fnmatchcase(host, p)), None)
