"""The engine: fan requests out to handlers, then merge, rerank, cite, record and report."""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any, NamedTuple, TypedDict, Unpack

from unified_search._lifecycle import Closable
from unified_search._optional import require
from unified_search._sync import run_sync, sync_twin
from unified_search.citations.context import build_context
from unified_search.citations.ids import CitationAllocator
from unified_search.citations.numbering import Numbered, Numbering
from unified_search.config.search import ConfigLike, SearchConfig, Weights, as_config
from unified_search.contract.delegates import Delegates
from unified_search.contract.events import EventBus, EventSink, LogLevel
from unified_search.contract.handler import ClosableHandler, SearchContext, SearchHandler
from unified_search.contract.response import SearchResponse
from unified_search.contract.steps import StepName
from unified_search.contract.store import RecordStore
from unified_search.engine.attachments import DataSource, attaching
from unified_search.engine.choices import check_uses
from unified_search.engine.delegated import delegating
from unified_search.engine.merge import merge, stamped
from unified_search.engine.parallel import Mode, fan_out
from unified_search.engine.trace import Trace
from unified_search.errors import REFUSALS, ErrorCode, ErrorInfo, SearchError, as_search_error
from unified_search.http import HttpClient
from unified_search.rerank.base import Reranker
from unified_search.rerank.registry import get_reranker
from unified_search.types import ResultItem, SearchRequest, SearchResult, SearchType, Source

logger = logging.getLogger(__name__)

RequestLike = SearchRequest | Mapping[str, Any]
Fetch = Callable[[SearchRequest, SearchContext], Awaitable[SearchResult]]


class RunOptions(TypedDict, total=False):
    """The options of every search call (see ``Searcher.arun``)."""

    request_id: str | None
    chat_id: str | None
    user: Mapping[str, Any] | None
    overrides: Mapping[str, Any] | None
    top_n: int | None
    provided_references: int
    attachments: Sequence[DataSource]
    sinks: Iterable[EventSink]
    finish: Callable[[SearchResponse], SearchResponse] | None


class Ranked(NamedTuple):
    """One reranked item with its position in the input and its final score."""

    position: int
    item: ResultItem
    score: float


#: Where the builtin handler of each type lives; imported on first use, built by ``from_config``.
DEFAULT_HANDLERS: dict[SearchType, tuple[str, str, str]] = {
    SearchType.WEB: ("unified_search.web.handler", "WebHandler", "all"),
    SearchType.KB: ("unified_search.kb.handler", "KBHandler", "kb"),
    SearchType.DB: ("unified_search.db.handler", "DBHandler", "all"),
}


class Searcher(Closable):
    """Search several sources at once and return ranked, cited references.

    Citation IDs are unique within a citation scope, the ``request_id`` of a call
    (a fresh one per call by default). With a ``store`` (a ``SearchStore``) every
    search is recorded and the numbering of every scope is persisted, so restarts
    and other processes continue it; without one it lives in this process only.
    ``agents`` are the delegates ``uses`` values may name: every ``uses`` value is
    checked when the Searcher is built (``ConfigurationError`` listing the valid ones).

    Example:
        Not run here: it needs an indexed collection ``docs``.

        >>> async with Searcher({"kb": {"collections": ["docs"]}}) as searcher:  # doctest: +SKIP
        ...     response = await searcher.asearch({"query": "vector index", "type": "kb"})
        ...     print(response.context.xml)
    """

    def __init__(
        self,
        config: ConfigLike = None,
        *,
        handlers: Mapping[SearchType | str, SearchHandler] | None = None,
        store: RecordStore | None = None,
        sinks: Iterable[EventSink] = (),
        agents: Mapping[str, Any] | None = None,
        http: HttpClient | None = None,
    ) -> None:
        self.config = as_config(config)
        self.store = store
        self.delegates = Delegates(agents)
        check_uses(self.config, self.delegates)
        self.events = EventBus(sinks)
        self.numbering = Numbering(store)
        self._http = http
        self._owns_http = http is None
        self._handlers: dict[SearchType, SearchHandler] = {}
        self._building: dict[SearchType, asyncio.Future[SearchHandler]] = {}
        for type_, handler in (handlers or {}).items():
            self.register(type_, handler)

    # -- handlers -------------------------------------------------------------------------

    def register(self, type_: SearchType | str, handler: SearchHandler) -> None:
        """Use ``handler`` for every request of ``type_`` (replacing the builtin one)."""
        if not isinstance(handler, SearchHandler):
            raise TypeError("a handler needs an async asearch(request, ctx) method")
        self._handlers[SearchType(type_)] = handler

    def handler(self, type_: SearchType) -> SearchHandler:
        """Return the handler of ``type_``, building the builtin one on first use."""
        if type_ not in self._handlers:
            self._handlers[type_] = _builtin_handler(type_, self.config, self.http)
        return self._handlers[type_]

    async def ahandler(self, type_: SearchType) -> SearchHandler:
        """Async twin of ``handler``: the builtin one is built in a worker thread, once.

        Building may block (opening files, connecting to a Chroma server), so it
        runs off the event loop; searches arriving meanwhile share the one attempt,
        so a hung dependency holds one thread, not one per search.
        """
        if type_ in self._handlers:
            return self._handlers[type_]
        building = self._building.get(type_)
        if building is None or building.get_loop() is not asyncio.get_running_loop():
            building = asyncio.ensure_future(
                asyncio.to_thread(_builtin_handler, type_, self.config, self.http)
            )
            self._building[type_] = building
            building.add_done_callback(functools.partial(self._built, type_))
        handler = await asyncio.shield(building)
        return self._handlers.setdefault(type_, handler)

    def _built(self, type_: SearchType, building: asyncio.Future[SearchHandler]) -> None:
        """Keep a built handler, even one every waiting search gave up on (closed with the rest).

        A failed attempt is forgotten, so that the next search tries again.
        """
        if self._building.get(type_) is building:
            del self._building[type_]
        if not building.cancelled() and building.exception() is None:
            self._handlers.setdefault(type_, building.result())

    @property
    def http(self) -> HttpClient:
        """The pooled HTTP client of this searcher's remote calls (web providers, rerank APIs).

        Built from the configuration on first use and closed by ``aclose``, unless
        one was given (``http=``): that one stays open for its owner.
        """
        if self._http is None:
            self._http = HttpClient.from_config(self.config)
        return self._http

    def new_scope(self) -> str:
        """Return a fresh citation scope; its first search needs no store round trip."""
        return self.numbering.new_scope()

    def reranker(self, name: str | None = None) -> Reranker:
        """Build the reranker ``name`` (default ``uses.rerank``); an unknown name lists the valid ones."""
        return get_reranker(
            name or self.config.uses.rerank, self.config, self.delegates, http=self.http
        )

    # -- async API ------------------------------------------------------------------------

    async def asearch(self, request: RequestLike, **options: Unpack[RunOptions]) -> SearchResponse:
        """Run one request; see ``arun`` for the options."""
        return await self.arun([request], mode=Mode.ALL, **options)

    async def aall(
        self, requests: Sequence[RequestLike], **options: Unpack[RunOptions]
    ) -> SearchResponse:
        """Run every request and wait for all of them."""
        return await self.arun(requests, mode=Mode.ALL, **options)

    async def aany(
        self, requests: Sequence[RequestLike], **options: Unpack[RunOptions]
    ) -> SearchResponse:
        """Run every request; return once one has items (cancelling the rest)."""
        return await self.arun(requests, mode=Mode.ANY, **options)

    async def arace(
        self, requests: Sequence[RequestLike], **options: Unpack[RunOptions]
    ) -> SearchResponse:
        """Run every request; return once one finishes, with or without items."""
        return await self.arun(requests, mode=Mode.RACE, **options)

    async def aretrieve(
        self, url: str, *, source: Source = Source.USER, **options: Unpack[RunOptions]
    ) -> SearchResponse:
        """Read one web page through the web handler and cite it like a one-item search.

        The page gets its citation ID in the scope ``request_id``, is recorded like
        any search, and emits the same events.
        """
        request = SearchRequest(query=url, type=SearchType.WEB, source=source)
        return await self._execute([request], Mode.ALL, self._read_page, **options)

    async def arerank(
        self,
        query: str,
        items: Sequence[ResultItem],
        *,
        reranker: str | None = None,
        top_n: int | None = None,
    ) -> list[Ranked]:
        """Order ``items`` for ``query`` with a reranker (default ``uses.rerank``), best first.

        Each result says where its item was in ``items`` and its final score, so a
        caller can map the order back onto its own objects.
        """
        if not items:
            return []
        ranked = await self.reranker(reranker).arerank(query, items, top_n=top_n)
        return _positions(items, ranked)

    async def arun(
        self,
        requests: Sequence[RequestLike],
        *,
        mode: Mode | str = Mode.ALL,
        **options: Unpack[RunOptions],
    ) -> SearchResponse:
        """Fan ``requests`` out, then merge, rerank, cite, store and report.

        Args:
            requests: what to search; dicts are validated into ``SearchRequest``.
            mode: ``all``, ``any`` or ``race``.
            **options: the ``RunOptions``:
                ``request_id``, the citation scope (citation IDs continue within it; a new
                one by default); ``chat_id``, the conversation (stored with the record);
                ``user``, caller context (for example a tenant ID for database permission
                filters); ``overrides``, configuration keys applied over the Searcher's;
                ``top_n``, how many items to keep (default: the requests' ``rerank.top_n``
                or ``rerank.top_n``); ``provided_references``, references the user attached
                themselves (they count toward ``options.skip_threshold``); ``attachments``,
                rows, documents and MCP resources the user attached, cited as references of
                their own (``unified_search.engine.attachments``); ``sinks``, extra event sinks for
                this call only; ``finish``, a last change to the response before it is recorded
                and returned (answer mode adds its instructions to the prompt there).
        """
        mode = Mode.from_str(mode) if isinstance(mode, str) else mode
        return await self._execute(_validate_requests(requests), mode, self._search_one, **options)

    async def _execute(
        self,
        batch: list[SearchRequest],
        mode: Mode,
        fetch: Fetch,
        **options: Unpack[RunOptions],
    ) -> SearchResponse:
        _check_options(options)
        started = time.perf_counter()
        overrides, chat_id = options.get("overrides"), options.get("chat_id")
        config = self.config.merged(overrides) if overrides else self.config
        if overrides:
            check_uses(config, self.delegates)
        reranker = self._reranker(batch, config)
        keep = _top_n(batch, config, options.get("top_n"))
        request_id = options.get("request_id") or self.new_scope()
        allocator = self.numbering.allocator(request_id)
        trace = Trace(
            self.events.with_sinks(options.get("sinks", ())),
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
            user=options.get("user") or {},
            delegates=self.delegates,
        )
        attachments = options.get("attachments", ())
        provided = options.get("provided_references", 0) + len(attachments)
        skips = [_skip_reason(r, config, allocator, provided) for r in batch]
        fetch = delegating(fetch, batch, config)
        attached, fetch = attaching(fetch, attachments, batch[0].query)
        jobs = [
            self._job(r, ctx_base, trace, skip, fetch) for r, skip in zip(batch, skips, strict=True)
        ]
        attached_jobs = [self._job(r, ctx_base, trace, None, fetch) for r in attached]
        searched, read = await _fan_out(batch, jobs, attached, attached_jobs, mode)
        # Attachments come first, so a tie in the ranking goes to what the user gave.
        question = batch[0].query
        batch, results = [*attached, *batch], [*read, *searched]
        ranked = await self._rank(question, results, reranker, keep, config, trace)
        numbered = await self.numbering.anumber(request_id, ranked)
        items = numbered.items
        response = SearchResponse(
            request_id=request_id,
            search_id=trace.root.id,
            chat_id=chat_id,
            requests=batch,
            results=results,
            items=items,
            context=build_context(items, config.citation),
            duration_ms=(time.perf_counter() - started) * 1000,
        )
        if (finish := options.get("finish")) is not None:
            response = finish(response)
        await trace.results(response.references)
        persisted, warnings = await self._keep(response, numbered, config, trace)
        errors = [r.error for r in results if r is not None and r.error is not None]
        await trace.finish(
            len(items),
            failed=len(errors),
            refused=all(error.code in REFUSALS for error in errors),
            total=sum(1 for skip in skips if skip is None) + len(attached),
            output={
                "result_count": len(items),
                "duration_ms": round(response.duration_ms, 3),
                **({} if persisted is None else {"citations_persisted": persisted}),
            },
        )
        return response.model_copy(update={"trace": trace.nodes, "warnings": warnings})

    def _job(
        self,
        request: SearchRequest,
        base: SearchContext,
        trace: Trace,
        skip: str | None,
        fetch: Fetch,
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

            async def log(
                level: LogLevel, message: str, data: Mapping[str, Any] | None = None
            ) -> None:
                await trace.item_log(node, level, message, data)

            ctx = replace(base, log=log, step=functools.partial(trace.step, node))
            return await self._run_one(request, ctx, trace, node, fetch)

        return run

    async def _run_one(
        self, request: SearchRequest, ctx: SearchContext, trace: Trace, node: str, fetch: Fetch
    ) -> SearchResult:
        await trace.item_started(node)
        started = time.perf_counter()
        try:
            async with asyncio.timeout(ctx.config.options.timeout):
                result = await fetch(request, ctx)
            duration = (time.perf_counter() - started) * 1000
            result = _normalise(result, request, ctx.config.weights, duration)
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
            duration = (time.perf_counter() - started) * 1000
            result = _failed(request, error, duration)
        output = {"result_count": len(result.items), "duration_ms": round(duration, 3)}
        await trace.item_finished(node, output, result.error)
        return result

    async def _search_one(self, request: SearchRequest, ctx: SearchContext) -> SearchResult:
        return await (await self.ahandler(request.type)).asearch(request, ctx)

    async def _read_page(self, request: SearchRequest, ctx: SearchContext) -> SearchResult:
        retrieve = getattr(await self.ahandler(SearchType.WEB), "aretrieve", None)
        if retrieve is None:
            raise SearchError(ErrorCode.UNSUPPORTED, "the web handler cannot retrieve URLs")
        page: ResultItem = await retrieve(request.query, ctx)
        return SearchResult(type=SearchType.WEB, query=request.query, items=[page], total=1)

    def _reranker(self, batch: Sequence[SearchRequest], config: SearchConfig) -> Reranker:
        chosen = next((r.rerank.uses for r in batch if r.rerank and r.rerank.uses), None)
        return get_reranker(chosen or config.uses.rerank, config, self.delegates, http=self.http)

    async def _rank(
        self,
        query: str,
        results: Sequence[SearchResult | None],
        reranker: Reranker,
        top_n: int,
        config: SearchConfig,
        trace: Trace,
    ) -> list[ResultItem]:
        candidates = merge(results, config.weights)
        if not candidates:
            return []
        # Per-request lists (already weighed on arrival) for rank-fusing rerankers.
        lists = [r.items for r in results if r is not None and r.items]
        step = trace.step(
            trace.root.id, StepName.RERANK, reranker=reranker.name, candidates=len(candidates)
        )
        async with step:
            # get_reranker wraps every reranker that can fail in the weighted fallback.
            ranked = await reranker.arerank(query, candidates, top_n=top_n, lists=lists)
            step.output["result_count"] = len(ranked)
        return ranked

    async def _keep(
        self, response: SearchResponse, numbered: Numbered, config: SearchConfig, trace: Trace
    ) -> tuple[bool | None, list[ErrorInfo]]:
        """Hand the record and a fresh scope's numbering to the store; report what is not stored.

        Returns whether the citation IDs are persisted (``None`` without a store) and
        the warnings for the response.
        """
        if self.store is None:
            return None, []
        async with trace.step(trace.root.id, StepName.RECORD_WRITE) as step:
            problem = await self.store.arecord(response, config, numbered.unwritten)
            step.output["stored"] = problem is None
        unpersisted = numbered.problem or (problem if numbered.unwritten else None)
        warnings: list[ErrorInfo] = []
        if unpersisted is not None:
            message = f"citation IDs were not persisted: {unpersisted.message}"
            warnings.append(unpersisted.info().model_copy(update={"message": message}))
            await trace.root_log("error", message)
        if problem is not None:
            message = f"could not store the search record: {problem.message}"
            logger.error("search %s: %s", response.request_id, message)
            warnings.append(problem.info().model_copy(update={"message": message}))
            await trace.root_log("error", message)
        return unpersisted is None, warnings

    # -- sync twins (they work inside Jupyter and running loops too) ----------------------

    search = sync_twin(asearch)
    all = sync_twin(aall)
    any = sync_twin(aany)
    race = sync_twin(arace)
    run = sync_twin(arun)
    retrieve = sync_twin(aretrieve)
    rerank = sync_twin(arerank)

    # -- lifecycle ------------------------------------------------------------------------

    async def aclose(self) -> None:
        """Release every handler's resources and the store."""
        for handler in self._handlers.values():
            if isinstance(handler, ClosableHandler):
                await handler.aclose()
        if self.store is not None:
            await self.store.aclose()
        if self._http is not None and self._owns_http:
            await self._http.aclose()

    def close(self) -> None:
        """Sync twin of ``aclose``."""
        run_sync(self.aclose())


async def _fan_out(
    batch: list[SearchRequest],
    jobs: list[Any],
    attached: list[SearchRequest],
    attached_jobs: list[Any],
    mode: Mode,
) -> tuple[list[SearchResult | None], list[SearchResult | None]]:
    """Run the searches in ``mode`` and the attachments beside them.

    Attachments never end an ``any``/``race`` wait, so they are awaited on their own.
    """
    searched = fan_out(
        jobs,
        mode=mode,
        on_error=lambda i, exc: _failed(batch[i], as_search_error(exc)),
        useful=lambda r: bool(r.items),
    )
    if not attached_jobs:
        return await searched, []
    read = fan_out(
        attached_jobs, on_error=lambda i, exc: _failed(attached[i], as_search_error(exc))
    )
    found, given = await asyncio.gather(searched, read)
    return found, given


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


def _normalise(
    result: SearchResult, request: SearchRequest, weights: Weights, duration_ms: float
) -> SearchResult:
    """Make a handler's result consistent with the request it answered, weigh it, time it.

    Weighing here, as each result arrives, keeps that work off the critical path
    that starts when the slowest source answers. One copy of the result, none of
    an item that is already right.
    """
    weight = weights.of(request.source)
    items = [stamped(item, request.source, weight, request.type) for item in result.items]
    return result.model_copy(
        update={
            "items": items,
            "source": request.source,
            "total": result.total or len(items),
            "duration_ms": duration_ms,
        }
    )


def _failed(request: SearchRequest, error: SearchError, duration_ms: float = 0.0) -> SearchResult:
    return SearchResult(
        type=request.type,
        query=request.query,
        source=request.source,
        error=error.info(),
        duration_ms=duration_ms,
    )


def _check_options(options: Mapping[str, object]) -> None:
    """Refuse a misspelled option rather than search without it."""
    unknown = sorted(set(options) - RunOptions.__optional_keys__)
    if unknown:
        valid = ", ".join(sorted(RunOptions.__optional_keys__))
        raise TypeError(f"unexpected option(s) {unknown}; valid: {valid}")


def _builtin_handler(type_: SearchType, config: SearchConfig, http: HttpClient) -> SearchHandler:
    module_name, class_name, extra = DEFAULT_HANDLERS[type_]
    try:
        module = require(module_name, extra=extra, purpose=f"the builtin {type_.value} source")
    except ImportError as exc:
        raise SearchError(
            ErrorCode.UNSUPPORTED, f"{exc} (or register your own {type_.value} handler)"
        ) from exc
    builder = getattr(module, class_name).from_config
    handler: SearchHandler = (
        builder(config, http=http) if type_ is SearchType.WEB else builder(config)
    )
    return handler


def _positions(items: Sequence[ResultItem], ranked: Sequence[ResultItem]) -> list[Ranked]:
    """Find where each reranked item was in ``items`` (equal items in their input order)."""
    positions: dict[str, list[int]] = {}
    for index, item in enumerate(items):
        positions.setdefault(item.key, []).append(index)
    return [Ranked(positions[item.key].pop(0), item, _score(item)) for item in ranked]


def _score(item: ResultItem) -> float:
    """The reranker's score when it left one, else the source's."""
    score = item.metadata.get("rerank_score")
    return float(score) if isinstance(score, int | float) else item.score
