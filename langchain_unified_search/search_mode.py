"""Search mode: a research assistant that may only search the web and read pages."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from langchain_core.messages import SystemMessage

from langchain_unified_search.tool_base import SearchTool
from langchain_unified_search.tools import search_tools
from unified_search.tools import ToolLimits, research_prompt


@dataclass(frozen=True)
class SearchMode:
    """The tools and the system prompt of search mode; bind both while it is on.

    Example:
        >>> mode = search_mode(config={})
        >>> model.bind_tools(mode.tools).invoke([mode.system_message, ("user", "news?")])  # doctest: +SKIP
    """

    tools: list[SearchTool]
    system_prompt: str

    @property
    def system_message(self) -> SystemMessage:
        """The system prompt as a message, ready to lead a conversation."""
        return SystemMessage(self.system_prompt)


def search_mode(*, limits: ToolLimits | None = None, **binding: Any) -> SearchMode:
    """Return the web-search-only tool set and a research-assistant prompt asking for citations.

    Pass ``session=``, ``searcher=`` or ``config=`` as for any tool; both tools share one
    session. ``limits`` restrict them further (their ``types`` are always web only).

    Example:
        >>> mode = search_mode(config={"web": {"providers": ["searxng"]}})
        >>> [tool.name for tool in mode.tools]
        ['web_search', 'retrieve_url']
    """
    web_only = (limits or ToolLimits()).model_copy(update={"types": ["web"]})
    tools = search_tools(limits=web_only, **binding)
    return SearchMode(tools=tools, system_prompt=research_prompt(tools[0].engine.config.citation))
