"""Intent: what kind of answer a query is after, and the search strategy that suits it.

A query is matched against signal words in English and Chinese. When several
intents match, the most specific one wins, in the search-layer design's order
(``PRIORITY``: resource, news, comparison, status, tutorial, factual; the design
lists comparison after status but its own example, "Bun vs Deno 最新对比", reads
as a comparison, so comparison comes first of the two). A query with no signal
is exploratory.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from unified_search.nlp.stopwords import is_stop_word
from unified_search.types import Intent, TimeRange

Freshness = Literal["none", "day", "week", "month", "year"]


@dataclass(frozen=True)
class ScoreWeights:
    """How the intent reranker mixes keyword match, freshness and authority."""

    keyword: float
    freshness: float
    authority: float


QueryModeName = Literal["fast", "deep", "answer"]


@dataclass(frozen=True)
class IntentStrategy:
    """How to search for one intent.

    Example:
        >>> STRATEGIES[Intent.NEWS].time_range, STRATEGIES[Intent.NEWS].mode
        ('week', 'deep')
    """

    mode: QueryModeName
    """The query mode ``mode: auto`` picks for the intent (``unified_search.policy.modes``)."""
    freshness: Freshness
    """How recent results should be; becomes the request's ``time_range``."""
    weights: ScoreWeights
    """Default weights of the intent reranker (``rerank.intent_weights`` overrides them)."""
    expansion: str
    """Which sub-queries query expansion adds (see ``unified_search.nlp.expand``)."""

    @property
    def time_range(self) -> TimeRange | None:
        """The request ``time_range`` of this freshness (``None`` when any age will do)."""
        return None if self.freshness == "none" else self.freshness


# The modes and the weights (keyword, freshness, authority) are the search-layer design's table.
STRATEGIES: dict[Intent, IntentStrategy] = {
    Intent.FACTUAL: IntentStrategy("answer", "none", ScoreWeights(0.4, 0.1, 0.5), "definition"),
    Intent.STATUS: IntentStrategy("deep", "month", ScoreWeights(0.3, 0.5, 0.2), "latest"),
    Intent.COMPARISON: IntentStrategy("deep", "year", ScoreWeights(0.4, 0.2, 0.4), "sides"),
    Intent.TUTORIAL: IntentStrategy("answer", "year", ScoreWeights(0.4, 0.1, 0.5), "guide"),
    Intent.EXPLORATORY: IntentStrategy("deep", "none", ScoreWeights(0.3, 0.2, 0.5), "angles"),
    Intent.NEWS: IntentStrategy("deep", "week", ScoreWeights(0.3, 0.6, 0.1), "news"),
    Intent.RESOURCE: IntentStrategy("fast", "none", ScoreWeights(0.5, 0.1, 0.4), "official"),
}
"""The search strategy of every intent."""

#: Most specific first: the first intent with a matching signal wins (the design's order).
PRIORITY: tuple[Intent, ...] = (
    Intent.RESOURCE,
    Intent.NEWS,
    Intent.COMPARISON,
    Intent.STATUS,
    Intent.TUTORIAL,
    Intent.FACTUAL,
)

_SIGNALS: dict[Intent, tuple[str, ...]] = {
    Intent.COMPARISON: (
        r"\bvs\b\.?",
        r"\bversus\b",
        r"\bcompar(?:e|es|ed|ing|ison)\b",
        r"\bwhich (?:one )?(?:is|are) (?:better|faster|cheaper)\b",
        r"\bdifferences? between\b",
        r"\b(?:better|faster|cheaper) than\b",
        r"\bpros and cons\b",
        r"区别",
        r"对比",
        r"比较",
        r"哪个好",
        r"差异",
        r"不同之处",
        r"相比",
    ),
    Intent.RESOURCE: (
        r"\bgithub\b",
        r"\bofficial (?:site|website|docs|documentation|page)\b",
        r"\b(?:docs|documentation|api reference|homepage|source code)\b",
        r"\brepo(?:sitory)?\b",
        r"\bdownloads?\b",
        r"官网",
        r"官方",
        r"文档",
        r"源码",
        r"下载",
        r"仓库",
    ),
    Intent.NEWS: (
        r"\bnews\b",
        r"\bheadlines?\b",
        r"\bbreaking\b",
        r"\b(?:today|yesterday|this week)\b",
        r"\bannounce(?:d|ment|ments)?\b",
        r"新闻",
        r"本周",
        r"今天",
        r"今日",
        r"昨天",
        r"头条",
        r"快讯",
        r"发布会",
    ),
    Intent.TUTORIAL: (
        r"\bhow (?:to|do i|do you|can i)\b",
        r"\btutorials?\b",
        r"\bguides?\b",
        r"\bstep[- ]by[- ]step\b",
        r"\bget(?:ting)? started\b",
        r"\b(?:install|set ?up|configure)\b",
        r"教程",
        r"怎么",
        r"如何",
        r"入门",
        r"步骤",
        r"指南",
        r"安装",
        r"配置",
    ),
    Intent.STATUS: (
        r"\blatest\b",
        r"\brecent(?:ly)?\b",
        r"\bcurrent(?:ly)?\b",
        r"\bstatus\b",
        r"\bupdates?\b",
        r"\bnew(?:est)? (?:version|release)\b",
        r"\bstate of\b",
        r"\bprogress\b",
        r"最新",
        r"进展",
        r"现状",
        r"近况",
        r"动态",
        r"最近",
        r"目前",
    ),
    Intent.FACTUAL: (
        r"\b(?:what|who) (?:is|are|was|were|does|do)\b",
        r"^(?:what|who|when|where|which)\b",
        r"\bdefin(?:e|ition|itions)\b",
        r"\bmeaning of\b",
        r"\bexplain(?:ed)?\b",
        r"什么是",
        r"是什么",
        r"是谁",
        r"定义",
        r"含义",
        r"意思",
        r"解释",
    ),
}

_PATTERNS: dict[Intent, re.Pattern[str]] = {
    intent: re.compile("|".join(signals), re.IGNORECASE) for intent, signals in _SIGNALS.items()
}


def classify_intent(query: str) -> Intent:
    """Return the most specific intent whose signal words appear in ``query``.

    Example:
        >>> classify_intent("kubernetes vs nomad"), classify_intent("Rust 教程")
        (<Intent.COMPARISON: 'comparison'>, <Intent.TUTORIAL: 'tutorial'>)
    """
    text = " ".join(query.split())
    for intent in PRIORITY:
        if _PATTERNS[intent].search(text):
            return intent
    return Intent.EXPLORATORY


def strategy_for(query: str, intent: Intent | None = None) -> tuple[Intent, IntentStrategy]:
    """The intent of ``query`` (``intent`` when given, else classified) and its strategy."""
    chosen = intent or classify_intent(query)
    return chosen, STRATEGIES[chosen]


#: Words that say how recent the answer must be, whatever the intent (most recent first).
_TIME_PATTERNS: tuple[tuple[Freshness, str], ...] = (
    ("day", r"\b(?:today|tonight|past (?:24|twenty-four) hours|last 24 hours)\b|今天|今日|今晚"),
    ("week", r"\b(?:this|past|last) week\b|本周|这周|这一周|上周"),
    ("month", r"\b(?:this|past|last) month\b|本月|这个月|上个月"),
    ("year", r"\b(?:this|past|last) year\b|今年|去年"),
)
_TIME_WORDS = tuple((f, re.compile(p, re.IGNORECASE)) for f, p in _TIME_PATTERNS)


def freshness_for(query: str, intent: Intent) -> Freshness:
    """How recent results of ``query`` should be: what its words say, else its intent's need.

    Example:
        >>> freshness_for("AI news today", Intent.NEWS), freshness_for("AI news", Intent.NEWS)
        ('day', 'week')
    """
    for freshness, pattern in _TIME_WORDS:
        if pattern.search(query):
            return freshness
    return STRATEGIES[intent].freshness


def time_range_of(freshness: Freshness) -> TimeRange | None:
    """The request ``time_range`` of a freshness (``None`` when any age will do)."""
    return None if freshness == "none" else freshness


def strip_signals(query: str, intent: Intent) -> str:
    """Remove ``intent``'s signal words from ``query``, leaving its topic.

    Example:
        >>> strip_signals("what is a vector database?", Intent.FACTUAL)
        'vector database'
    """
    if intent not in _PATTERNS:
        return " ".join(query.split())
    words = _PATTERNS[intent].sub(" ", query).strip(" ?？!！.,，。:：").split()
    while words and is_stop_word(words[0]):
        words.pop(0)
    while words and is_stop_word(words[-1]):
        words.pop()
    return " ".join(words)
