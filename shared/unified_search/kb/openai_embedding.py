"""An embedding function over any OpenAI-compatible ``/embeddings`` endpoint.

Embedding functions are called from worker threads during ingestion and
search, so this client is synchronous (``httpx.Client``); the transport can be
injected, which is how the tests fake the endpoint.
"""

from __future__ import annotations

import os
from typing import Any

import httpx

from unified_search.errors import ErrorCode, SearchError
from unified_search.kb.config import EmbeddingConfig

_STATUS_CODES = {401: ErrorCode.INVALID_API_KEY, 403: ErrorCode.INVALID_API_KEY}


class OpenAIEmbedding:
    """Embed texts through ``POST {base_url}/embeddings``.

    Example:
        >>> embed = OpenAIEmbedding("text-embedding-3-small", api_key="sk-...")  # doctest: +SKIP
        >>> embed(["hello"])  # doctest: +SKIP
    """

    def __init__(
        self,
        model: str,
        *,
        api_key: str | None = None,
        base_url: str = "https://api.openai.com/v1",
        timeout: float = 30.0,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self.name = model
        self._model = model
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = httpx.Client(
            base_url=base_url.rstrip("/") + "/",
            headers=headers,
            timeout=httpx.Timeout(timeout),
            transport=transport,
        )

    @classmethod
    def from_config(
        cls, config: EmbeddingConfig, *, transport: httpx.BaseTransport | None = None
    ) -> OpenAIEmbedding:
        """Build the client from ``kb.embedding``, reading the key from its environment variable."""
        key = os.environ.get(config.api_key_env)
        return cls(config.model, api_key=key, base_url=config.base_url, transport=transport)

    def __call__(self, texts: list[str]) -> list[list[float]]:
        """Return one vector per text, in input order."""
        if not texts:
            return []
        payload = {"model": self._model, "input": list(texts)}
        try:
            response = self._client.post("embeddings", json=payload)
        except httpx.TimeoutException as exc:
            raise SearchError(ErrorCode.TIMEOUT, "embedding endpoint timed out") from exc
        except httpx.HTTPError as exc:
            raise SearchError(ErrorCode.NETWORK_ERROR, f"embedding endpoint: {exc}") from exc
        return _parse(response, len(texts))

    def close(self) -> None:
        """Close the HTTP connection pool."""
        self._client.close()


def _parse(response: httpx.Response, expected: int) -> list[list[float]]:
    if response.status_code >= 400:
        code = _STATUS_CODES.get(response.status_code, ErrorCode.PROVIDER_ERROR)
        if response.status_code == 429:
            code = ErrorCode.RATE_LIMITED
        raise SearchError(code, f"embedding endpoint answered HTTP {response.status_code}")
    try:
        rows: list[dict[str, Any]] = response.json()["data"]
        ordered = sorted(rows, key=lambda row: int(row["index"]))
        vectors = [[float(x) for x in row["embedding"]] for row in ordered]
    except (ValueError, KeyError, TypeError) as exc:
        raise SearchError(ErrorCode.PROVIDER_ERROR, "embedding endpoint sent no vectors") from exc
    if len(vectors) != expected:
        raise SearchError(
            ErrorCode.PROVIDER_ERROR,
            f"embedding endpoint sent {len(vectors)} of {expected} vectors",
        )
    return vectors
