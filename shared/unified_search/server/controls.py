"""Per-request controls of ``POST /api/search``: ``uses``, attachments and the search switch.

* ``uses`` (``search``, ``web``, ``keyword``, ``querydsl``, ``rerank``) replaces the
  configured choice for this request only; each value must name something the
  server knows (a builtin, a registered agent, a configured MCP tool), checked
  before anything runs.
* ``attachments`` are the user's own rows and documents (the design's DataSource),
  each cited as a reference of its own at weight 1.0; an MCP resource only from a
  server listed in ``server.attach_mcp_servers``. At most
  ``server.max_attachments``, each at most ``server.max_attachment_chars``.
* ``search: false`` (or ``uses.search: disabled``) searches no source: the
  request's searches are recorded as skipped and only the attachments are cited.

Every refusal is a 422 naming the field; what was used is recorded with the search
(its configuration and its references).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated, Any, Protocol

from pydantic import BaseModel, ConfigDict, Field

from unified_search.engine.attachments import DataSource, DBRow, KBDocument, MCPResource
from unified_search.engine.choices import check_uses
from unified_search.errors import ConfigurationError
from unified_search.policy.modes import QueryMode
from unified_search.policy.session import SearchOptions
from unified_search.types import SearchType, Source

if TYPE_CHECKING:
    from unified_search.engine.searcher import Searcher

UsesValue = Annotated[str, Field(min_length=1, max_length=200)]
Problem = dict[str, str]
#: The ``uses.search`` value that turns searching off.
DISABLED = "disabled"


class SearchBody(Protocol):
    """What these controls read of a search's body (``unified_search.server.app.SearchBody``)."""

    types: list[SearchType] | None
    collections: list[str]
    models: list[str]
    top_n: int | None
    mode: QueryMode | None
    uses: RequestUses | None
    attachments: list[DataSource]
    search: bool


class RequestUses(BaseModel):
    """Which implementation does each job for this request (``builtin``, an agent, an MCP tool).

    Example:
        >>> RequestUses(rerank="rrf").model_dump(exclude_none=True)
        {'rerank': 'rrf'}
    """

    model_config = ConfigDict(extra="forbid")

    search: UsesValue | None = None
    """``builtin``, ``disabled`` (search nothing), or an agent or MCP tool that searches."""
    web: UsesValue | None = None
    keyword: UsesValue | None = None
    querydsl: UsesValue | None = None
    rerank: UsesValue | None = None


def control_problems(body: SearchBody, searcher: Searcher) -> list[Problem]:
    """What is wrong with the body's controls under the server's limits (empty: nothing)."""
    limits = searcher.config.server
    problems: list[Problem] = []
    if len(body.attachments) > limits.max_attachments:
        message = f"at most {limits.max_attachments} attachments (server.max_attachments)"
        problems.append({"field": "attachments", "message": message})
    for position, attached in enumerate(body.attachments):
        if problem := _attachment_problem(attached, limits.max_attachment_chars, limits):
            problems.append({"field": f"attachments.{position}", "message": problem})
    uses = _uses(body)
    if uses:
        try:
            check_uses(searcher.config.merged({"uses": uses}), searcher.delegates)
        except ConfigurationError as exc:
            problems.append({"field": exc.key or "uses", "message": _after_key(str(exc))})
    return problems


def search_options(body: SearchBody) -> SearchOptions:
    """The search policy's options for ``body``: its sources, mode and controls."""
    uses = _uses(body)
    searching = uses.get("search") != DISABLED
    return SearchOptions(
        types=body.types,
        collections=body.collections,
        models=body.models,
        k=body.top_n,
        mode=body.mode,
        # Switched off, the requests are automatic ones under uses.search: disabled: the
        # engine records them as skipped, and the attachments alone are cited.
        source=Source.USER if searching else Source.AUTO,
        overrides={"uses": uses} if uses else None,
        attachments=body.attachments,
    )


def _uses(body: SearchBody) -> dict[str, Any]:
    uses = body.uses.model_dump(exclude_none=True) if body.uses is not None else {}
    if not body.search:
        uses["search"] = DISABLED
    return uses


def _attachment_problem(attached: DataSource, most: int, limits: Any) -> str | None:
    if isinstance(attached, MCPResource) and attached.server not in limits.attach_mcp_servers:
        allowed = ", ".join(limits.attach_mcp_servers) or "none"
        return (
            f"resources of MCP server {attached.server!r} may not be attached "
            f"(server.attach_mcp_servers: {allowed})"
        )
    if _size(attached) > most:
        return f"longer than the limit of {most} characters (server.max_attachment_chars)"
    return None


def _size(attached: DataSource) -> int:
    if isinstance(attached, DBRow):
        return len(json.dumps(attached.data, ensure_ascii=False, default=str))
    if isinstance(attached, KBDocument):
        return len(attached.content)
    return len(attached.content or "")


def _after_key(message: str) -> str:
    """The problem of a ``config key 'x': problem`` message, without the key it names."""
    return message.split(": ", 1)[1] if message.startswith("config key ") else message
