"""Hand the automatic search to an agent or an MCP tool named by ``uses.search``.

With ``uses.search`` set to a registered agent or ``mcp:<server>.<tool>``, the
automatic (``source: auto``) requests of a search are not sent to the builtin
sources: the delegate is called once for all of them and receives

    {"query": "...", "sources": [{"type": "web", "limit": 10, "providers": [...],
     "sites": [...], "exclude_sites": [...], "time_range": null},
     {"type": "kb", "limit": 10, "collections": [...]},
     {"type": "db", "limit": 20, "models": [...]}]}

one source per type asked for, with what the configuration and the request
say about it. It answers a list of items (or ``{"items": [...]}``), each with
a ``type`` among those sources (optional when there is one source) and the
fields of a ``ResultItem`` (see ``unified_search.contract.agent_items``). Every
automatic request keeps its trace node, its result, its citations and its
record: the first request of each type gets the items of that type. A
malformed item fails the request of its type with PROVIDER_ERROR; an answer
that is not a list of items, or an item of a type nobody asked for, fails
every automatic request. User and hook requests of the same search still go
to their sources.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from unified_search.config.search import SearchConfig
from unified_search.contract.agent_items import agent_item, answer_entries, bad_output
from unified_search.contract.handler import SearchContext
from unified_search.engine.choices import SEARCH_CHOICES
from unified_search.errors import SearchError, provider_failure
from unified_search.types import JSON, ResultItem, SearchRequest, SearchResult, SearchType, Source

Fetch = Callable[[SearchRequest, SearchContext], Awaitable[SearchResult]]
#: Items per type, or the error that fails the requests of that type.
Answer = dict[SearchType, list[ResultItem] | SearchError]


def delegating(fetch: Fetch, batch: Sequence[SearchRequest], config: SearchConfig) -> Fetch:
    """Route the automatic requests of ``batch`` to ``uses.search`` when it names a delegate."""
    uses = config.uses.search
    automatic = [request for request in batch if request.source is Source.AUTO]
    if uses in SEARCH_CHOICES or not automatic:
        return fetch
    delegated = DelegatedSearch(uses, automatic)

    async def run(request: SearchRequest, ctx: SearchContext) -> SearchResult:
        if request.source is not Source.AUTO:
            return await fetch(request, ctx)
        return await delegated.asearch(request, ctx)

    return run


class DelegatedSearch:
    """One call of the delegate, shared by every automatic request of one search.

    Example:
        >>> search = DelegatedSearch("researcher", [SearchRequest(query="q", source="auto")])
        >>> search.sources(SearchConfig())[0]["type"]
        'web'
    """

    def __init__(self, uses: str, requests: Sequence[SearchRequest]) -> None:
        self.uses = uses
        self.requests = list(requests)
        self._call: asyncio.Future[Answer] | None = None
        self._waiting = 0

    async def asearch(self, request: SearchRequest, ctx: SearchContext) -> SearchResult:
        """The delegate's items of ``request``'s type (for the first request of that type)."""
        await ctx.log("info", f"automatic search delegated to {self.uses}")
        first = next(r for r in self.requests if r.type is request.type)
        found = await self._answer(ctx)
        items = found.get(request.type, [])
        if isinstance(items, SearchError):
            raise items
        mine = items if first is request else []
        return SearchResult(
            type=request.type,
            query=request.query,
            items=mine[: request.limit] if request.limit else mine,
            metadata={"delegated_to": self.uses},
        )

    def sources(self, config: SearchConfig) -> list[JSON]:
        """What the delegate is told about each type it should search."""
        firsts = {request.type: request for request in reversed(self.requests)}
        return [
            _source(firsts[kind], config) for kind in dict.fromkeys(r.type for r in self.requests)
        ]

    async def _answer(self, ctx: SearchContext) -> Answer:
        """Wait for the shared call; the last request to stop waiting cancels it."""
        if self._call is None:
            self._call = asyncio.ensure_future(self._ask(ctx))
        self._waiting += 1
        try:
            return await asyncio.shield(self._call)
        finally:
            self._waiting -= 1
            if self._waiting == 0 and not self._call.done():
                self._call.cancel()

    async def _ask(self, ctx: SearchContext) -> Answer:
        payload = {"query": self.requests[0].query, "sources": self.sources(ctx.config)}
        try:
            output = await ctx.delegates.call(self.uses, payload, ctx.config)
        except SearchError:
            raise
        except Exception as exc:  # an agent's own failure is this source's failure
            raise provider_failure(exc, self.uses) from exc
        return self._sorted(answer_entries(output, provider=self.uses))

    def _sorted(self, entries: list[Any]) -> Answer:
        """Items by type; a malformed item turns its type's list into the error."""
        kinds = list(dict.fromkeys(request.type for request in self.requests))
        found: Answer = {kind: [] for kind in kinds}
        for rank, entry in enumerate(entries):
            kind = _kind(entry, kinds, rank, self.uses)
            if isinstance(found[kind], SearchError):
                continue
            try:
                item = agent_item(_without_type(entry), rank, provider=self.uses, kind=kind)
            except SearchError as exc:
                found[kind] = exc
                continue
            listed = found[kind]
            assert isinstance(listed, list)
            listed.append(item)
        return found


def _kind(entry: Any, kinds: list[SearchType], rank: int, uses: str) -> SearchType:
    """The type an entry says it is (the only one asked for when it says none)."""
    declared = entry.get("type") if isinstance(entry, dict) else getattr(entry, "type", None)
    if declared is None and len(kinds) == 1:
        return kinds[0]
    valid = ", ".join(kind.value for kind in kinds)
    try:
        kind = SearchType(str(declared))
    except ValueError:
        raise bad_output(
            uses, f"item {rank} has type {declared!r}; expected one of {valid}"
        ) from None
    if kind not in kinds:
        raise bad_output(uses, f"item {rank} is of type {kind.value}; only {valid} was asked for")
    return kind


def _without_type(entry: Any) -> Any:
    return {k: v for k, v in entry.items() if k != "type"} if isinstance(entry, dict) else entry


def _source(request: SearchRequest, config: SearchConfig) -> JSON:
    if request.type is SearchType.WEB:
        return {
            "type": "web",
            "limit": request.limit or config.web.max_results,
            "providers": list(request.options.get("providers") or config.web.providers),
            "sites": list(request.sites),
            "exclude_sites": list(request.exclude_sites),
            "time_range": request.time_range,
        }
    if request.type is SearchType.KB:
        collections = request.collections or config.kb.collections
        return {
            "type": "kb",
            "limit": request.limit or config.kb.max_results,
            "collections": collections,
        }
    models = request.models or config.db.models
    return {"type": "db", "limit": request.limit or config.db.max_results, "models": models}
