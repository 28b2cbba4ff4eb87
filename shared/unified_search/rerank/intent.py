"""The intent-aware reranker: keyword match, freshness and authority, weighed by intent."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime

from unified_search.config.rerank import IntentRerankConfig
from unified_search.config.search import SearchConfig
from unified_search.nlp.expand import synonym_table
from unified_search.nlp.intent import (
    STRATEGIES,
    Freshness,
    ScoreWeights,
    classify_intent,
    freshness_for,
    strip_signals,
)
from unified_search.nlp.keywords import extract_keywords
from unified_search.rerank.base import Lists, RerankerBase, ranked_by
from unified_search.rerank.signals import (
    domain_match,
    freshness,
    keyword_matches,
    pattern_match,
)
from unified_search.types import Intent, ResultItem
from unified_search.urls import host_of


def _utc_now() -> datetime:
    return datetime.now(UTC)


class IntentReranker(RerankerBase):
    """Score = w_keyword·keyword_match + w_freshness·freshness + w_authority·authority.

    The weights come from the query's intent (computed here from the query),
    so a news query favours recent pages and a resource query favours GitHub
    and official documentation. Scores are divided by the weights' sum, so
    they stay in 0..1. The three signals are kept in ``metadata["rerank_signals"]``.

    Example:
        >>> import asyncio
        >>> items = [ResultItem(type="web", title="FastAPI", url="https://blog.example/fastapi"),
        ...          ResultItem(type="web", title="FastAPI", url="https://github.com/fastapi/fastapi")]
        >>> [i.url for i in asyncio.run(IntentReranker().arerank("fastapi github", items))][0]
        'https://github.com/fastapi/fastapi'
    """

    name = "intent"

    def __init__(
        self,
        config: IntentRerankConfig | None = None,
        *,
        synonyms: Mapping[str, str] | None = None,
        now: Callable[[], datetime] = _utc_now,
        intent: Intent | None = None,
    ) -> None:
        self.config = config or IntentRerankConfig()
        self.synonyms = synonym_table(synonyms)
        self.now = now
        self.intent = intent
        """The intent of every query (``keyword.intent``); ``None`` classifies each."""

    @classmethod
    def from_config(cls, config: SearchConfig) -> IntentReranker:
        """Build from ``rerank.intent`` and the user's ``keyword.synonyms`` and ``keyword.intent``."""
        keyword = config.keyword
        return cls(config.rerank.intent, synonyms=keyword.synonyms, intent=keyword.intent)

    def weights(self, intent: Intent) -> ScoreWeights:
        """The weights of ``intent``: ``rerank.intent.weights`` if set, else the builtin ones."""
        custom = self.config.weights.get(intent)
        if custom is None:
            return STRATEGIES[intent].weights
        return ScoreWeights(custom.keyword, custom.freshness, custom.authority)

    def authority(self, item: ResultItem, intent: Intent) -> float:
        """Tier score of the item's domain, plus the intent's boost for its preferred domains."""
        host = host_of(item.url)
        if host is None:
            return self.config.local_authority
        score = self._tier_score(host)
        boosted = [*self.config.intent_domains.get(intent, []), *self.config.boost_domains]
        if domain_match(host, boosted):
            score += self.config.domain_boost
        return min(score, 1.0)

    def _tier_score(self, host: str) -> float:
        tiers = self.config.domain_tiers
        domain = domain_match(host, tiers) or pattern_match(host, tiers)
        if domain is None:
            return self.config.default_authority
        return self.config.tier_scores.get(tiers[domain], self.config.default_authority)

    async def _order(
        self, query: str, items: Sequence[ResultItem], top_n: int | None, lists: Lists
    ) -> list[ResultItem]:
        """Return the items by descending intent score."""
        intent = self.intent or classify_intent(query)
        need = freshness_for(query, intent)
        terms = query_terms(query, intent, self.synonyms)
        matches = keyword_matches(terms, items)
        scored = [
            self._signals(item, intent, need, match)
            for item, match in zip(items, matches, strict=True)
        ]
        weights = self.weights(intent)
        total = (weights.keyword + weights.freshness + weights.authority) or 1.0
        scores = [
            (weights.keyword * k + weights.freshness * f + weights.authority * a) / total
            for k, f, a in scored
        ]
        stamped = [
            item.model_copy(update={"metadata": {**item.metadata, "rerank_signals": _named(s)}})
            for item, s in zip(items, scored, strict=True)
        ]
        return ranked_by(stamped, scores, top_n, intent=intent.value)

    def _signals(
        self, item: ResultItem, intent: Intent, need: Freshness, match: float
    ) -> tuple[float, float, float]:
        fresh = freshness(item, need, self.now(), undated=self.config.undated_freshness)
        return match, fresh, self.authority(item, intent)


def query_terms(
    query: str, intent: Intent, table: Mapping[str, str] | None = None
) -> list[tuple[str, ...]]:
    """The query's keywords without its intent signal words, each with its synonym spelling."""
    table = synonym_table() if table is None else table
    words = extract_keywords(strip_signals(query, intent) or query, 20)
    return [(word, table[word]) if word in table else (word,) for word in words]


def _named(signals: tuple[float, float, float]) -> dict[str, float]:
    keyword, fresh, authority = signals
    return {
        "keyword": round(keyword, 6),
        "freshness": round(fresh, 6),
        "authority": round(authority, 6),
    }
