"""Database search: question → DSL → read-only ``select`` → citable rows.

Which models are searched: the request's ``models``, else ``db.models``, else
every table and view; a request may only name exposed models. With several
models and ``db.multi_model: best`` (the default), the builtin generator
scores each model by how strongly the question names it (its name and label,
column words, category values found) and queries the best one; when several
share the best score, all of them are queried in parallel and their rows
merged by score. ``multi_model: all`` always queries every model.

``SearchResult.dsl`` is the DSL that ran, in JSON form; with several models it
is ``{"queries": [...]}``, one per model. When every keyword had to match and
no row did, the query is run again with any keyword matching
(``querydsl.relax_keywords``); the relaxed DSL is the one reported.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import sqlalchemy as sa
from pydantic import BaseModel, ValidationError

from unified_search.config import SearchConfig
from unified_search.db.compiler import compile_dsl
from unified_search.db.config import ModelSettings
from unified_search.db.delegated import InvalidDSL, ask_delegate, parse_answer
from unified_search.db.dsl import FieldLike, Order, QueryDSL, Where, field_name
from unified_search.db.execute import EnginePool, ReadOnlyExecutor
from unified_search.db.lexicon import STOPWORDS
from unified_search.db.nl2dsl import Generated, check_question, generate
from unified_search.db.rows import row_items
from unified_search.db.samples import ValueSampler
from unified_search.db.schema import ModelSchema, SchemaCatalog, check_models
from unified_search.delegates import BUILTIN
from unified_search.errors import ErrorCode, SearchError
from unified_search.handler import SearchContext
from unified_search.types import ResultItem, SearchRequest, SearchResult, SearchType

_DSLPart = TypeVar("_DSLPart", bound=BaseModel)


@dataclass(frozen=True)
class Plan:
    """One query to run: the DSL, a keyword-relaxed fallback, and the keywords that score rows."""

    schema: ModelSchema
    dsl: QueryDSL
    keywords: tuple[str, ...]
    relaxed: QueryDSL | None = None


@dataclass(frozen=True)
class _Extra:
    """What the request itself fixes: wheres, orders and columns merged into every DSL."""

    wheres: list[Where]
    orders: list[Order]
    select: list[FieldLike]

    def as_dsl(self, model: str) -> QueryDSL:
        """Return these parts alone as a DSL over ``model``."""
        return QueryDSL(model=model, wheres=self.wheres, orders=self.orders, select=self.select)


class DBHandler:
    """Answer ``type: db`` requests over the database at ``db.url``.

    Example:
        >>> handler = DBHandler.from_config(SearchConfig.load(profile={"db": {"url": "sqlite:///shop.db"}}))
        >>> searcher = Searcher(handlers={"db": handler})  # doctest: +SKIP
    """

    provider = "db"

    def __init__(self, *, today: Callable[[], dt.date] = dt.date.today) -> None:
        self._pool = EnginePool()
        self._catalogs: dict[str, SchemaCatalog] = {}
        self._samplers: dict[tuple[int, float], ValueSampler] = {}
        self._today = today

    @classmethod
    def from_config(cls, config: SearchConfig) -> DBHandler:
        """Build the handler; engines open lazily, per URL, on first search."""
        return cls()

    async def search(self, request: SearchRequest, ctx: SearchContext) -> SearchResult:
        """Search the models the request may see and return their rows as items."""
        config = ctx.config
        check_question(request.query)
        catalog, executor = self._connect(config)
        schemas = await self._schemas(request, config, catalog)
        extra = _request_parts(request)
        for schema in schemas.values():  # the request's own DSL must fit before anything runs
            compile_dsl(extra.as_dsl(schema.name), schema, max_results=1, user=ctx.user)
        plans, generator = await self._plans(request, ctx, schemas, executor)
        limit = min(config.db.max_results, request.limit or config.db.max_results)
        plans = [_merged(p, extra) for p in plans]
        for plan in plans:  # compile everything first: a bad query runs nothing at all
            compile_dsl(plan.dsl, plan.schema, max_results=limit, user=ctx.user)
        runs = [self._run(p, executor, limit, ctx, bool(extra.select)) for p in plans]
        outcomes = await asyncio.gather(*runs)
        return _result(request, plans, outcomes, generator)

    async def aclose(self) -> None:
        """Dispose every engine's connections."""
        await asyncio.to_thread(self._pool.dispose)
        self._catalogs.clear()
        self._samplers.clear()

    # -- setup ----------------------------------------------------------------------------

    def _connect(self, config: SearchConfig) -> tuple[SchemaCatalog, ReadOnlyExecutor]:
        url = config.db.url
        if not url:
            raise SearchError(ErrorCode.UNSUPPORTED, "db.url is not set", provider=self.provider)
        engine = self._pool.get(url)
        catalog = self._catalogs.setdefault(url, SchemaCatalog(engine))
        return catalog, ReadOnlyExecutor(engine, timeout=config.db.statement_timeout)

    async def _schemas(
        self, request: SearchRequest, config: SearchConfig, catalog: SchemaCatalog
    ) -> dict[str, ModelSchema]:
        names = await _in_thread(catalog.names)
        exposed = [m for m in config.db.models if m in names] if config.db.models else names
        wanted = request.models or exposed
        check_models(wanted, exposed)
        if not wanted:
            raise SearchError(ErrorCode.INVALID_QUERY, "the database has no tables or views")
        settings = config.db.settings
        loaded = [_in_thread(catalog.model, m, settings.get(m, ModelSettings())) for m in wanted]
        return dict(zip(wanted, await asyncio.gather(*loaded), strict=True))

    def _sampler(self, config: SearchConfig) -> ValueSampler:
        key = (config.db.sample_values, config.db.sample_ttl)
        if key not in self._samplers:
            self._samplers[key] = ValueSampler(limit=key[0], ttl=key[1])
        return self._samplers[key]

    # -- planning -------------------------------------------------------------------------

    async def _plans(
        self,
        request: SearchRequest,
        ctx: SearchContext,
        schemas: Mapping[str, ModelSchema],
        executor: ReadOnlyExecutor,
    ) -> tuple[list[Plan], str]:
        uses = ctx.config.uses.querydsl
        if uses != BUILTIN:
            delegated = await self._delegated(uses, request, ctx, schemas)
            if delegated is not None:
                return delegated, uses
        return await self._builtin(request, ctx, schemas, executor), BUILTIN

    async def _builtin(
        self,
        request: SearchRequest,
        ctx: SearchContext,
        schemas: Mapping[str, ModelSchema],
        executor: ReadOnlyExecutor,
    ) -> list[Plan]:
        sampler = self._sampler(ctx.config)
        samples = await asyncio.gather(
            *(sampler.sample(s, executor, ctx.user) for s in schemas.values())
        )
        today = self._today()
        drafts = [
            generate(request.query, s, found, today=today)
            for s, found in zip(schemas.values(), samples, strict=True)
        ]
        chosen = _choose(drafts, ctx.config.db.multi_model)
        for draft in chosen:
            await ctx.log("info", f"builtin DSL for {draft.dsl.model}: {draft.dsl.as_json()}")
        return [Plan(schemas[d.dsl.model], d.dsl, d.keywords, d.relaxed) for d in chosen]

    async def _delegated(
        self,
        uses: str,
        request: SearchRequest,
        ctx: SearchContext,
        schemas: Mapping[str, ModelSchema],
    ) -> list[Plan] | None:
        """Return the delegate's plans, or ``None`` to fall back to the builtin generator."""
        strict = ctx.config.querydsl.strict
        try:
            answer = await ask_delegate(uses, request.query, schemas, ctx)
        except SearchError as exc:
            if strict:
                raise
            await ctx.log("warn", f"{uses} failed ({exc}); using the builtin generator")
            return None
        try:
            dsls = parse_answer(answer, list(schemas))
            for dsl in dsls:  # an unknown column or a wrong value counts as a bad answer
                compile_dsl(dsl, schemas[dsl.model], max_results=1, user=ctx.user)
        except (InvalidDSL, SearchError) as exc:
            message = f"{uses} returned an unusable DSL: {getattr(exc, 'message', exc)}"
            if strict:
                raise SearchError(ErrorCode.INVALID_QUERY, message, provider=self.provider) from exc
            await ctx.log("warn", f"{message}; using the builtin generator")
            return None
        keywords = tuple(question_keywords(request.query))
        return [Plan(schemas[d.model], d, keywords) for d in dsls]

    # -- running --------------------------------------------------------------------------

    async def _run(
        self,
        plan: Plan,
        executor: ReadOnlyExecutor,
        limit: int,
        ctx: SearchContext,
        selected: bool,
    ) -> tuple[Plan, list[ResultItem]]:
        rows = await executor.fetch(_compiled(plan.dsl, plan, limit, ctx))
        if not rows and plan.relaxed is not None and ctx.config.querydsl.relax_keywords:
            await ctx.log("info", f"{plan.schema.name}: no row has every keyword; trying any")
            plan = Plan(plan.schema, plan.relaxed, plan.keywords)
            rows = await executor.fetch(_compiled(plan.dsl, plan, limit, ctx))
        visible = [field_name(f) for f in plan.dsl.select] if selected else None
        await ctx.log("info", f"{plan.schema.name}: {len(rows)} rows")
        return plan, row_items(plan.schema, rows, plan.keywords, visible)


def _compiled(dsl: QueryDSL, plan: Plan, limit: int, ctx: SearchContext) -> sa.Select[Any]:
    return compile_dsl(dsl, plan.schema, max_results=limit, user=ctx.user)


async def _in_thread(function: Callable[..., Any], *args: Any) -> Any:
    try:
        return await asyncio.to_thread(function, *args)
    except sa.exc.NoSuchTableError as exc:
        raise SearchError(ErrorCode.INVALID_QUERY, f"unknown model {exc}", provider="db") from exc
    except sa.exc.SQLAlchemyError as exc:
        raise SearchError(
            ErrorCode.PROVIDER_ERROR, f"cannot read the database schema: {exc}", provider="db"
        ) from exc


def _choose(drafts: Sequence[Generated], rule: str) -> list[Generated]:
    if rule == "all" or len(drafts) == 1:
        return list(drafts)
    best = max(d.score for d in drafts)
    return [d for d in drafts if d.score == best]


def _request_parts(request: SearchRequest) -> _Extra:
    return _Extra(
        wheres=[_validated(Where, "wheres", i, w) for i, w in enumerate(request.wheres)],
        orders=[_validated(Order, "orders", i, o) for i, o in enumerate(request.orders)],
        select=list(request.select),
    )


def _validated(model: type[_DSLPart], part: str, index: int, data: Any) -> _DSLPart:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join([part, str(index), *(str(p) for p in first["loc"])])
        raise SearchError(
            ErrorCode.INVALID_QUERY, f"request {where}: {first['msg']}", provider="db"
        ) from exc


def _merged(plan: Plan, extra: _Extra) -> Plan:
    """Put the request's own wheres, orders and select around the generated DSL."""

    def merge(dsl: QueryDSL) -> QueryDSL:
        ordered = {field_name(o.field) for o in extra.orders}
        orders = [*extra.orders, *(o for o in dsl.orders if field_name(o.field) not in ordered)]
        update: dict[str, Any] = {"wheres": [*extra.wheres, *dsl.wheres], "orders": orders}
        if extra.select:
            update["select"] = extra.select
        return dsl.model_copy(update=update)

    relaxed = merge(plan.relaxed) if plan.relaxed else None
    return Plan(plan.schema, merge(plan.dsl), plan.keywords, relaxed)


def _result(
    request: SearchRequest,
    plans: Sequence[Plan],
    outcomes: Sequence[tuple[Plan, list[ResultItem]]],
    generator: str,
) -> SearchResult:
    items = sorted(
        (item for _, found in outcomes for item in found), key=lambda i: i.score, reverse=True
    )
    ran = [plan.dsl.as_json() for plan, _ in outcomes]
    relaxed = [
        p.dsl.model
        for (p, _), original in zip(outcomes, plans, strict=True)
        if p.dsl is not original.dsl
    ]
    keywords = list(dict.fromkeys(k for plan in plans for k in plan.keywords))
    return SearchResult(
        type=SearchType.DB,
        query=request.query,
        source=request.source,
        items=items,
        total=len(items),
        keywords=keywords,
        dsl=ran[0] if len(ran) == 1 else {"queries": ran},
        metadata={
            "models": [p.schema.name for p in plans],
            "generator": generator,
            "relaxed": relaxed,
        },
    )


def question_keywords(question: str) -> list[str]:
    """Return the plain content words of a question (to score rows found by a delegate's DSL)."""
    words = re.findall(r"[a-z0-9]{2,}|[\u3400-\u9fff]{2,}", question.lower())
    return list(dict.fromkeys(w for w in words if w not in STOPWORDS and not w.isdigit()))
