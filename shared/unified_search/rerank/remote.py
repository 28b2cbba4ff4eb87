"""Hosted rerank APIs: Cohere (v2 rerank) and Jina (v1 rerank).

Each provider is a pair of pure functions, one building the ``httpx.Request``
and one reading the ``httpx.Response``; ``RemoteReranker`` sends it. Every
candidate is sent and asked for (``top_n`` = all), so the answer orders every
item; indices the API leaves out or repeats keep the old order at the end.
HTTP failures map to ``SearchError`` codes the same way for both APIs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import httpx

from unified_search.config import SearchConfig
from unified_search.errors import ErrorCode, SearchError
from unified_search.rerank.base import check_top_n, cut, passage, with_rerank_score
from unified_search.rerank.config import RemoteRerankConfig
from unified_search.types import ResultItem

Provider = Literal["cohere", "jina"]

#: Path of the rerank endpoint under each provider's ``base_url``.
ENDPOINTS: dict[Provider, str] = {"cohere": "/v2/rerank", "jina": "/v1/rerank"}

_STATUS_CODES: dict[int, ErrorCode] = {
    400: ErrorCode.INVALID_QUERY,
    401: ErrorCode.INVALID_API_KEY,
    402: ErrorCode.QUOTA_EXCEEDED,
    403: ErrorCode.INVALID_API_KEY,
    422: ErrorCode.INVALID_QUERY,
    429: ErrorCode.RATE_LIMITED,
    498: ErrorCode.INVALID_API_KEY,
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
    """Read ``(index, relevance_score)`` pairs, best first, or raise the mapped ``SearchError``."""
    if response.status_code != 200:
        raise status_error(response, provider)
    try:
        results = response.json()["results"]
        return [(int(r["index"]), float(r["relevance_score"])) for r in results]
    except (ValueError, KeyError, TypeError) as exc:
        raise SearchError(
            ErrorCode.PROVIDER_ERROR, f"unexpected rerank response: {exc}", provider=provider
        ) from exc


def status_error(response: httpx.Response, provider: Provider) -> SearchError:
    """Map an HTTP error response to a ``SearchError`` carrying the provider's message."""
    code = _STATUS_CODES.get(response.status_code)
    if code is None:
        code = ErrorCode.PROVIDER_ERROR if response.status_code >= 500 else ErrorCode.UNKNOWN
    return SearchError(
        code,
        f"HTTP {response.status_code}: {_message(response)}",
        provider=provider,
        retry_after=_retry_after(response),
    )


def _message(response: httpx.Response) -> str:
    try:
        body = response.json()
    except ValueError:
        return response.text[:200] or response.reason_phrase
    if isinstance(body, dict):
        for key in ("message", "detail", "error"):
            if isinstance(body.get(key), str):
                return str(body[key])
    return str(body)[:200]


def _retry_after(response: httpx.Response) -> float | None:
    try:
        return float(response.headers["Retry-After"])
    except (KeyError, ValueError):
        return None


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


class RemoteReranker:
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
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.name: str = provider
        self.provider: Provider = provider
        self.config = config
        self.transport = transport

    @classmethod
    def from_config(cls, provider: Provider, config: SearchConfig) -> RemoteReranker:
        """Build from ``rerank.cohere`` or ``rerank.jina``."""
        section = config.rerank.cohere if provider == "cohere" else config.rerank.jina
        return cls(provider, section)

    async def rerank(
        self,
        query: str,
        items: Sequence[ResultItem],
        *,
        top_n: int | None = None,
        lists: Sequence[Sequence[ResultItem]] | None = None,
    ) -> list[ResultItem]:
        """Return the items in the API's order, cut to ``top_n``."""
        check_top_n(top_n)
        if not items:
            return []
        key = self.config.api_key_env.resolve(provider=self.provider)
        call = RerankCall(self.provider, self.config, key)
        request = build_request(call, query, [passage(i, self.config.max_chars) for i in items])
        response = await self._send(request)
        return reorder(items, parse_response(response, self.provider), top_n)

    async def _send(self, request: httpx.Request) -> httpx.Response:
        timeout = httpx.Timeout(self.config.timeout)
        async with httpx.AsyncClient(transport=self.transport, timeout=timeout) as client:
            try:
                return await client.send(request)
            except httpx.TimeoutException as exc:
                raise SearchError(
                    ErrorCode.TIMEOUT, "the rerank API timed out", provider=self.provider
                ) from exc
            except httpx.TransportError as exc:
                raise SearchError(
                    ErrorCode.NETWORK_ERROR,
                    f"cannot reach the rerank API: {exc}",
                    provider=self.provider,
                ) from exc
