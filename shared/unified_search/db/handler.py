"""Database search: question → DSL → read-only ``select`` → citable rows or figures.

Which models are searched: the request's ``models``, else ``db.models``, else
every table and view (of the default schema and of ``db.schemas``); a request
may only name exposed models. Joins may reach any exposed model. The builtin
generator picks the model the question asks about (all tied ones on a tie;
``db.multi_model: all`` asks every model) and reads the rest of the question
onto its columns and related models.

A question whose words are not all understood is refused: the result has no
rows, an INVALID_QUERY error naming the words, and its ``understanding``
(``SearchResult.metadata["understanding"]``, see ``Understanding``) says what
was understood. ``SearchResult.dsl`` is the DSL that ran, in JSON form; with
several models it is ``{"queries": [...]}``. When every keyword had to match
and no row did, the query runs again with any keyword matching
(``querydsl.relax_keywords``); the relaxed DSL is the one reported.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import datetime as dt
import functools
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa

from unified_search.config.db import ModelSettings
from unified_search.config.search import SearchConfig
from unified_search.contract.delegates import BUILTIN
from unified_search.contract.handler import SearchContext
from unified_search.contract.steps import StepName
from unified_search.db.compiler import Compiled, compile_dsl
from unified_search.db.delegated import InvalidDSL, ask_delegate, parse_answer
from unified_search.db.describe import describe
from unified_search.db.dsl import QueryDSL
from unified_search.db.execute import DB_THREADS, EnginePool, ReadOnlyExecutor
from unified_search.db.nl.generate import check_question, interpret
from unified_search.db.nl.lexicon import FILLER
from unified_search.db.nl.planner import Plan
from unified_search.db.nl.vocabulary import Domain, Sample
from unified_search.db.request import merged, request_parts
from unified_search.db.rows import figure_items, row_items
from unified_search.db.samples import ValueSampler
from unified_search.db.schema import (
    ModelSchema,
    SchemaCatalog,
    elsewhere,
    unknown_model_error,
    unknown_models,
)
from unified_search.db.understanding import KEY, Understanding
from unified_search.errors import ErrorCode, ErrorInfo, SearchError
from unified_search.types import ResultItem, SearchRequest, SearchResult, SearchType

#: Vocabularies kept (one per database, settings and tenant scope in use).
_DOMAINS_KEPT = 8
#: Seconds ``aclose`` waits for database calls still running.
_CLOSE_WAIT = 5.0
Models = Mapping[str, ModelSchema]


@dataclass
class _Reading:
    """The plans for one question and how they came about."""

    plans: list[Plan]
    generator: str
    not_understood: tuple[str, ...] = ()
    corrections: tuple[str, ...] = ()
    warnings: list[str] = field(default_factory=list)

    def understanding(self, plans: Sequence[Plan] | None = None) -> Understanding:
        """How the question was read (describing ``plans`` when the ones that ran differ)."""
        return Understanding(
            understood="; ".join(describe(p.dsl) for p in (plans or self.plans)),
            not_understood=list(self.not_understood),
            corrections=list(self.corrections),
            warnings=self.warnings,
            generator=self.generator,
        )


class DBHandler:
    """Answer ``type: db`` requests over the database at ``db.url``.

    Example:
        Not run here: the Searcher would record into the user's data folder.

        >>> handler = DBHandler.from_config(SearchConfig.load(profile={"db": {"url": "sqlite:///shop.db"}}))
        >>> searcher = Searcher(handlers={"db": handler})  # doctest: +SKIP
    """

    provider = "db"

    def __init__(self, *, today: Callable[[], dt.date] = dt.date.today) -> None:
        self._pool = EnginePool()
        self._catalogs: dict[tuple[str, float], SchemaCatalog] = {}
        self._samplers: dict[tuple[int, int, float], ValueSampler] = {}
        self._domains: dict[tuple[Any, ...], Domain] = {}
        self._threads = concurrent.futures.ThreadPoolExecutor(
            DB_THREADS, thread_name_prefix="unified-search-db"
        )
        self._today = today

    @classmethod
    def from_config(cls, config: SearchConfig) -> DBHandler:
        """Build the handler; engines open lazily, per URL, on first search."""
        return cls()

    async def asearch(self, request: SearchRequest, ctx: SearchContext) -> SearchResult:
        """Search the models the request may see and return their rows (or figures) as items."""
        config = ctx.config
        check_question(request.query)
        catalog, executor = self._connect(config)
        models, wanted = await self._models(request, config, catalog, executor)
        extra = request_parts(request)
        for name in wanted:  # the request's own DSL must fit before anything runs
            compile_dsl(extra.as_dsl(name), models, max_results=1, user=ctx.user)
        async with ctx.step(StepName.DSL_BUILD, uses=config.uses.querydsl):
            reading = await self._plans(request, ctx, models, wanted, executor)
        if reading.not_understood or not reading.plans:
            return _refused(request, reading, list(models))
        limit = min(config.db.max_results, request.limit or config.db.max_results)
        plans = [merged(p, extra) for p in reading.plans]
        try:  # compile everything first: a bad query runs nothing at all
            for plan in plans:
                compile_dsl(plan.dsl, models, max_results=limit, user=ctx.user)
        except SearchError as exc:
            if reading.generator != BUILTIN or exc.code is not ErrorCode.INVALID_QUERY:
                raise
            return _refused(request, reading, list(models), exc.message)
        runs = [self._run(p, models, executor, limit, ctx, bool(extra.select)) for p in plans]
        outcomes = await asyncio.gather(*runs)
        return _result(request, plans, outcomes, reading)

    async def aclose(self) -> None:
        """Let running database calls end (they all have deadlines), then close every connection."""
        self._threads.shutdown(wait=False, cancel_futures=True)
        with contextlib.suppress(TimeoutError):  # a dead server's socket must not hold us here
            async with asyncio.timeout(_CLOSE_WAIT):
                await asyncio.to_thread(self._threads.shutdown, wait=True)
        await asyncio.to_thread(self._pool.dispose)
        self._catalogs.clear()
        self._samplers.clear()
        self._domains.clear()

    # -- setup ----------------------------------------------------------------------------

    def _connect(self, config: SearchConfig) -> tuple[SchemaCatalog, ReadOnlyExecutor]:
        url = config.db.url
        if not url:
            raise SearchError(ErrorCode.UNSUPPORTED, "db.url is not set", provider=self.provider)
        engine = self._pool.get(url, connect_timeout=config.db.connect_timeout)
        catalog = self._catalogs.setdefault((url, config.db.connect_timeout), SchemaCatalog(engine))
        # The database gives up a little before the search does: no query outlives its search,
        # and the caller learns the database's own reason (locked, too slow).
        deadline = min(config.db.statement_timeout, config.options.timeout * 0.9)
        return catalog, ReadOnlyExecutor(engine, timeout=deadline, pool=self._threads)

    async def _models(
        self,
        request: SearchRequest,
        config: SearchConfig,
        catalog: SchemaCatalog,
        executor: ReadOnlyExecutor,
    ) -> tuple[dict[str, ModelSchema], list[str]]:
        """Return every exposed model (joins may reach them) and the ones this request asks."""
        schemas = [
            *config.db.schemas,
            *(m.rpartition(".")[0] for m in config.db.models if "." in m),
        ]
        names = await self._read(executor, catalog.names, schemas, executor=executor)
        exposed = [m for m in config.db.models if m in names] if config.db.models else names
        wanted = list(request.models) or exposed
        unknown = unknown_models(wanted, exposed)
        if unknown:
            look = functools.partial(elsewhere, name=unknown[0])
            found = await self._read(executor, executor.call_sync, look)
            raise unknown_model_error(unknown[0], exposed, found)
        if not wanted:
            raise SearchError(ErrorCode.INVALID_QUERY, "the database has no tables or views")
        settings = config.db.settings
        loaded = await asyncio.gather(
            *(
                self._read(
                    executor, catalog.model, m, settings.get(m, ModelSettings()), executor=executor
                )
                for m in exposed
            )
        )
        return dict(zip(exposed, loaded, strict=True)), wanted

    async def _read(
        self, executor: ReadOnlyExecutor, work: Callable[..., Any], /, *args: Any, **kwargs: Any
    ) -> Any:
        """Read the schema on the database threads; reflection errors become coded errors."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(
                executor.pool, functools.partial(work, *args, **kwargs)
            )
        except sa.exc.NoSuchTableError as exc:
            raise SearchError(
                ErrorCode.INVALID_QUERY, f"unknown model {exc}", provider="db"
            ) from exc
        except sa.exc.SQLAlchemyError as exc:
            raise SearchError(
                ErrorCode.PROVIDER_ERROR, f"cannot read the database schema: {exc}", provider="db"
            ) from exc

    def _sampler(self, config: SearchConfig) -> ValueSampler:
        key = (config.db.sample_values, config.db.sample_rows, config.db.sample_ttl)
        if key not in self._samplers:
            self._samplers[key] = ValueSampler(limit=key[0], rows=key[1], ttl=key[2])
        return self._samplers[key]

    async def _domain(
        self, ctx: SearchContext, models: Models, executor: ReadOnlyExecutor
    ) -> Domain:
        sampler = self._sampler(ctx.config)
        found = await asyncio.gather(
            *(sampler.sample(s, executor, ctx.user) for s in models.values())
        )
        samples: dict[str, Sample] = dict(zip(models, found, strict=True))
        db = ctx.config.db
        # The vocabulary is rebuilt only when the models, their settings or their samples change.
        settings = {m: db.settings[m].model_dump_json() for m in models if m in db.settings}
        key = (db.url, tuple(models), tuple(map(id, found)), repr(settings), repr(db.lexicon))
        if key not in self._domains:
            while len(self._domains) >= _DOMAINS_KEPT:
                self._domains.pop(next(iter(self._domains)))
            domain = Domain(dict(models), samples, dict(db.lexicon))
            # Learning the words of a large database takes a while: not on the event loop.
            await self._read(executor, lambda: domain.vocabulary.known)
            self._domains[key] = domain
        return self._domains[key]

    # -- planning -------------------------------------------------------------------------

    async def _plans(
        self,
        request: SearchRequest,
        ctx: SearchContext,
        models: Models,
        wanted: Sequence[str],
        executor: ReadOnlyExecutor,
    ) -> _Reading:
        """The delegate's plans when ``uses.querydsl`` names one and it answers, else the builtin's."""
        uses = ctx.config.uses.querydsl
        warnings: list[str] = []
        if uses != BUILTIN:
            delegated = await self._delegated(uses, request, ctx, models, wanted, warnings)
            if delegated is not None:
                return _Reading(delegated, uses)
        domain = await self._domain(ctx, models, executor)
        every = ctx.config.db.multi_model == "all"
        read = await self._read(
            executor, interpret, request.query, domain, wanted, today=self._today(), every=every
        )
        for plan in read.plans:
            await ctx.log("info", f"builtin DSL for {plan.dsl.model}: {plan.dsl.as_json()}")
        return _Reading(read.plans, BUILTIN, read.unknown, read.notes, warnings)

    async def _delegated(
        self,
        uses: str,
        request: SearchRequest,
        ctx: SearchContext,
        models: Models,
        wanted: Sequence[str],
        warnings: list[str],
    ) -> list[Plan] | None:
        """Return the delegate's plans, or ``None`` to fall back to the builtin generator."""
        strict = ctx.config.querydsl.strict
        try:
            answer = await ask_delegate(uses, request.query, {m: models[m] for m in wanted}, ctx)
            dsls = parse_answer(answer, list(wanted))
            for dsl in dsls:  # an unknown column or a wrong value counts as a bad answer
                compile_dsl(dsl, models, max_results=1, user=ctx.user)
        except (InvalidDSL, SearchError) as exc:
            failed = isinstance(exc, SearchError) and exc.code is not ErrorCode.INVALID_QUERY
            reason = getattr(exc, "message", None) or str(exc)
            message = f"{uses} {'failed' if failed else 'returned an unusable DSL'}: {reason}"
            if strict:
                if isinstance(exc, SearchError) and failed:
                    raise
                raise SearchError(ErrorCode.INVALID_QUERY, message, provider=self.provider) from exc
            warnings.append(f"{message}; the builtin generator answered instead")
            await ctx.log("warn", warnings[-1])
            return None
        keywords = tuple(question_keywords(request.query))
        return [Plan(d, keywords) for d in dsls]

    # -- running --------------------------------------------------------------------------

    async def _run(
        self,
        plan: Plan,
        models: Models,
        executor: ReadOnlyExecutor,
        limit: int,
        ctx: SearchContext,
        selected: bool,
    ) -> tuple[Plan, list[ResultItem]]:
        compiled = compile_dsl(plan.dsl, models, max_results=limit, user=ctx.user)
        rows = await _fetch(executor, compiled, ctx, plan.dsl.model)
        if not rows and plan.relaxed is not None and ctx.config.querydsl.relax_keywords:
            await ctx.log("info", f"{plan.dsl.model}: no row has every keyword; trying any")
            plan = Plan(plan.relaxed, plan.keywords)
            compiled = compile_dsl(plan.dsl, models, max_results=limit, user=ctx.user)
            rows = await _fetch(executor, compiled, ctx, plan.dsl.model)
        await ctx.log("info", f"{plan.dsl.model}: {len(rows)} rows")
        schema = models[plan.dsl.model]
        if compiled.figures:
            return plan, figure_items(schema, rows)
        visible = [k for k in compiled.keys if k not in compiled.hidden] if selected else None
        return plan, row_items(schema, rows, plan.keywords, visible)


async def _fetch(
    executor: ReadOnlyExecutor, compiled: Compiled, ctx: SearchContext, model: str
) -> list[dict[str, Any]]:
    async with ctx.step(StepName.DB_QUERY, model=model) as step:
        rows = [compiled.named(row) for row in await executor.fetch(compiled.statement)]
        step.output["rows"] = len(rows)
    return rows


def _refused(
    request: SearchRequest, reading: _Reading, models: Sequence[str], reason: str = ""
) -> SearchResult:
    understanding = reading.understanding()
    words = ", ".join(repr(w) for w in reading.not_understood) or "none"
    shown = ", ".join(models[:20]) + (", …" if len(models) > 20 else "")
    hint = f"use the names of models ({shown}), columns and values, or pass a DSL"
    if reason:
        message = (
            f"the question was read as {understanding.understood!r}, which cannot be asked "
            f"of the database ({reason}); nothing was queried"
        )
    elif reading.plans:
        message = (
            f"could not read {words} in the question, so nothing was queried "
            f"({understanding.line()}); {hint}"
        )
    else:
        message = (
            "nothing in the question names a model, column or value of the database "
            f"(not understood: {words}), so nothing was queried; {hint}"
        )
    return SearchResult(
        type=SearchType.DB,
        query=request.query,
        source=request.source,
        error=ErrorInfo(code=ErrorCode.INVALID_QUERY, message=message, provider="db"),
        dsl=_dsl_json([p.dsl for p in reading.plans]) if reading.plans else None,
        metadata={KEY: understanding.as_metadata(), "generator": reading.generator},
    )


def _result(
    request: SearchRequest,
    plans: Sequence[Plan],
    outcomes: Sequence[tuple[Plan, list[ResultItem]]],
    reading: _Reading,
) -> SearchResult:
    items = sorted(
        (item for _, found in outcomes for item in found), key=lambda i: i.score, reverse=True
    )
    ran = [plan for plan, _ in outcomes]
    relaxed = [
        p.dsl.model for p, original in zip(ran, plans, strict=True) if p.dsl is not original.dsl
    ]
    keywords = list(dict.fromkeys(k for plan in plans for k in plan.keywords))
    return SearchResult(
        type=SearchType.DB,
        query=request.query,
        source=request.source,
        items=items,
        total=len(items),
        keywords=keywords,
        dsl=_dsl_json([p.dsl for p in ran]),
        metadata={
            "models": [p.dsl.model for p in plans],
            "generator": reading.generator,
            "relaxed": relaxed,
            KEY: reading.understanding(ran).as_metadata(),
        },
    )


def _dsl_json(dsls: Sequence[QueryDSL]) -> dict[str, Any]:
    ran = [d.as_json() for d in dsls]
    return ran[0] if len(ran) == 1 else {"queries": ran}


def question_keywords(question: str) -> list[str]:
    """Return the plain content words of a question (to score rows found by a delegate's DSL)."""
    words = re.findall(r"[a-z0-9]{2,}|[\u3400-\u9fff]{2,}", question.lower())
    return list(dict.fromkeys(w for w in words if w not in FILLER and not w.isdigit()))
