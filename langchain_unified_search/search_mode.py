"""Search mode: a research assistant that may only search the web and read pages."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from langchain_core.messages import HumanMessage, SystemMessage
from langchain_core.tools import BaseTool

from langchain_unified_search.tool_base import SearchTool
from langchain_unified_search.tools import search_tools
from unified_search.policy import (
    SearchModeTools,
    ToolLimits,
    research_prompt,
    with_search_reminder,
)


class SearchMode(SearchModeTools[SearchTool]):
    """The tools, the system prompt and the reminder of search mode; use all three while it is on.

    Example:
        Not run here: ``agent_tools`` and ``model`` are the caller's.

        >>> mode = search_mode(config={})
        >>> tools = mode.filter(agent_tools)  # doctest: +SKIP
        >>> model.bind_tools(tools).invoke([mode.system_message, mode.remind("news?")])  # doctest: +SKIP
    """

    @property
    def system_message(self) -> SystemMessage:
        """The system prompt as a message, ready to lead a conversation."""
        return SystemMessage(self.system_prompt)

    def remind(self, message: str | HumanMessage) -> HumanMessage:
        """The user's message with the search-mode reminder after it."""
        text = message.text if isinstance(message, HumanMessage) else message
        return HumanMessage(with_search_reminder(text))

    def filter(self, tools: Iterable[BaseTool], *, on: bool = True) -> list[BaseTool]:
        """An agent's tools: this mode's search tools while ``on``, every other tool when off."""
        return self.kept(tools, on=on, name=lambda tool: tool.name)


def search_mode(*, limits: ToolLimits | None = None, **binding: Any) -> SearchMode:
    """Return the web-search-only tool set, a research-assistant prompt and the reminder.

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
