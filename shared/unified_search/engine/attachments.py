"""Context a user attaches to a question, cited like search results (the design's DataSource).

A user (or the application on their behalf) may attach a database row, a
knowledge-base document or an MCP resource to a question. Passed as
``context=[...]`` to any search, each becomes a reference of its own: cited
``ref_NNN`` in the call's scope, ``source: user`` (weight 1.0, so it ranks
above what searches found and wins over the same row or document found again),
recorded with the search, and counted toward ``options.skip_threshold``. Each
attachment is one item of the search's trace; an MCP resource is read through
the MCP client when its text is not given, and one that cannot be read fails
its own item while the rest of the search goes on.

Example:
    >>> row = DBRow(model="orders", record_id="42", data={"status": "late"})
    >>> row_item(row).title, row_item(row).content
    ('orders 42', 'status: late')
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from unified_search.contract.handler import SearchContext
from unified_search.types import JSON, ResultItem, SearchRequest, SearchResult, SearchType, Source

Fetch = Callable[[SearchRequest, SearchContext], Awaitable[SearchResult]]


class _Attached(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    title: str = ""
    """How the reference is titled; a default is made from what identifies it."""


class DBRow(_Attached):
    """A database row the user points at."""

    type: Literal["db_row"] = "db_row"
    model: str = Field(min_length=1)
    """The table or view it comes from."""
    record_id: str | None = None
    """Its primary key; with it, the same row found by a search is cited once."""
    data: JSON
    """The row's columns and values."""


class KBDocument(_Attached):
    """A knowledge-base document (or any text) the user attached."""

    type: Literal["kb_document"] = "kb_document"
    content: str = Field(min_length=1)
    collection: str | None = None
    document_id: str | None = None
    """Its ID in ``collection``; with it, the same document found by a search is cited once."""
    url: str | None = None


class MCPResource(_Attached):
    """A resource of a configured MCP server, read when ``content`` is not given."""

    type: Literal["mcp_resource"] = "mcp_resource"
    server: str = Field(min_length=1)
    """The server's name under ``mcp:`` in the configuration."""
    uri: str = Field(min_length=1)
    content: str | None = None


DataSource = Annotated[DBRow | KBDocument | MCPResource, Field(discriminator="type")]
"""Anything a user can attach: ``{"type": "db_row" | "kb_document" | "mcp_resource", ...}``."""


def attaching(
    fetch: Fetch, sources: Sequence[DataSource], question: str
) -> tuple[list[SearchRequest], Fetch]:
    """The requests that carry ``sources``, and a fetch answering them (others go to ``fetch``)."""
    requests = [
        SearchRequest(
            query=question,
            type=SearchType.DB if isinstance(source, DBRow) else SearchType.KB,
            source=Source.USER,
        )
        for source in sources
    ]
    attached = {id(request): source for request, source in zip(requests, sources, strict=True)}

    async def run(request: SearchRequest, ctx: SearchContext) -> SearchResult:
        source = attached.get(id(request))
        if source is None:
            return await fetch(request, ctx)
        item = await _item(source, ctx)
        return SearchResult(
            type=request.type, query=question, items=[item], metadata={"attached": source.type}
        )

    return requests, run


def row_item(row: DBRow) -> ResultItem:
    """The item of an attached row: its columns as ``name: value`` lines."""
    lines = "\n".join(f"{name}: {value}" for name, value in row.data.items())
    title = row.title or " ".join(part for part in (row.model, row.record_id) if part)
    return ResultItem(
        type=SearchType.DB,
        title=title,
        content=lines,
        score=1.0,
        model=row.model,
        record_id=row.record_id,
        data=dict(row.data),
        metadata={"attached": row.type},
    )


async def _item(source: DataSource, ctx: SearchContext) -> ResultItem:
    if isinstance(source, DBRow):
        return row_item(source)
    if isinstance(source, KBDocument):
        return ResultItem(
            type=SearchType.KB,
            title=source.title or source.document_id or "",
            content=source.content,
            url=source.url,
            score=1.0,
            collection=source.collection,
            document_id=source.document_id,
            metadata={"attached": source.type},
        )
    return await _resource_item(source, ctx)


async def _resource_item(resource: MCPResource, ctx: SearchContext) -> ResultItem:
    content = resource.content
    if content is None:
        from unified_search.contract.mcp_client import (
            read_mcp_resource,  # the MCP SDK loads on demand
        )

        content = await read_mcp_resource(ctx.config, resource.server, resource.uri)
    web = resource.uri.startswith(("http://", "https://"))
    return ResultItem(
        type=SearchType.KB,
        title=resource.title or resource.uri,
        content=content,
        url=resource.uri if web else None,
        score=1.0,
        collection=f"mcp:{resource.server}",
        document_id=resource.uri,
        metadata={"attached": resource.type, "mcp_server": resource.server, "uri": resource.uri},
    )
