"""The search tools a model can call: ``web_search``, ``retrieve_url``, ``kb_search``, ``db_search``.

Names, descriptions, arguments and limits are the core's (``unified_search.policy.tools``),
the same as in the LlamaIndex tool spec.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from langchain_unified_search.binding import SessionBinding
from langchain_unified_search.tool_base import SearchTool
from unified_search.policy import QueryMode, ToolLimits, ToolName, tool_specs


class WebSearchTool(SearchTool):
    """Search the web through the configured providers.

    Example:
        >>> WebSearchTool(config={"web": {"providers": ["searxng"]}}).name
        'web_search'
    """

    tool: ToolName = "web_search"


class RetrieveURLTool(SearchTool):
    """Read the text of one web page and cite it.

    Example:
        >>> RetrieveURLTool().name
        'retrieve_url'
    """

    tool: ToolName = "retrieve_url"


class KBSearchTool(SearchTool):
    """Search the knowledge base.

    Example:
        >>> KBSearchTool(config={"kb": {"collections": ["handbook"]}}).name
        'kb_search'
    """

    tool: ToolName = "kb_search"


class DBSearchTool(SearchTool):
    """Answer a question from the configured database tables (read-only).

    Example:
        >>> DBSearchTool(config={"db": {"models": ["orders"]}}).name
        'db_search'
    """

    tool: ToolName = "db_search"


_CLASSES: dict[str, Callable[..., SearchTool]] = {
    cls.model_fields["tool"].get_default(): cls
    for cls in (WebSearchTool, RetrieveURLTool, KBSearchTool, DBSearchTool)
}


def search_tools(
    *, limits: ToolLimits | None = None, mode: QueryMode | str | None = None, **binding: Any
) -> list[SearchTool]:
    """Return the tools ``limits`` allow, sharing one session and so one citation scope.

    Pass ``session=``, ``searcher=`` or ``config=`` as for any tool; ``mode`` (``fast``,
    ``deep``, ``answer``) applies to every search tool.

    Example:
        >>> [tool.name for tool in search_tools(limits=ToolLimits(types=["kb", "db"]))]
        ['kb_search', 'db_search']
    """
    session = SessionBinding(**binding).bound
    return [
        _CLASSES[spec.name](session=session, limits=limits, mode=mode)
        for spec in tool_specs(limits)
    ]
