"""Open the engine for one command and check its sources before any search starts.

A search that cannot possibly work (no database reachable at the URL, a
collection that does not exist, web search without a provider) is bad input:
it stops with exit code 2 before anything runs, instead of reporting a failed
source after the fact.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, NoSuchModuleError, SQLAlchemyError

from unified_search._optional import missing_driver
from unified_search.cli.options import BadInput
from unified_search.config.search import SearchConfig
from unified_search.contract.response import SearchResponse
from unified_search.engine.searcher import Searcher
from unified_search.policy.modes import QueryMode, arun_mode
from unified_search.policy.session import RunIds
from unified_search.policy.sources import default_types, usable_providers
from unified_search.records.store import SearchStore
from unified_search.types import SearchRequest, SearchType


def open_searcher(config: SearchConfig) -> Searcher:
    """A Searcher over ``config`` that records every search in the default store."""
    return Searcher(config, store=SearchStore())


def chosen_types(config: SearchConfig, types: Sequence[SearchType] | None) -> list[SearchType]:
    """The types asked for, else every configured one; refuse when nothing is configured."""
    if types:
        return list(types)
    configured = default_types(config)
    if configured == [SearchType.WEB] and not (config.web.providers or usable_providers(config)):
        raise BadInput(
            "nothing to search: pass --collection NAME, --db URL or --type, or configure "
            "sources in search.yml (see unified-search config --help)"
        )
    return configured


async def asearch(
    config: SearchConfig,
    query: str | Sequence[str],
    types: Sequence[SearchType],
    *,
    mode: QueryMode | None = None,
    **options: Any,
) -> SearchResponse:
    """Open a recording Searcher over ``config`` and run :func:`arun_search` on it."""
    async with open_searcher(config) as searcher:
        return await arun_search(searcher, query, types, mode=mode, **options)


async def arun_search(
    searcher: Searcher,
    query: str | Sequence[str],
    types: Sequence[SearchType],
    *,
    mode: QueryMode | None = None,
    rerank: str | None = None,
    chat_id: str | None = None,
    limit: int | None = None,
    time_range: str | None = None,
    **options: Any,
) -> SearchResponse:
    """Check the sources, then run one request per (query × type) in ``mode``.

    ``rerank`` names the reranker, ``limit`` the results asked of each source per query,
    ``time_range`` how recent web pages must be. The search is stored under ``chat_id`` as
    the HTTP API and the adapters store theirs (``RunIds.address``): the chat is the citation
    scope, and a search without one is its own chat.
    """
    await check_sources(searcher, types)
    fields: dict[str, Any] = {"rerank": {"uses": rerank}} if rerank else {}
    if limit is not None:
        fields["limit"] = limit
    queries = [query] if isinstance(query, str) else list(query)
    requests = [
        SearchRequest.model_validate(
            {**fields, **_web_only(kind, time_range), "query": text, "type": kind}
        )
        for text in queries
        for kind in types
    ]
    scope, chat = RunIds(chat_id=chat_id).address(searcher.new_scope)
    return await arun_mode(searcher, requests, mode, request_id=scope, chat_id=chat, **options)


def _web_only(kind: SearchType, time_range: str | None) -> dict[str, Any]:
    return {"time_range": time_range} if time_range and kind is SearchType.WEB else {}


async def check_sources(searcher: Searcher, types: Sequence[SearchType]) -> None:
    """Refuse sources that cannot answer: raise ``BadInput`` naming what is missing."""
    config = searcher.config
    if SearchType.WEB in types and not (config.web.providers or usable_providers(config)):
        from unified_search.web.registry import no_provider_error

        raise BadInput(no_provider_error(config.web).message)
    if SearchType.DB in types:
        await asyncio.to_thread(check_database, config.db.url)
    if SearchType.KB in types:
        await check_collections(searcher, config.kb.collections)


def check_database(url: str | None) -> None:
    """Connect once to ``url``; raise ``BadInput`` with the reason when that fails."""
    if not url:
        raise BadInput("database search needs a database: pass --db URL or set db.url")
    parsed = _parsed(url)
    shown = parsed.render_as_string(hide_password=True)
    if _missing_sqlite_file(parsed):
        raise BadInput(f"cannot connect to {shown}: the database file does not exist")
    try:
        engine = create_engine(parsed)
    except (NoSuchModuleError, ImportError) as exc:
        problem = missing_driver(parsed.get_backend_name(), exc)
        raise BadInput(f"cannot connect to {shown}: {problem}") from exc
    try:
        with engine.connect() as conn:
            conn.execute(text("SELECT 1"))
    except SQLAlchemyError as exc:
        cause = getattr(exc, "orig", None) or exc  # the driver's own message when there is one
        raise BadInput(f"cannot connect to {shown}: {_first_line(cause)}") from exc
    finally:
        engine.dispose()


async def check_collections(searcher: Searcher, names: Sequence[str]) -> None:
    """Refuse unknown collection names, and an empty knowledge base."""
    handler = await searcher.ahandler(SearchType.KB)
    finder = getattr(handler, "afind_collections", None)
    if names and finder is not None and len(await finder(names)) == len(names):
        return  # found without listing every collection (embedded Chroma stays closed)
    lister = getattr(handler, "alist_collections", None)
    if lister is None:  # a registered handler that does not list its collections
        return
    existing: list[str] = await lister()
    if not existing:
        raise BadInput(
            "the knowledge base is empty: index documents first "
            "(unified-search index PATH --collection NAME)"
        )
    unknown = [name for name in names if name not in existing]
    if unknown:
        raise BadInput(
            f"unknown collection {unknown[0]!r}; existing collections: {', '.join(existing)}"
        )


def _parsed(url: str) -> URL:
    try:
        return make_url(url)
    except ArgumentError as exc:
        raise BadInput(f"not a database URL: {url!r}") from exc


def _missing_sqlite_file(url: URL) -> bool:
    database = url.database or ""
    in_memory = database in ("", ":memory:") or database.startswith("file:")
    return url.get_backend_name() == "sqlite" and not in_memory and not Path(database).exists()


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]
