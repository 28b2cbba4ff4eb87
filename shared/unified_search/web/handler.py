"""The web search handler: builtin providers in parallel, a web agent, or an MCP tool.

``uses.web`` picks the mode. ``builtin`` fans the request out over
``web.providers`` (or ``request.options["providers"]``; with neither, the first
provider whose key is in the environment), each answer going through the
cache, then merges them page by page. One provider failing is recorded in
``SearchResult.failures``; the request fails only when all do. Answers,
images and related questions are merged into ``SearchResult.metadata["extras"]``
(``unified_search.web.extras.WebExtras``).
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

import httpx

from unified_search._sync import sync_twin
from unified_search.auth import Secret
from unified_search.config.search import SearchConfig
from unified_search.contract.delegates import parse_uses
from unified_search.contract.handler import SearchContext
from unified_search.contract.steps import StepName
from unified_search.dates import parse_date, within_period
from unified_search.errors import ErrorCode, SearchError, provider_failure
from unified_search.http import Clock, Deadline, HttpClient, OnBackoff, Sleep
from unified_search.types import ResultItem, SearchRequest, SearchResult, SearchType
from unified_search.urls import in_domains
from unified_search.web.cache import ResultCache, cache_key, make_cache
from unified_search.web.delegated import items_from_output
from unified_search.web.extras import METADATA_KEY, ProviderAnswer, WebExtras
from unified_search.web.flight import CachedCalls
from unified_search.web.fusion import fuse
from unified_search.web.gather import ProviderCall, gather_answers
from unified_search.web.guard import Resolver, system_resolver
from unified_search.web.provider import CallSettings, Provider
from unified_search.web.query import search_keywords
from unified_search.web.reader import Reader, Retrieved
from unified_search.web.registry import PROVIDERS, get_provider, keyed_providers, no_provider_error

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
#: Share of ``options.timeout`` (at most one second) kept back so the web search ends first.
DEADLINE_MARGIN = 0.1
_DEFAULT: Any = object()


class WebHandler:
    """Search the web through the configured providers, an agent or an MCP tool.

    Request options it reads: ``providers`` (a name or a list, replacing
    ``web.providers`` for this request) and ``engine`` (SerpApi's engine).
    Timeouts and retries come from the HTTP client (``http``, built from the
    configuration when not given, and then closed by ``aclose``); everything
    else (providers, limits, cache use, keys) from the configuration of each
    call. ``transport``, ``sleep``, ``clock``, ``resolver`` and ``now`` are there
    for tests and benchmarks: a mock transport, a sleep that does not wait and
    the clock it moves, a DNS resolver that answers from a table, a fixed time
    for relative dates.

    Example:
        Not run here: it needs a SearXNG server.

        >>> config = SearchConfig.load(profile={"web": {"providers": ["searxng"]}})
        >>> async with Searcher(config, handlers={"web": WebHandler(config)}) as s:  # doctest: +SKIP
        ...     response = await s.asearch({"query": "postgres logical replication"})
    """

    def __init__(
        self,
        config: SearchConfig | None = None,
        *,
        http: HttpClient | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        sleep: Sleep = asyncio.sleep,
        clock: Clock = time.monotonic,
        resolver: Resolver = system_resolver,
        cache: ResultCache | None = _DEFAULT,
        now: Callable[[], datetime] | None = None,
    ) -> None:
        self.config = config or SearchConfig()
        self._owns_http = http is None
        self.http = http or HttpClient.from_config(
            self.config, transport=transport, sleep=sleep, clock=clock
        )
        self.cache = make_cache(self.config.web.cache) if cache is _DEFAULT else cache
        self.calls = CachedCalls(self.cache, self.config.web.cache)
        self.resolver = resolver
        self.now = now

    @classmethod
    def from_config(cls, config: SearchConfig, *, http: HttpClient | None = None) -> WebHandler:
        """Build the handler the ``web`` section describes, on a shared client if given."""
        return cls(config, http=http)

    async def asearch(self, request: SearchRequest, ctx: SearchContext) -> SearchResult:
        """Search the web for ``request`` (the keywords, where ``uses.keyword`` asks for them)."""
        keywords = await search_keywords(request, ctx)
        sent = request.model_copy(update={"query": " ".join(keywords)}) if keywords else request
        failures: list[SearchError] = []
        extras = WebExtras()
        if parse_uses(ctx.config.uses.web).kind == "builtin":
            items, failures, extras = await self._builtin(sent, ctx)
        else:
            items = await self._delegated(sent, ctx)
        now = self.now() if self.now else datetime.now(UTC)
        items = await _as_asked(items, request, ctx, now)
        metadata: dict[str, Any] = {"query_sent": sent.query}
        if not extras.is_empty():
            metadata[METADATA_KEY] = extras.model_dump(mode="json")
        return SearchResult(
            type=SearchType.WEB,
            query=request.query,
            items=items,
            total=len(items),
            failures=[failure.info() for failure in failures],
            keywords=keywords,
            metadata=metadata,
        )

    async def aretrieve(
        self, url: str, ctx_or_config: SearchContext | SearchConfig | None = None
    ) -> ResultItem:
        """Return the readable text of ``url`` (SSRF-guarded, deadline-bound; see ``web.reader``)."""
        return await self._reader(ctx_or_config).read(url)

    retrieve = sync_twin(aretrieve)

    async def aretrieve_many(
        self, urls: Sequence[str], ctx_or_config: SearchContext | SearchConfig | None = None
    ) -> list[Retrieved]:
        """Read several URLs concurrently: one ``Retrieved`` per URL, in order, item or coded error."""
        return await self._reader(ctx_or_config).read_many(urls)

    retrieve_many = sync_twin(aretrieve_many)

    async def aclose(self) -> None:
        """Close the HTTP client (when this handler made it) and the cache."""
        if self._owns_http:
            await self.http.aclose()
        if self.cache is not None:
            await self.cache.aclose()

    def _reader(self, ctx_or_config: SearchContext | SearchConfig | None) -> Reader:
        if isinstance(ctx_or_config, SearchContext):
            config = ctx_or_config.config
        else:
            config = ctx_or_config or self.config
        return Reader(config.web.reader, self.http, resolver=self.resolver)

    # -- builtin providers ----------------------------------------------------------------

    async def _builtin(
        self, request: SearchRequest, ctx: SearchContext
    ) -> tuple[list[ResultItem], list[SearchError], WebExtras]:
        providers = [get_provider(name) for name in provider_names(request, ctx.config)]
        deadline = self.http.deadline(web_deadline(ctx.config))
        calls = [ProviderCall(p.name, self._caller(p, request, ctx, deadline)) for p in providers]
        outcomes = await gather_answers(calls, deadline)
        answers = [o for o in outcomes if isinstance(o, ProviderAnswer)]
        failures = [o for o in outcomes if isinstance(o, SearchError)]
        for failure in failures:
            await ctx.log("warn", f"web provider failed: {failure}")
        if not answers:
            raise most_informative(failures)
        limit = request.limit or ctx.config.web.max_results
        # Each provider's list is deduplicated before it is cut, then all are merged and cut.
        lists = [fuse([answer.items], limit) for answer in answers]
        extras = WebExtras.merge(answer.extras for answer in answers)
        return fuse(lists, limit), failures, extras

    def _caller(
        self, provider: Provider, request: SearchRequest, ctx: SearchContext, deadline: Deadline
    ) -> Callable[[OnBackoff], Any]:
        async def run(on_backoff: OnBackoff) -> ProviderAnswer:
            return await self._call(provider, request, ctx, deadline, on_backoff)

        return run

    async def _call(
        self,
        provider: Provider,
        request: SearchRequest,
        ctx: SearchContext,
        deadline: Deadline,
        on_backoff: OnBackoff,
    ) -> ProviderAnswer:
        now = self.now() if self.now else datetime.now(UTC)  # one clock for the whole answer
        settings = call_settings(provider, request, ctx.config, now)
        outgoing = provider.build_request(request, settings)  # UNSUPPORTED before anything is sent
        rate = ctx.config.web.provider_settings(provider.name).requests_per_second
        max_chars = ctx.config.web.reader.max_chars

        async def log(level: Any, message: str, data: Mapping[str, Any] | None = None) -> None:
            text = f"{provider.name}: {message}"
            await (ctx.log(level, text) if data is None else ctx.log(level, text, data))

        async def fetch(backoff: OnBackoff) -> ProviderAnswer:
            await log("info", "searching")
            answer = await self.http.call(
                outgoing,
                lambda response: provider.parse_response(response, request, settings),
                provider=provider.name,
                rules=provider.rules,
                deadline=deadline,
                requests_per_second=rate,
                on_backoff=backoff,
            )
            return ProviderAnswer(capped_raw_content(answer.items, max_chars), answer.extras)

        key = cache_key(provider.name, request, settings)
        use_cache = ctx.config.web.cache.enabled
        async with ctx.step(StepName.PROVIDER_CALL, provider=provider.name) as step:
            answer = await self.calls.get(
                key, fetch, log, use_cache=use_cache, on_backoff=on_backoff
            )
            step.output["result_count"] = len(answer.items)
        return answer

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
            raise provider_failure(exc, uses) from exc
        return fuse([items_from_output(output, provider=uses)], limit)


def web_deadline(config: SearchConfig) -> float:
    """Seconds a web search may take: ``web.deadline``, and always a little under ``options.timeout``."""
    overall = config.options.timeout
    cap = overall - min(1.0, overall * DEADLINE_MARGIN)
    return min(config.web.deadline or cap, cap)


def provider_names(request: SearchRequest, config: SearchConfig) -> list[str]:
    """Return the providers to query, checked before anything is sent.

    Without ``web.providers`` (or the ``providers`` option), the first provider
    whose key is in the environment is used, Tavily first.
    """
    chosen = request.options.get("providers", config.web.providers)
    if isinstance(chosen, str):
        chosen = [chosen]
    if not isinstance(chosen, list | tuple):
        valid = ", ".join(sorted(PROVIDERS))
        raise SearchError(
            ErrorCode.INVALID_QUERY, f"option 'providers' must name providers (valid: {valid})"
        )
    if not chosen:
        chosen = keyed_providers(config.web)[:1]
        if not chosen:
            raise no_provider_error(config.web)
    names = list(dict.fromkeys(str(name) for name in chosen))
    for name in names:
        get_provider(name)
    return names


def call_settings(
    provider: Provider, request: SearchRequest, config: SearchConfig, now: datetime | None = None
) -> CallSettings:
    """Resolve limit, depth, endpoint, engine and key (NO_API_KEY before anything is sent)."""
    settings = config.web.provider_settings(provider.name)
    api_key = None
    if provider.needs_key:
        secret: Secret | None = settings.api_key_env
        if secret is None:
            raise SearchError(
                ErrorCode.NO_API_KEY,
                f"no API key: web.{provider.name}.api_key_env is not set",
                provider=provider.name,
            )
        api_key = secret.resolve(provider=provider.name)
    from_env = os.environ.get(settings.base_url_env) if settings.base_url_env else None
    return CallSettings(
        limit=request.limit or config.web.max_results,
        depth=request.search_depth or config.web.search_depth,
        api_key=api_key,
        base_url=settings.base_url or from_env or None,
        engine=settings.engine,
        images=settings.images,
        image_descriptions=settings.image_descriptions,
        now=now,
    )


def capped_raw_content(items: Sequence[ResultItem], max_chars: int) -> list[ResultItem]:
    """Cut each item's ``raw_content`` to ``max_chars`` (a page's full text can be huge)."""
    capped = []
    for item in items:
        raw = item.metadata.get("raw_content")
        if isinstance(raw, str) and len(raw) > max_chars:
            metadata = {**item.metadata, "raw_content": raw[:max_chars], "raw_truncated": True}
            item = item.model_copy(update={"metadata": metadata})
        capped.append(item)
    return capped


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


async def _as_asked(
    items: list[ResultItem], request: SearchRequest, ctx: SearchContext, now: datetime
) -> list[ResultItem]:
    """Drop results outside the request's ``sites`` and dates, or in its ``exclude_sites``.

    Providers take sites and dates as a hint (``site:`` operators, freshness
    parameters) and delegated searches may ignore them, so the answer is checked
    here: a restriction holds whatever the provider did. A page without a known
    publication date is kept.
    """
    dated = request.time_range or request.start_date or request.end_date
    if not (request.sites or request.exclude_sites or dated):
        return items

    def allowed(item: ResultItem) -> bool:
        url = item.url or ""
        if request.sites and not in_domains(url, request.sites):
            return False
        if in_domains(url, request.exclude_sites):
            return False
        raw = item.metadata.get("published_date")
        published = parse_date(raw, now) if isinstance(raw, str) else None
        return published is None or within_period(
            published, now, request.time_range, request.start_date, request.end_date
        )

    kept = [item for item in items if allowed(item)]
    if len(kept) < len(items):
        dropped = len(items) - len(kept)
        await ctx.log("info", f"dropped {dropped} result(s) outside the sites or dates asked")
    return kept
