"""Configuration of web search (the ``web`` section)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from unified_search.auth import Secret
from unified_search.config.section import Section
from unified_search.types import SearchDepth

CacheBackend = Literal["memory", "sqlite", "redis"]
Extractor = Literal["auto", "trafilatura", "builtin"]


class ProviderSettings(Section):
    """How to reach one search provider."""

    api_key_env: Secret | None = None
    """Environment variable holding the API key; read only when a request is built."""
    base_url: str | None = None
    """Endpoint override (a proxy, a gateway, or a SearXNG instance); ``None`` uses the default."""
    base_url_env: str | None = None
    """Environment variable holding the endpoint, used when ``base_url`` is not set."""
    engine: str | None = None
    """Search engine behind a meta-search API (SerpAPI: ``google``, ``bing``, ``baidu`` ...)."""
    requests_per_second: float | None = Field(default=None, gt=0)
    """Most requests per second sent to this provider (a shared limiter); ``None``: no limit."""
    images: bool = False
    """Ask for images about the query on every search (providers that return images: Tavily),
    as a request's ``include_images`` does; they come in ``SearchResult.metadata["extras"]``."""
    image_descriptions: bool = False
    """With images, also ask for a description of each (a request's
    ``include_image_descriptions`` does too)."""


def _settings(**values: str | bool) -> ProviderSettings:
    """Provider settings from plain values (the key variable becomes a ``Secret``)."""
    return ProviderSettings.model_validate(values)


class CacheConfig(Section):
    """Where provider answers are kept, and for how long. Errors are never cached."""

    enabled: bool = True
    """Keep provider answers for ``ttl`` seconds."""
    backend: CacheBackend = "sqlite"
    """``sqlite`` (a file in the data folder: survives restarts, shared by the processes of one
    machine), ``memory`` (one process) or ``redis`` (shared by several machines)."""
    ttl: float = Field(default=3600.0, gt=0)
    """Seconds an answer stays fresh."""
    max_entries: int = Field(default=50, ge=1)
    """Least recently used answers are dropped beyond this many."""
    path: str | None = None
    """SQLite file of the ``sqlite`` backend; default ``web-cache.sqlite3`` in the data folder."""
    url: str = "redis://127.0.0.1:6379/0"
    """Server of the ``redis`` backend."""
    prefix: str = "unified-search:web:"
    """Key prefix of the ``redis`` backend, so several caches can share one server."""
    timeout: float = Field(default=1.0, gt=0)
    """Seconds one cache operation may take (Redis connect and read timeouts); a slower cache
    is skipped for this search and the providers answer."""
    pause: float = Field(default=30.0, ge=0)
    """Seconds the cache is left alone after it failed, so a dead server costs one timeout."""
    lock_ttl: float = Field(default=10.0, gt=0)
    """Longest time identical concurrent searches in several processes wait for the one
    provider call they share (the ``redis`` backend). The lock itself lives three ``timeout``s
    and is renewed while its holder calls, so a process that dies mid-call frees it soon."""


class JinaSettings(Section):
    """Jina Reader, which turns a page into clean text on its side."""

    enabled: bool = False
    """Fetch pages through Jina Reader instead of directly."""
    api_key_env: Secret = Field(default_factory=lambda: Secret.from_env("JINA_API_KEY"))
    """Optional key: Jina Reader also works without one, at a lower rate limit."""
    base_url: str = "https://r.jina.ai/"
    """Jina Reader endpoint."""


class ReaderConfig(Section):
    """URL retrieval (``retrieve``): fetching the readable text of one page."""

    jina: JinaSettings = Field(default_factory=JinaSettings)
    max_chars: int = Field(default=10_000, ge=1)
    """Characters of text kept from a page."""
    max_bytes: int = Field(default=5_000_000, ge=1024)
    """Bytes read from a page before the download stops, counted on the wire and once decoded."""
    deadline: float = Field(default=20.0, gt=0)
    """Seconds one ``retrieve`` may take in all (redirects, retries and a slow body included);
    each read also has ``web.timeout``."""
    extractor: Extractor = "auto"
    """Main-text extraction of HTML pages: ``trafilatura`` (the ``extract`` extra),
    ``builtin`` (standard library), or ``auto`` (trafilatura when installed, builtin for pages
    over a million characters, where trafilatura takes many seconds)."""
    concurrency: int = Field(default=4, ge=1, le=32)
    """Pages fetched at once by ``retrieve_many``."""
    max_redirects: int = Field(default=5, ge=0, le=20)
    """Redirects followed, each one checked by the SSRF guard again."""
    allow_private_hosts: bool = False
    """Fetch hosts that resolve to private, loopback or link-local addresses (off: SSRF guard)."""


class WebConfig(Section):
    """Web search settings.

    Example:
        >>> WebConfig(providers=["searxng"], searxng={"base_url": "http://127.0.0.1:8888"}).timeout
        10.0
    """

    providers: list[str] = Field(default_factory=list)
    """Providers to query in parallel (``tavily``, ``serper``, ``serpapi``, ``brave``, ``exa``, ``searxng``).
    Empty: the first provider whose key (SearXNG: URL) is in the environment, Tavily first."""
    max_results: int = Field(default=10, ge=1, le=100)
    """Most results per request when the request sets no ``limit``."""
    search_depth: SearchDepth = "basic"
    """Depth asked of providers that support it when the request does not say."""
    timeout: float = Field(default=10.0, gt=0)
    """Seconds for one HTTP exchange (connect, read, write and pool wait each)."""
    retries: int = Field(default=2, ge=0, le=10)
    """Extra attempts after a retryable failure (rate limit, 5xx, timeout, network)."""
    backoff: float = Field(default=0.5, ge=0)
    """First retry delay in seconds; each further retry doubles it."""
    max_retry_wait: float = Field(default=10.0, ge=0)
    """Longest wait before a retry; a provider whose ``Retry-After`` asks for more fails at once
    with RATE_LIMITED and ``retry_after`` (it is never retried sooner than it said)."""
    deadline: float | None = Field(default=None, gt=0)
    """Seconds a web search may take in all; providers still busy then (or only waiting to
    retry while others have answered) are reported as failed and the results in hand return.
    ``None``: just under ``options.timeout``."""
    tavily: ProviderSettings = Field(
        default_factory=lambda: _settings(
            api_key_env="TAVILY_API_KEY", images=True, image_descriptions=True
        )
    )
    """Images and their descriptions are on, as the browser design asks Tavily for them."""
    serper: ProviderSettings = Field(
        default_factory=lambda: _settings(api_key_env="SERPER_API_KEY")
    )
    serpapi: ProviderSettings = Field(
        default_factory=lambda: _settings(api_key_env="SERPAPI_API_KEY", engine="google")
    )
    brave: ProviderSettings = Field(default_factory=lambda: _settings(api_key_env="BRAVE_API_KEY"))
    exa: ProviderSettings = Field(default_factory=lambda: _settings(api_key_env="EXA_API_KEY"))
    searxng: ProviderSettings = Field(default_factory=lambda: _settings(base_url_env="SEARXNG_URL"))
    """Keyless; the instance comes from ``base_url`` or ``$SEARXNG_URL``."""
    cache: CacheConfig = Field(default_factory=CacheConfig)
    reader: ReaderConfig = Field(default_factory=ReaderConfig)

    def provider_settings(self, name: str) -> ProviderSettings:
        """Return the settings of provider ``name`` (empty settings for a provider without any)."""
        value = getattr(self, name, None)
        return value if isinstance(value, ProviderSettings) else ProviderSettings()
