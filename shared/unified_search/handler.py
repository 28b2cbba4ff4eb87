"""The contract between the engine and a source (web, knowledge base, database, or your own)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from unified_search.config import SearchConfig
from unified_search.delegates import Delegates
from unified_search.events import LogLevel
from unified_search.types import SearchRequest, SearchResult

LogFn = Callable[[LogLevel, str], Awaitable[None]]


async def _discard(level: LogLevel, message: str) -> None:
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
        log: attach a log line to this request's trace node.
        delegates: the registered agents and MCP servers, for ``uses`` values.
    """

    config: SearchConfig
    request_id: str
    chat_id: str | None = None
    user: Mapping[str, Any] = field(default_factory=dict)
    log: LogFn = _discard
    delegates: Delegates = field(default_factory=Delegates)


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
