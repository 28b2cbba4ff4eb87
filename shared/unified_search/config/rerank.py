"""Configuration of reranking (the ``rerank`` section)."""

from __future__ import annotations

from pydantic import Field

from unified_search.auth import Secret
from unified_search.config.authority import DOMAIN_TIERS, INTENT_DOMAINS, TIER_SCORES
from unified_search.config.section import Section
from unified_search.types import Intent


class IntentWeights(Section):
    """Weights of one intent's score: keyword match, freshness, authority."""

    keyword: float = Field(default=0.5, ge=0.0)
    """Weight of query-term coverage of the title and snippet."""
    freshness: float = Field(default=0.2, ge=0.0)
    """Weight of how recently the page was published."""
    authority: float = Field(default=0.3, ge=0.0)
    """Weight of the domain's authority tier."""


class IntentRerankConfig(Section):
    """Settings of the ``intent`` reranker.

    Example:
        >>> IntentRerankConfig(domain_tiers={"docs.example.com": 1}).tier_scores[1]
        1.0
    """

    weights: dict[Intent, IntentWeights] = Field(default_factory=dict)
    """Per-intent weights replacing the intent's builtin ones (see ``nlp.intent.STRATEGIES``)."""
    domain_tiers: dict[str, int] = Field(default_factory=lambda: dict(DOMAIN_TIERS))
    """Domain → authority tier (1, 2, 3); subdomains inherit their domain's tier, and a key with
    ``*`` is a pattern of the whole host (``docs.*``, ``*.edu``) used when no domain matches. A
    profile or file adds entries to the builtin table (mappings merge); a tier of 4 or more
    demotes."""
    tier_scores: dict[int, float] = Field(default_factory=lambda: dict(TIER_SCORES))
    """Authority of each tier, in 0..1."""
    default_authority: float = Field(default=0.4, ge=0.0, le=1.0)
    """Authority of a web page whose domain is in no tier."""
    local_authority: float = Field(default=0.8, ge=0.0, le=1.0)
    """Authority of items without a URL (your own knowledge base and database rows)."""
    intent_domains: dict[Intent, list[str]] = Field(
        default_factory=lambda: {Intent(k): list(v) for k, v in INTENT_DOMAINS.items()}
    )
    """Domains boosted for each intent."""
    boost_domains: list[str] = Field(default_factory=list)
    """Domains boosted whatever the intent (``--domain-boost`` on the command line)."""
    domain_boost: float = Field(default=0.2, ge=0.0, le=1.0)
    """Added to the authority (capped at 1) of a domain boosted for the query's intent."""
    undated_freshness: float = Field(default=0.5, ge=0.0, le=1.0)
    """Freshness of an item without a published date."""


class CrossEncoderConfig(Section):
    """Settings of the ``cross_encoder`` reranker."""

    model: str | None = None
    """A sentence-transformers cross-encoder name or local directory, or a ``.onnx`` file path.
    ``None`` means no model is configured (a scorer callable can still be given in code)."""
    tokenizer: str | None = None
    """For an ``.onnx`` model: the ``tokenizer.json`` file (default: next to the model)."""
    batch_size: int = Field(default=32, ge=1, le=1024)
    """Pairs scored per model call."""
    max_length: int = Field(default=512, ge=16, le=8192)
    """Longest tokenised (query, passage) pair; longer ones are truncated."""


class RemoteRerankConfig(Section):
    """Settings of a hosted rerank API (Cohere, Jina)."""

    api_key_env: Secret = Field(default_factory=lambda: Secret.from_env("COHERE_API_KEY"))
    """Environment variable holding the API key (read only when reranking)."""
    model: str = "rerank-v3.5"
    """Rerank model name."""
    base_url: str = "https://api.cohere.com"
    """API endpoint (a proxy or gateway may replace it)."""
    timeout: float = Field(default=30.0, gt=0)
    """Seconds one rerank call may take."""
    max_chars: int = Field(default=4000, ge=100)
    """Characters of each item sent (title and content)."""


def _jina() -> RemoteRerankConfig:
    return RemoteRerankConfig(
        api_key_env=Secret.from_env("JINA_API_KEY"),
        model="jina-reranker-v2-base-multilingual",
        base_url="https://api.jina.ai",
    )


class AgentRerankConfig(Section):
    """Settings of rerankers delegated to an agent or an MCP tool."""

    max_chars: int = Field(default=500, ge=20)
    """Characters of each item's content shown to the agent."""


class RerankConfig(Section):
    """Reranking settings.

    Example:
        >>> RerankConfig(rrf_k=10).cohere.model
        'rerank-v3.5'
    """

    top_n: int = Field(default=10, ge=1, le=1000)
    """Items kept after reranking when a request sets no ``rerank.top_n``."""
    rrf_k: int = Field(default=60, ge=1)
    """Reciprocal-rank-fusion constant: larger values flatten the gap between top ranks."""
    rrf_weights: list[float] | None = None
    """Weight of each fused list, in request order; ``None`` weighs every list 1."""
    intent: IntentRerankConfig = Field(default_factory=IntentRerankConfig)
    cross_encoder: CrossEncoderConfig = Field(default_factory=CrossEncoderConfig)
    cohere: RemoteRerankConfig = Field(default_factory=RemoteRerankConfig)
    jina: RemoteRerankConfig = Field(default_factory=_jina)
    agent: AgentRerankConfig = Field(default_factory=AgentRerankConfig)
