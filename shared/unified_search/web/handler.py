"""The web search handler: builtin providers in parallel, a web agent, or an MCP tool.

``uses.web`` picks the mode. ``builtin`` fans the request out over
``web.providers`` (or ``request.options["providers"]``), each answer going
through the cache, then merges them page by page. One provider failing is
recorded in ``SearchResult.failures``; the request fails only when all do.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import httpx

from unified_search._sync import run_sync
from unified_search.auth import Secret
from unified_search.config import SearchConfig
from unified_search.delegates import parse_uses
from unified_search.errors import ErrorCode, SearchError, as_search_error
from unified_search.handler import SearchContext
from unified_search.parallel import fan_out
from unified_search.types import ResultItem, SearchRequest, SearchResult, SearchType
from unified_search.web.cache import ResultCache, cache_key, make_cache
from unified_search.web.delegated import items_from_output
from unified_search.web.fusion import fuse
from unified_search.web.guard import Resolver, system_resolver
from unified_search.web.http import HttpClient, Sleep, scrubbed
from unified_search.web.provider import CallSettings, Provider
from unified_search.web.query import search_keywords
from unified_search.web.reader import Reader
from unified_search.web.registry import PROVIDERS, get_provider

#: When every provider failed, the error reported is the first of these codes found:
#: what the user must fix comes before what may pass by itself.
PRIORITY = (
    ErrorCode.INVALID_API_KEY,
    ErrorCode.NO_API_KEY,
    ErrorCode.QUOTA_EXCEEDED,
    ErrorCode.INVALID_QUERY,
    ErrorCode.UNSUPPORTED,
    ErrorCode.RATE_LIMITED,
    ErrorCode.TIMEOUT,
    ErrorCode.NETWORK_ERROR,
    ErrorCode.PROVIDER_ERROR,
    ErrorCode.UNKNOWN,
)
_DEFAULT: Any = object()
Outcome = list[ResultItem] | SearchError


class WebHandler:
    """Search the web through the configured providers, an agent or an MCP tool.

    Request options it reads: ``providers`` (a name or a list, replacing
    ``web.providers`` for this request) and ``engine`` (SerpApi's engine).
    Timeouts and retries come from the configuration the handler was built
    with; everything else (providers, limits, cache use, keys) from the
    configuration of each call. ``transport``, ``sleep`` and ``resolver`` are
    there for tests and benchmarks: a mock transport, a sleep that does not
    wait, a DNS resolver that answers from a table.

    Example:
        >>> config = SearchConfig.load(profile={"web": {"providers": ["searxng"]}})
        >>> async with Searcher(config, handlers={"web": WebHandler(config)}) as s:  # doctest: +SKIP
        ...     response = await s.asearch({"query": "postgres logical replication"})
    """

    def __init__(
        self,
        config: SearchConfig | None = None,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        sleep: Sleep = asyncio.sleep,
        resolver: Resolver = system_resolver,
        cache: ResultCache | None = _DEFAULT,
    ) -> None:
        self.config = config or SearchConfig()
        self.http = HttpClient.from_config(self.config.web, transport=transport, sleep=sleep)
        self.cache = make_cache(self.config.web.cache) if cache is _DEFAULT else cache
        self.resolver = resolver

    @classmethod
    def from_config(cls, config: SearchConfig) -> WebHandler:
        """Build the handler the ``web`` section describes."""
        return cls(config)

    async def search(self, request: SearchRequest, ctx: SearchContext) -> SearchResult:
        """Search the web for ``request`` (the keywords, where ``uses.keyword`` asks for them)."""
        keywords = await search_keywords(request, ctx)
        sent = request.model_copy(update={"query": " ".join(keywords)}) if keywords else request
        failures: list[SearchError] = []
        if parse_uses(ctx.config.uses.web).kind == "builtin":
            items, failures = await self._builtin(sent, ctx)
        else:
            items = await self._delegated(sent, ctx)
        return SearchResult(
            type=SearchType.WEB,
            query=request.query,
            items=items,
            total=len(items),
            failures=[failure.info() for failure in failures],
            keywords=keywords,
            metadata={"query_sent": sent.query},
        )

    async def retrieve(
        self, url: str, ctx_or_config: SearchContext | SearchConfig | None = None
    ) -> ResultItem:
        """Return the readable text of ``url`` (SSRF-guarded; see ``web.reader``)."""
        if isinstance(ctx_or_config, SearchContext):
            config = ctx_or_config.config
        else:
            config = ctx_or_config or self.config
        reader = Reader(config.web.reader, self.http, resolver=self.resolver)
        return await reader.read(url)

    def retrieve_sync(
        self, url: str, ctx_or_config: SearchContext | SearchConfig | None = None
    ) -> ResultItem:
        """Sync twin of ``retrieve``."""
        return run_sync(self.retrieve(url, ctx_or_config))

    async def aclose(self) -> None:
        """Close the HTTP clients and the cache."""
        await self.http.aclose()
        if self.cache is not None:
            await self.cache.aclose()

    # -- builtin providers ----------------------------------------------------------------

    async def _builtin(
        self, request: SearchRequest, ctx: SearchContext
    ) -> tuple[list[ResultItem], list[SearchError]]:
        providers = [get_provider(name) for name in provider_names(request, ctx.config)]
        jobs = [self._job(provider, request, ctx) for provider in providers]
        outcomes = await fan_out(jobs, on_error=lambda i, exc: _failure(exc, providers[i].name))
        lists = [o for o in outcomes if isinstance(o, list)]
        failures = [o for o in outcomes if isinstance(o, SearchError)]
        for failure in failures:
            await ctx.log("warn", f"web provider failed: {failure}")
        if not lists:
            raise most_informative(failures)
        return fuse(lists, request.limit or ctx.config.web.max_results), failures

    def _job(
        self, provider: Provider, request: SearchRequest, ctx: SearchContext
    ) -> Callable[[], Awaitable[Outcome]]:
        async def run() -> Outcome:
            return await self._call(provider, request, ctx)

        return run

    async def _call(
        self, provider: Provider, request: SearchRequest, ctx: SearchContext
    ) -> list[ResultItem]:
        settings = call_settings(provider, request, ctx.config)
        key = cache_key(provider.name, request, settings)
        cached = await self._cache_get(key, ctx)
        if cached is not None:
            await ctx.log("debug", f"{provider.name}: {len(cached)} results from the cache")
            return cached
        outgoing = provider.build_request(request, settings)
        await ctx.log("info", f"{provider.name}: searching")
        secrets = [settings.api_key or ""]
        response = await self.http.send(
            outgoing, provider=provider.name, rules=provider.rules, secrets=secrets
        )
        try:
            items = provider.parse_response(response, request)[: settings.limit]
        except SearchError as error:
            raise scrubbed(error, secrets) from None
        await self._cache_put(key, items, ctx)
        return items

    async def _cache_get(self, key: str, ctx: SearchContext) -> list[ResultItem] | None:
        if self.cache is None or not ctx.config.web.cache.enabled:
            return None
        try:
            return await self.cache.get(key)
        except Exception as exc:  # a broken cache slows searches down, it never fails them
            await ctx.log("warn", f"web cache read failed: {type(exc).__name__}: {exc}")
            return None

    async def _cache_put(self, key: str, items: list[ResultItem], ctx: SearchContext) -> None:
        if self.cache is None or not ctx.config.web.cache.enabled:
            return
        try:
            await self.cache.put(key, items)
        except Exception as exc:  # see _cache_get
            await ctx.log("warn", f"web cache write failed: {type(exc).__name__}: {exc}")

    # -- agent and MCP --------------------------------------------------------------------

    async def _delegated(self, request: SearchRequest, ctx: SearchContext) -> list[ResultItem]:
        uses = ctx.config.uses.web
        limit = request.limit or ctx.config.web.max_results
        payload = {
            "query": request.query,
            "limit": limit,
            "sites": list(request.sites),
            "time_range": request.time_range,
        }
        try:
            output = await ctx.delegates.call(uses, payload, ctx.config)
        except SearchError:
            raise
        except Exception as exc:
            raise SearchError(
                ErrorCode.PROVIDER_ERROR, f"{type(exc).__name__}: {exc}", provider=uses
            ) from exc
        return fuse([items_from_output(output, provider=uses)], limit)


def provider_names(request: SearchRequest, config: SearchConfig) -> list[str]:
    """Return the providers to query, checked before anything is sent."""
    chosen = request.options.get("providers", config.web.providers)
    if isinstance(chosen, str):
        chosen = [chosen]
    if not isinstance(chosen, list | tuple) or not chosen:
        valid = ", ".join(sorted(PROVIDERS))
        raise SearchError(
            ErrorCode.UNSUPPORTED, f"no web provider configured: set web.providers (valid: {valid})"
        )
    names = list(dict.fromkeys(str(name) for name in chosen))
    for name in names:
        get_provider(name)
    return names


def call_settings(provider: Provider, request: SearchRequest, config: SearchConfig) -> CallSettings:
    """Resolve limit, depth, endpoint, engine and key (NO_API_KEY before anything is sent)."""
    settings = config.web.provider_settings(provider.name)
    api_key = None
    if provider.needs_key:
        if not settings.api_key_env:
            raise SearchError(
                ErrorCode.NO_API_KEY,
                f"no API key: web.{provider.name}.api_key_env is not set",
                provider=provider.name,
            )
        api_key = Secret.from_env(settings.api_key_env).resolve(provider=provider.name)
    from_env = os.environ.get(settings.base_url_env) if settings.base_url_env else None
    return CallSettings(
        limit=request.limit or config.web.max_results,
        depth=request.search_depth or config.web.search_depth,
        api_key=api_key,
        base_url=settings.base_url or from_env or None,
        engine=settings.engine,
    )


def most_informative(errors: Sequence[SearchError]) -> SearchError:
    """Pick the error to report when every provider failed; its message lists them all."""
    if len(errors) == 1:
        return errors[0]
    best = min(
        errors, key=lambda e: PRIORITY.index(e.code) if e.code in PRIORITY else len(PRIORITY)
    )
    summary = "; ".join(str(error) for error in errors)
    return SearchError(
        best.code,
        f"every web provider failed: {summary}",
        provider=best.provider,
        retryable=best.retryable,
        retry_after=best.retry_after,
    )


def _failure(exc: BaseException, provider: str) -> SearchError:
    """Turn a provider's failure into a ``SearchError`` that names the provider."""
    error = as_search_error(exc, provider=provider)
    if error.provider is None:
        error.provider = provider
    return error
