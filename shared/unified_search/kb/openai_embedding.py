"""An embedding function over any OpenAI-compatible ``/embeddings`` endpoint.

Embedding functions are called synchronously from worker threads during
ingestion and search; the call runs on the library's background loop through
the shared HTTP layer (``unified_search.http``: pooled client, timeouts,
retries honouring ``Retry-After``, status table, redaction). The transport can
be injected, which is how the tests fake the endpoint.
"""

from __future__ import annotations

from typing import Any

import httpx

from unified_search._sync import run_sync
from unified_search.auth import Secret
from unified_search.config.kb import EmbeddingConfig
from unified_search.errors import ErrorCode, SearchError
from unified_search.http import HttpClient, json_body

PROVIDER = "embeddings"


class OpenAIEmbedding:
    """Embed texts through ``POST {base_url}/embeddings``.

    Example:
        Not run here: it calls the OpenAI API.

        >>> embed = OpenAIEmbedding("text-embedding-3-small", api_key="sk-...")  # doctest: +SKIP
        >>> embed(["hello"])  # doctest: +SKIP
    """

    def __init__(
        self,
        model: str,
        *,
        api_key: str | Secret | None = None,
        base_url: str = "https://api.openai.com/v1",
        timeout: float = 30.0,
        transport: httpx.AsyncBaseTransport | None = None,
        http: HttpClient | None = None,
    ) -> None:
        self.name = model
        self._model = model
        self._url = base_url.rstrip("/") + "/embeddings"
        secret = Secret.from_token(api_key) if isinstance(api_key, str) else api_key
        self._key = secret.resolve(provider=PROVIDER) if secret and secret.is_set() else None
        self._timeout = timeout
        self._owns_http = http is None
        self._http = http or HttpClient(timeout=timeout, transport=transport)

    @classmethod
    def from_config(
        cls,
        config: EmbeddingConfig,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        http: HttpClient | None = None,
    ) -> OpenAIEmbedding:
        """Build the client from ``kb.embedding``, reading the key from its environment variable."""
        return cls(
            config.model,
            api_key=config.api_key_env,
            base_url=config.base_url,
            transport=transport,
            http=http,
        )

    def __call__(self, texts: list[str]) -> list[list[float]]:
        """Return one vector per text, in input order."""
        if not texts:
            return []
        return run_sync(self.aembed(list(texts)))

    async def aembed(self, texts: list[str]) -> list[list[float]]:
        """Async twin of calling the function: one vector per text, in input order."""
        if not texts:
            return []
        headers = {"Authorization": f"Bearer {self._key}"} if self._key else {}
        request = httpx.Request(
            "POST", self._url, json={"model": self._model, "input": texts}, headers=headers
        )
        return await self._http.call(
            request,
            lambda response: _vectors(response, len(texts)),
            provider=PROVIDER,
            timeout=self._timeout,
        )

    def close(self) -> None:
        """Close the HTTP connection pool (when this function made it)."""
        if self._owns_http:
            run_sync(self._http.aclose())


def _vectors(response: httpx.Response, expected: int) -> list[list[float]]:
    data = json_body(response, provider=PROVIDER)
    try:
        rows: list[dict[str, Any]] = data["data"]
        ordered = sorted(rows, key=lambda row: int(row["index"]))
        vectors = [[float(x) for x in row["embedding"]] for row in ordered]
    except (ValueError, KeyError, TypeError) as exc:
        raise SearchError(
            ErrorCode.PROVIDER_ERROR, "embedding endpoint sent no vectors", provider=PROVIDER
        ) from exc
    if len(vectors) != expected:
        raise SearchError(
            ErrorCode.PROVIDER_ERROR,
            f"embedding endpoint sent {len(vectors)} of {expected} vectors",
            provider=PROVIDER,
        )
    return vectors
