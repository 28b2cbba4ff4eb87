"""The contract between the engine and a source (web, knowledge base, database, or your own)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from unified_search.config.search import SearchConfig
from unified_search.contract.delegates import Delegates
from unified_search.contract.events import LogLevel
from unified_search.contract.steps import StepFn, no_step
from unified_search.types import SearchRequest, SearchResult


class LogFn(Protocol):
    """``ctx.log``: attach a log line, and the figures behind it, to the request's trace node."""

    async def __call__(
        self, level: LogLevel, message: str, data: Mapping[str, Any] | None = None
    ) -> None:
        """Log ``message`` at ``level`` with optional JSON-ready ``data``."""
        ...


async def _discard(level: LogLevel, message: str, data: Mapping[str, Any] | None = None) -> None:
    return None


@dataclass(frozen=True)
class SearchContext:
    """What a handler may know about the search it serves.

    Attributes:
        config: the configuration resolved for this call (all layers applied).
        request_id: the citation scope this search belongs to; citation IDs are unique within it.
        chat_id: the conversation, when the caller gave one.
        user: values from the caller's context, such as a tenant ID used by database
            permission filters. Never taken from the query text.
        log: attach a log line (and a ``data`` mapping) to this request's trace node.
        delegates: the registered agents and MCP servers, for ``uses`` values.
        step: time a step of this request as a sub-node of its trace node:
            ``async with ctx.step("dsl_build"):`` or, around blocking work and in
            worker threads, ``with ctx.step("embedding"):`` (see ``unified_search.contract.steps``).
    """

    config: SearchConfig
    request_id: str
    chat_id: str | None = None
    user: Mapping[str, Any] = field(default_factory=dict)
    log: LogFn = _discard
    delegates: Delegates = field(default_factory=Delegates)
    step: StepFn = no_step


@runtime_checkable
class SearchHandler(Protocol):
    """Answer one request of one search type.

    Raise ``SearchError`` (or let any exception escape) on failure: the engine
    turns it into ``SearchResult.error`` and the other requests go on. Return a
    result with ``failures`` when only part of the work failed. ``asearch`` is the
    engine's hook (async, called by the Searcher); callers search through
    ``Searcher.asearch`` / ``search`` or ``SearchSession``. A web handler may also
    offer ``async aretrieve(url, ctx)``, which ``Searcher.aretrieve`` uses. Async
    methods are named ``a`` + name everywhere, as in LangChain and LlamaIndex.

    Example:
        >>> class Echo:
        ...     async def asearch(self, request, ctx):
        ...         item = ResultItem(type=request.type, title=request.query)
        ...         return SearchResult(type=request.type, query=request.query, items=[item])
    """

    async def asearch(self, request: SearchRequest, ctx: SearchContext) -> SearchResult:
        """Search and return items for ``request``."""
        ...


@runtime_checkable
class ClosableHandler(Protocol):
    """A handler that holds resources (connections, clients) to release."""

    async def aclose(self) -> None:
        """Release the handler's resources."""
        ...
