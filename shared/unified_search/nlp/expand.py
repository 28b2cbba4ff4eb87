"""Query expansion: synonyms for abbreviations and intent-driven sub-queries.

``expand_query`` turns one query into a short list of queries that together
cover it better: the query itself, the query with abbreviations spelled out,
and a few sub-queries chosen by the query's intent, with the search-layer
design's terms: a definition for a factual question, both sides of a comparison,
``latest``/``update release`` and the year for a status question, ``news`` and
``announcement`` (today, or this week) for news, overview/ecosystem/use cases for
an open question, ``tutorial``/``guide step by step`` for a how-to. A
Chinese technical query also gets its English wording, and an English one its
Chinese wording when the conversation is in Chinese (``nlp.crosslingual``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime

from unified_search.config.keyword import KeywordConfig
from unified_search.nlp.crosslingual import is_chinese, variants
from unified_search.nlp.intent import STRATEGIES, classify_intent, freshness_for, strip_signals
from unified_search.nlp.synonyms import CASED_SYNONYMS, SYNONYMS
from unified_search.types import Intent

_EN_SIDES = re.compile(
    r"^(?:.*\bdifferences? between\s+)?(?P<a>.+?)\s+(?:vs\.?|versus|compared (?:to|with)|or|and)\s+(?P<b>.+?)\??$",
    re.I,
)
_ZH_SIDES = re.compile(
    r"^(?P<a>.+?)\s*(?:和|与|跟|还是|对比|vs\.?)\s*(?P<b>.+?)\s*(?:的)?(?:区别|对比|比较|差异|哪个好|不同)*[？?]?$",
    re.I,
)


@dataclass(frozen=True)
class Expansion:
    """What expansion made of a query.

    Example:
        >>> expand_query("k8s vs nomad").sub_queries
        ['k8s vs nomad', 'Kubernetes vs nomad', 'Kubernetes advantages', 'nomad advantages']
    """

    query: str
    intent: Intent
    sub_queries: list[str]
    """The queries to search, the original one first, without duplicates."""
    synonyms: dict[str, str]
    """The abbreviations found in the query and what they were expanded to."""


def expand_query(
    query: str,
    *,
    config: KeywordConfig | None = None,
    today: date | None = None,
    language: str | None = None,
) -> Expansion:
    """Classify ``query`` and build its sub-queries (at most ``keyword.max_sub_queries``).

    ``language`` is the conversation's (``options.language``): with ``zh``, an English
    query also gets its Chinese wording. ``keyword.language`` other than ``auto`` replaces it.
    """
    section = config or KeywordConfig()
    if section.language != "auto":
        language = section.language
    text = " ".join(query.split())
    table = synonym_table(section.synonyms)
    intent = section.intent or classify_intent(text)
    found = synonyms_in(text, table)
    expanded = apply_synonyms(text, found)
    topic = apply_synonyms(strip_signals(text, intent) or text, found)
    year = (today or datetime.now(UTC).date()).year
    extra = _BUILDERS[STRATEGIES[intent].expansion](expanded, topic, is_chinese(text), year)
    crossed = variants(expanded, language)
    sub_queries = _unique([text, expanded, *crossed, *extra])[: section.max_sub_queries]
    return Expansion(text, intent, sub_queries, found)


def synonym_table(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """Return the builtin synonyms with ``extra`` entries added or overriding (keys lower-cased).

    The cased names (``Go``, ``React``) keep their capitals: they match only as written.
    """
    added = {key.lower(): value for key, value in (extra or {}).items()}
    return {**SYNONYMS, **CASED_SYNONYMS, **added}


def synonyms_in(text: str, table: Mapping[str, str]) -> dict[str, str]:
    """Return the table's abbreviations that appear in ``text`` as whole words.

    A lower-case key matches in any case; a key with capitals only as written.
    """
    words = re.findall(r"[A-Za-z0-9][A-Za-z0-9+#.\-]*[A-Za-z0-9+#]|[A-Za-z0-9]", text)
    found = {}
    for word in words:
        key = word if word in table and not word.islower() else word.lower()
        if key in table:
            found[word] = table[key]
    return found


def apply_synonyms(text: str, found: Mapping[str, str]) -> str:
    """Replace every abbreviation in ``found`` by its expansion (whole words only)."""
    for word, full in found.items():
        text = re.sub(rf"(?<![A-Za-z0-9]){re.escape(word)}(?![A-Za-z0-9])", full, text)
    return text


def _unique(queries: list[str]) -> list[str]:
    seen: set[str] = set()
    kept = []
    for query in (" ".join(q.split()) for q in queries):
        if query and query.casefold() not in seen:
            seen.add(query.casefold())
            kept.append(query)
    return kept


Builder = Callable[[str, str, bool, int], list[str]]


def _definition(query: str, topic: str, zh: bool, year: int) -> list[str]:
    return (
        [f"{topic} 定义", f"{topic} 详解"] if zh else [f"{topic} definition", f"{topic} explained"]
    )


def _latest(query: str, topic: str, zh: bool, year: int) -> list[str]:
    if zh:
        return [f"{topic} 最新 {year}", f"{topic} 更新 发布"]
    return [f"{topic} latest {year}", f"{topic} update release"]


def _news(query: str, topic: str, zh: bool, year: int) -> list[str]:
    today = freshness_for(query, Intent.NEWS) == "day"
    if zh:
        return [f"{topic} 新闻 {'今天' if today else '本周'} {year}", f"{topic} 发布 最新"]
    when = "today" if today else "this week"
    return [f"{topic} news {when} {year}", f"{topic} announcement latest"]


def _sides(query: str, topic: str, zh: bool, year: int) -> list[str]:
    match = (_ZH_SIDES if zh else _EN_SIDES).match(query)
    if match is None:
        return [f"{topic} 对比" if zh else f"{topic} comparison"]
    suffix = " 优势" if zh else " advantages"
    sides = [strip_signals(match.group(side), Intent.COMPARISON) for side in ("a", "b")]
    return [side + suffix for side in sides if side]


def _guide(query: str, topic: str, zh: bool, year: int) -> list[str]:
    if zh:
        return [f"{topic} 教程", f"{topic} 指南 步骤"]
    return [f"{topic} tutorial", f"{topic} guide step by step"]


def _angles(query: str, topic: str, zh: bool, year: int) -> list[str]:
    if zh:
        return [f"{topic} 概述", f"{topic} 生态", f"{topic} 应用场景"]
    return [f"{topic} overview", f"{topic} ecosystem", f"{topic} use cases"]


def _official(query: str, topic: str, zh: bool, year: int) -> list[str]:
    return (
        [f"{topic} 官方文档", f"{topic} GitHub"]
        if zh
        else [f"{topic} official documentation", f"{topic} GitHub"]
    )


_BUILDERS: dict[str, Builder] = {
    "definition": _definition,
    "latest": _latest,
    "news": _news,
    "sides": _sides,
    "guide": _guide,
    "angles": _angles,
    "official": _official,
}
