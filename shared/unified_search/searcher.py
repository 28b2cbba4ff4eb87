"""The engine: fan requests out to handlers, then merge, rerank, cite, record and report."""

from __future__ import annotations

import asyncio
import importlib
import logging
import time
import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from unified_search._lifecycle import Closable
from unified_search._sync import run_sync
from unified_search.citations import CitationAllocator, CitationRegistry, build_context
from unified_search.config import SearchConfig, Weights
from unified_search.delegates import Delegates
from unified_search.errors import ErrorCode, SearchError, as_search_error
from unified_search.events import EventBus, EventSink, Trace
from unified_search.handler import ClosableHandler, SearchContext, SearchHandler
from unified_search.merge import merge, weighted_items
from unified_search.parallel import Mode, fan_out
from unified_search.rerank.base import Reranker
from unified_search.rerank.registry import get_reranker
from unified_search.response import SearchResponse
from unified_search.types import ResultItem, SearchRequest, SearchResult, SearchType, Source

logger = logging.getLogger(__name__)

ConfigLike = SearchConfig | Mapping[str, Any] | str | Path | None
RequestLike = SearchRequest | Mapping[str, Any]

#: Where the builtin handler of each type lives; imported on first use, built by ``from_config``.
DEFAULT_HANDLERS: dict[SearchType, tuple[str, str, str]] = {
    SearchType.WEB: ("unified_search.web.handler", "WebHandler", "unified-search"),
    SearchType.KB: ("unified_search.kb.handler", "KBHandler", "unified-search[kb]"),
    SearchType.DB: ("unified_search.db.handler", "DBHandler", "unified-search"),
}


def as_config(config: ConfigLike) -> SearchConfig:
    """Accept a config object, a dict (a profile over the defaults) or a ``search.yml`` path."""
    if isinstance(config, SearchConfig):
        return config
    if isinstance(config, str | Path):
        return SearchConfig.load(config)
    return SearchConfig.load(profile=config)


class Searcher(Closable):
    """Search several sources at once and return ranked, cited references.

    Example:
        >>> async with Searcher({"kb": {"collections": ["docs"]}}) as searcher:  # doctest: +SKIP
        ...     response = await searcher.asearch({"query": "vector index", "type": "kb"})
        ...     print(response.context.xml)
    """

    def __init__(
        self,
        config: ConfigLike = None,
        *,
        handlers: Mapping[SearchType | str, SearchHandler] | None = None,
        store: Any | None = None,
        sinks: Iterable[EventSink] = (),
        agents: Mapping[str, Any] | None = None,
    ) -> None:
        self.config = as_config(config)
        self.store = store
        self.delegates = Delegates(agents)
        self.events = EventBus(sinks)
        self._handlers: dict[SearchType, SearchHandler] = {}
        self._citations = CitationRegistry()
        for type_, handler in (handlers or {}).items():
            self.register(type_, handler)

    # -- handlers -------------------------------------------------------------------------

    def register(self, type_: SearchType | str, handler: SearchHandler) -> None:
        """Use ``handler`` for every request of ``type_`` (replacing the builtin one)."""
        if not isinstance(handler, SearchHandler):
            raise TypeError("a handler needs an async search(request, ctx) method")
        self._handlers[SearchType(type_)] = handler

    def handler(self, type_: SearchType) -> SearchHandler:
        """Return the handler of ``type_``, building the builtin one on first use."""
        if type_ not in self._handlers:
            self._handlers[type_] = _builtin_handler(type_, self.config)
        return self._handlers[type_]

    def cite(self, items: Sequence[ResultItem], request_id: str) -> list[ResultItem]:
        """Give ``items`` citation IDs within ``request_id``'s context (continuing its numbering).

        For items found outside a search, such as a page fetched by URL, that must be
        citable next to the search results of the same request.
        """
        return self._citations.for_request(request_id).assign(items)

    # -- async API ------------------------------------------------------------------------

    async def asearch(self, request: RequestLike, **options: Any) -> SearchResponse:
        """Run one request; see ``arun`` for the options."""
        return await self.arun([request], mode=Mode.ALL, **options)

    async def aall(self, requests: Sequence[RequestLike], **options: Any) -> SearchResponse:
        """Run every request and wait for all of them."""
        return await self.arun(requests, mode=Mode.ALL, **options)

    async def aany(self, requests: Sequence[RequestLike], **options: Any) -> SearchResponse:
        """Run every request; return once one has items (cancelling the rest)."""
        return await self.arun(requests, mode=Mode.ANY, **options)

    async def arace(self, requests: Sequence[RequestLike], **options: Any) -> SearchResponse:
        """Run every request; return once one finishes, with or without items."""
        return await self.arun(requests, mode=Mode.RACE, **options)

    async def adeep_search(
        self, query: str, *, types: Sequence[SearchType | str] | None = None, **options: Any
    ) -> SearchResponse:
        """Classify the intent, expand into sub-queries, search them all, rank by intent.

        See ``unified_search.deep.adeep_search`` for the options.
        """
        from unified_search.deep import adeep_search

        return await adeep_search(self, query, types=types, **options)

    async def arun(
        self,
        requests: Sequence[RequestLike],
        *,
        mode: Mode | str = Mode.ALL,
        request_id: str | None = None,
        chat_id: str | None = None,
        user: Mapping[str, Any] | None = None,
        overrides: Mapping[str, Any] | None = None,
        top_n: int | None = None,
        provided_references: int = 0,
        sinks: Iterable[EventSink] = (),
    ) -> SearchResponse:
        """Fan ``requests`` out, then merge, rerank, cite, store and report.

        Args:
            requests: what to search; dicts are validated into ``SearchRequest``.
            mode: ``all``, ``any`` or ``race``.
            request_id: the request context; citation IDs continue within it. A new one by default.
            chat_id: the conversation the search belongs to (stored with the record).
            user: caller context (for example a tenant ID for database permission filters).
            overrides: per-call configuration keys, applied over the Searcher's configuration.
            top_n: how many items to keep; default: the requests' ``rerank.top_n`` or ``rerank.top_n``.
            provided_references: references the user attached themselves (counts toward
                ``options.skip_threshold``).
            sinks: extra event sinks for this call only.
        """
        started = time.perf_counter()
        mode = Mode.from_str(mode) if isinstance(mode, str) else mode
        batch = _validate_requests(requests)
        config = self.config.merged(overrides) if overrides else self.config
        reranker = self._reranker(batch, config)
        keep = _top_n(batch, config, top_n)
        request_id = request_id or uuid.uuid4().hex
        allocator = self._citations.for_request(request_id)
        trace = Trace(
            self.events.with_sinks(sinks),
            request_id=request_id,
            chat_id=chat_id,
            language=config.options.language,
            query=batch[0].query,
            types=[r.type for r in batch],
        )
        await trace.start()
        ctx_base = SearchContext(
            config=config,
            request_id=request_id,
            chat_id=chat_id,
            user=user or {},
            delegates=self.delegates,
        )
        skips = [_skip_reason(r, config, allocator, provided_references) for r in batch]
        jobs = [self._job(r, ctx_base, trace, skip) for r, skip in zip(batch, skips, strict=True)]
        results = await fan_out(
            jobs,
            mode=mode,
            on_error=lambda i, exc: _failed(batch[i], as_search_error(exc)),
            useful=lambda r: bool(r.items),
        )
        items = await self._rank(batch[0].query, results, reranker, keep, config)
        items = allocator.assign(items)
        response = SearchResponse(
            request_id=request_id,
            chat_id=chat_id,
            requests=batch,
            results=results,
            items=items,
            context=build_context(items, config.citation),
            duration_ms=(time.perf_counter() - started) * 1000,
        )
        await self._record(response, config, trace)
        await trace.finish(
            len(items),
            failed=sum(1 for r in results if r is not None and r.error is not None),
            total=sum(1 for skip in skips if skip is None),
            output={"result_count": len(items), "duration_ms": round(response.duration_ms, 3)},
        )
        return response.model_copy(update={"trace": trace.nodes})

    def _job(
        self, request: SearchRequest, base: SearchContext, trace: Trace, skip: str | None
    ) -> Any:
        async def run() -> SearchResult:
            node = trace.add_item(
                request.type, {"query": request.query, "source": request.source.value}
            )
            if skip is not None:
                await trace.item_skipped(node, skip)
                return SearchResult(
                    type=request.type,
                    query=request.query,
                    source=request.source,
                    metadata={"skipped": skip},
                )

            async def log(level: Any, message: str) -> None:
                await trace.item_log(node, level, message)

            return await self._run_one(request, replace(base, log=log), trace, node)

        return run

    async def _run_one(
        self, request: SearchRequest, ctx: SearchContext, trace: Trace, node: str
    ) -> SearchResult:
        await trace.item_started(node)
        started = time.perf_counter()
        try:
            async with asyncio.timeout(ctx.config.options.timeout):
                result = await self.handler(request.type).search(request, ctx)
            result = _normalise(result, request, ctx.config.weights)
        except asyncio.CancelledError:
            await trace.item_cancelled(node)
            raise
        except Exception as exc:  # a failing source becomes its result's error, never the caller's
            timeout = ctx.config.options.timeout
            error = (
                SearchError(ErrorCode.TIMEOUT, f"no answer within {timeout:g} s")
                if isinstance(exc, TimeoutError)
                else as_search_error(exc)
            )
            result = _failed(request, error)
        duration = (time.perf_counter() - started) * 1000
        result = result.model_copy(update={"duration_ms": duration})
        output = {"result_count": len(result.items), "duration_ms": round(duration, 3)}
        await trace.item_finished(node, output, result.error)
        return result

    def _reranker(self, batch: Sequence[SearchRequest], config: SearchConfig) -> Reranker:
        chosen = next((r.rerank.uses for r in batch if r.rerank and r.rerank.uses), None)
        return get_reranker(chosen or config.uses.rerank, config, self.delegates)

    async def _rank(
        self,
        query: str,
        results: Sequence[SearchResult | None],
        reranker: Reranker,
        top_n: int,
        config: SearchConfig,
    ) -> list[ResultItem]:
        candidates = merge(results, config.weights)
        if not candidates:
            return []
        # Per-request lists (already weighed on arrival) for rank-fusing rerankers.
        lists = [r.items for r in results if r is not None and r.items]
        # get_reranker wraps every reranker that can fail in the weighted fallback.
        return await reranker.rerank(query, candidates, top_n=top_n, lists=lists)

    async def _record(self, response: SearchResponse, config: SearchConfig, trace: Trace) -> None:
        if self.store is None:
            return
        from unified_search.store import records_from_response

        try:
            await self.store.asave(records_from_response(response, config))
        except Exception as exc:  # storage trouble is reported, the answer still reaches the caller
            logger.error("could not store search %s: %s", response.request_id, exc)
            await trace.root_log("error", f"could not store the search record: {exc}")

    # -- sync twins -----------------------------------------------------------------------

    def search(self, request: RequestLike, **options: Any) -> SearchResponse:
        """Sync twin of ``asearch`` (works inside Jupyter and running loops)."""
        return run_sync(self.asearch(request, **options))

    def all(self, requests: Sequence[RequestLike], **options: Any) -> SearchResponse:
        """Sync twin of ``aall``."""
        return run_sync(self.aall(requests, **options))

    def any(self, requests: Sequence[RequestLike], **options: Any) -> SearchResponse:
        """Sync twin of ``aany``."""
        return run_sync(self.aany(requests, **options))

    def race(self, requests: Sequence[RequestLike], **options: Any) -> SearchResponse:
        """Sync twin of ``arace``."""
        return run_sync(self.arace(requests, **options))

    def run(self, requests: Sequence[RequestLike], **options: Any) -> SearchResponse:
        """Sync twin of ``arun``."""
        return run_sync(self.arun(requests, **options))

    def deep_search(
        self, query: str, *, types: Sequence[SearchType | str] | None = None, **options: Any
    ) -> SearchResponse:
        """Sync twin of ``adeep_search``."""
        return run_sync(self.adeep_search(query, types=types, **options))

    # -- lifecycle ------------------------------------------------------------------------

    async def aclose(self) -> None:
        """Release every handler's resources and the store."""
        for handler in self._handlers.values():
            if isinstance(handler, ClosableHandler):
                await handler.aclose()
        if self.store is not None and hasattr(self.store, "aclose"):
            await self.store.aclose()

    def close(self) -> None:
        """Sync twin of ``aclose``."""
        run_sync(self.aclose())


def _validate_requests(requests: Sequence[RequestLike]) -> list[SearchRequest]:
    if isinstance(requests, SearchRequest | Mapping | str):
        raise TypeError("requests must be a list of requests; use search() for a single one")
    batch = [
        r if isinstance(r, SearchRequest) else SearchRequest.model_validate(r) for r in requests
    ]
    if not batch:
        raise ValueError("requests must not be empty")
    return batch


def _top_n(batch: Sequence[SearchRequest], config: SearchConfig, top_n: int | None) -> int:
    if top_n is not None:
        if top_n < 1:
            raise ValueError("top_n must be at least 1")
        return top_n
    asked = [r.rerank.top_n for r in batch if r.rerank and r.rerank.top_n]
    return max(asked) if asked else config.rerank.top_n


def _skip_reason(
    request: SearchRequest, config: SearchConfig, allocator: CitationAllocator, provided: int
) -> str | None:
    if request.source is not Source.AUTO:
        return None
    if config.uses.search == "disabled":
        return "automatic search is disabled (uses.search)"
    threshold = config.options.skip_threshold
    have = allocator.user_count + provided
    if threshold and have >= threshold:
        return f"{have} user references already reach options.skip_threshold={threshold}"
    return None


def _normalise(result: SearchResult, request: SearchRequest, weights: Weights) -> SearchResult:
    """Make a handler's result consistent with the request it answered, and weigh it.

    Weighing here, as each result arrives, keeps that work off the critical path
    that starts when the slowest source answers.
    """
    items = [
        item if item.type is request.type else item.model_copy(update={"type": request.type})
        for item in result.items
    ]
    total = result.total or len(items)
    fitted = result.model_copy(update={"items": items, "source": request.source, "total": total})
    return fitted.model_copy(update={"items": weighted_items(fitted, weights)})


def _failed(request: SearchRequest, error: SearchError) -> SearchResult:
    return SearchResult(
        type=request.type, query=request.query, source=request.source, error=error.info()
    )


def _builtin_handler(type_: SearchType, config: SearchConfig) -> SearchHandler:
    module_name, class_name, extra = DEFAULT_HANDLERS[type_]
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise SearchError(
            ErrorCode.UNSUPPORTED,
            f"no {type_.value} handler available ({exc}); install {extra} or register one",
        ) from exc
    handler: SearchHandler = getattr(module, class_name).from_config(config)
    return handler
