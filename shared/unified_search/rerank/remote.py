"""Hosted rerank APIs: Cohere (v2 rerank) and Jina (v1 rerank).

Each provider is a pair of pure functions, one building the ``httpx.Request``
and one reading the ``httpx.Response``; the shared HTTP layer
(``unified_search.http``) sends it, with its timeouts, retries, status table and
redaction. Every candidate is sent and asked for (``top_n`` = all), so the
answer orders every item; indices the API leaves out or repeat keep the old
order at the end.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import httpx

from unified_search.config.rerank import RemoteRerankConfig
from unified_search.config.search import SearchConfig
from unified_search.errors import ErrorCode, SearchError
from unified_search.http import HttpClient, Rule, json_body
from unified_search.rerank.base import (
    Lists,
    RerankerBase,
    cut,
    passage,
    with_rerank_score,
)
from unified_search.types import ResultItem

Provider = Literal["cohere", "jina"]

#: Path of the rerank endpoint under each provider's ``base_url``.
ENDPOINTS: dict[Provider, str] = {"cohere": "/v2/rerank", "jina": "/v1/rerank"}
#: Each API's own status meanings (the shared defaults cover 400/401/402/403/422/429).
RULES: dict[Provider, tuple[Rule, ...]] = {
    "cohere": (
        Rule(498, ErrorCode.INVALID_API_KEY, hint="invalid token"),
        Rule(499, ErrorCode.PROVIDER_ERROR, hint="request cancelled"),
    ),
    "jina": (),
}


@dataclass(frozen=True)
class RerankCall:
    """What to send: the provider, its settings and the resolved key."""

    provider: Provider
    config: RemoteRerankConfig
    api_key: str


def build_request(call: RerankCall, query: str, documents: Sequence[str]) -> httpx.Request:
    """The rerank request for ``documents`` (all of them ranked, texts not echoed)."""
    body: dict[str, Any] = {
        "model": call.config.model,
        "query": query,
        "documents": list(documents),
        "top_n": len(documents),
    }
    if call.provider == "jina":
        body["return_documents"] = False
    return httpx.Request(
        "POST",
        call.config.base_url.rstrip("/") + ENDPOINTS[call.provider],
        json=body,
        headers={"Authorization": f"Bearer {call.api_key}", "Accept": "application/json"},
    )


def parse_response(response: httpx.Response, provider: Provider) -> list[tuple[int, float]]:
    """Read ``(index, relevance_score)`` pairs, best first, from a successful answer."""
    data = json_body(response, provider=provider)
    try:
        return [(int(r["index"]), float(r["relevance_score"])) for r in data["results"]]
    except (ValueError, KeyError, TypeError) as exc:
        raise SearchError(
            ErrorCode.PROVIDER_ERROR,
            f"unexpected rerank response: no results ({type(exc).__name__})",
            provider=provider,
        ) from None


def reorder(
    items: Sequence[ResultItem], ranking: Sequence[tuple[int, float]], top_n: int | None
) -> list[ResultItem]:
    """Put ``items`` in the API's order; out-of-range or repeated indices are skipped."""
    scores: dict[int, float] = {}
    for index, score in ranking:
        if 0 <= index < len(items) and index not in scores:
            scores[index] = score
    order = list(scores) + [i for i in range(len(items)) if i not in scores]
    return cut([with_rerank_score(items[i], scores.get(i, 0.0)) for i in order], top_n)


class RemoteReranker(RerankerBase):
    """Rerank through Cohere or Jina; the API key is read from the environment when called.

    Example:
        >>> reranker = RemoteReranker("jina", RemoteRerankConfig(api_key_env="JINA_API_KEY"))
        >>> reranker.name
        'jina'
    """

    def __init__(
        self,
        provider: Provider,
        config: RemoteRerankConfig,
        *,
        http: HttpClient | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.name: str = provider
        self.provider: Provider = provider
        self.config = config
        self.http = http
        self.transport = transport

    @classmethod
    def from_config(
        cls, provider: Provider, config: SearchConfig, *, http: HttpClient | None = None
    ) -> RemoteReranker:
        """Build from ``rerank.cohere`` or ``rerank.jina``, on a shared HTTP client if given."""
        section = config.rerank.cohere if provider == "cohere" else config.rerank.jina
        return cls(provider, section, http=http)

    async def _order(
        self, query: str, items: Sequence[ResultItem], top_n: int | None, lists: Lists
    ) -> list[ResultItem]:
        """Return the items in the API's order, cut to ``top_n``."""
        key = self.config.api_key_env.resolve(provider=self.provider)
        call = RerankCall(self.provider, self.config, key)
        request = build_request(call, query, [passage(i, self.config.max_chars) for i in items])
        ranking = await self._call(request)
        return reorder(items, ranking, top_n)

    async def _call(self, request: httpx.Request) -> list[tuple[int, float]]:
        """Send through the shared client, or a client of our own for this one call."""

        def parse(response: httpx.Response) -> list[tuple[int, float]]:
            return parse_response(response, self.provider)

        rules = RULES[self.provider]
        if self.http is not None:
            return await self.http.call(
                request, parse, provider=self.provider, rules=rules, timeout=self.config.timeout
            )
        async with HttpClient(timeout=self.config.timeout, transport=self.transport) as http:
            return await http.call(request, parse, provider=self.provider, rules=rules)
