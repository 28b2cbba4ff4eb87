"""The reranker registry: builtin rerankers by name, agents and MCP tools by ``uses`` value.

``builtin`` (the design's name) is ``weighted``. Every reranker but ``weighted`` is wrapped so that a failure falls back to the
weighted order with a logged warning.
"""

from __future__ import annotations

from collections.abc import Callable

from unified_search.config.search import SearchConfig
from unified_search.contract.delegates import Delegates, parse_uses
from unified_search.errors import ConfigurationError, ErrorCode, SearchError
from unified_search.http import HttpClient
from unified_search.rerank.base import Reranker
from unified_search.rerank.cross_encoder import CrossEncoderReranker
from unified_search.rerank.delegate import DelegateReranker
from unified_search.rerank.embedding import EmbeddingReranker
from unified_search.rerank.fallback import FallbackReranker
from unified_search.rerank.intent import IntentReranker
from unified_search.rerank.remote import RemoteReranker
from unified_search.rerank.rrf import RRFReranker
from unified_search.rerank.weighted import WeightedReranker

#: Builds a reranker from the configuration, the registered agents and the HTTP client to share.
RerankerFactory = Callable[[SearchConfig, Delegates, HttpClient | None], Reranker]

#: The reranker the design calls ``builtin``: score × weight, which never fails.
PLAIN = ("weighted", "builtin")

#: Builtin rerankers by name.
RERANKERS: dict[str, RerankerFactory] = {
    "weighted": lambda config, delegates, http: WeightedReranker(),
    "builtin": lambda config, delegates, http: WeightedReranker(),
    "rrf": lambda config, delegates, http: RRFReranker.from_config(config),
    "intent": lambda config, delegates, http: IntentReranker.from_config(config),
    "embedding": lambda config, delegates, http: EmbeddingReranker(),
    "cross_encoder": lambda config, delegates, http: CrossEncoderReranker.from_config(config),
    "cohere": lambda config, delegates, http: RemoteReranker.from_config(
        "cohere", config, http=http
    ),
    "jina": lambda config, delegates, http: RemoteReranker.from_config("jina", config, http=http),
}


def get_reranker(
    name: str, config: SearchConfig, delegates: Delegates, *, http: HttpClient | None = None
) -> Reranker:
    """Build the reranker called ``name``: a builtin, a registered agent or ``mcp:<server>.<tool>``.

    Rerank APIs send through ``http`` (a searcher's pooled client) when given.
    An unknown name fails with ``UNSUPPORTED``, listing the builtin rerankers and
    the registered agents.
    """
    factory = RERANKERS.get(name)
    if factory is not None:
        reranker = factory(config, delegates, http)
        return reranker if name in PLAIN else FallbackReranker(reranker)
    if _is_delegate(name, delegates):
        return FallbackReranker(DelegateReranker(name, config, delegates))
    builtin = ", ".join(sorted(RERANKERS))
    agents = ", ".join(delegates.names()) or "none registered"
    raise SearchError(
        ErrorCode.UNSUPPORTED,
        f"unknown reranker {name!r}; builtin rerankers: {builtin}; registered agents: {agents}; "
        "or mcp:<server>.<tool>",
    )


def _is_delegate(name: str, delegates: Delegates) -> bool:
    try:
        uses = parse_uses(name)
    except ConfigurationError:
        return False
    return uses.kind == "mcp" or (uses.kind == "agent" and name in delegates.names())
