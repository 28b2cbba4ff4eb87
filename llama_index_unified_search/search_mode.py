"""Search mode for LlamaIndex agents: only web search and page reading, with citations."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from llama_index.core.tools import BaseTool, FunctionTool

from llama_index_unified_search.tools import UnifiedSearchToolSpec
from unified_search.searcher import ConfigLike, Searcher
from unified_search.session import SearchSession
from unified_search.tools import (
    SEARCH_REMINDER,
    ToolLimits,
    research_prompt,
    search_mode_tools,
    with_search_reminder,
)


@dataclass(frozen=True)
class SearchMode:
    """The tools, the system prompt and the reminder of search mode; use all three while it is on.

    Example:
        >>> mode = search_mode(config={"web": {"providers": ["tavily"]}})
        >>> agent = FunctionAgent(tools=mode.filter(tools), system_prompt=mode.system_prompt)  # doctest: +SKIP
        >>> await agent.run(mode.remind("latest Rust release?"))  # doctest: +SKIP
    """

    tools: list[FunctionTool]
    system_prompt: str
    reminder: str = SEARCH_REMINDER
    """Appended to each user message while search mode is on."""

    def remind(self, text: str) -> str:
        """The user's message with the search-mode reminder after it."""
        return with_search_reminder(text)

    def filter(self, tools: Iterable[BaseTool], *, on: bool = True) -> list[BaseTool]:
        """An agent's tools while search mode is ``on``: this mode's search tools and nothing else.

        Off, every tool but the search tools is kept (the agent's usual set).
        """
        if on:
            return list(self.tools)
        return search_mode_tools(tools, search_mode=False, name=lambda tool: tool.metadata.get_name())


def search_mode(
    searcher: Searcher | None = None,
    *,
    config: ConfigLike = None,
    session: SearchSession | None = None,
    limits: ToolLimits | None = None,
) -> SearchMode:
    """Return the web-search-only tools, a research-assistant prompt and the reminder.

    ``limits`` restrict the tools further (their ``types`` are always web only).

    Example:
        >>> [tool.metadata.name for tool in search_mode(config={}).tools]
        ['web_search', 'retrieve_url']
    """
    web_only = (limits or ToolLimits()).model_copy(update={"types": ["web"]})
    spec = UnifiedSearchToolSpec(searcher, config=config, session=session, limits=web_only)
    prompt = research_prompt(spec.session.searcher.config.citation)
    return SearchMode(tools=spec.to_tool_list(), system_prompt=prompt)
