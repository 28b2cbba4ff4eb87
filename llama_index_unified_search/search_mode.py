"""Search mode for LlamaIndex agents: only web search and page reading, with citations."""

from __future__ import annotations

from collections.abc import Iterable

from llama_index.core.tools import BaseTool, FunctionTool

from llama_index_unified_search.tools import UnifiedSearchToolSpec
from unified_search import Searcher
from unified_search.config import ConfigLike
from unified_search.policy import (
    SearchModeTools,
    SearchSession,
    ToolLimits,
    research_prompt,
    with_search_reminder,
)


class SearchMode(SearchModeTools[FunctionTool]):
    """The tools, the system prompt and the reminder of search mode; use all three while it is on.

    Example:
        Not run here: ``tools`` and the agent's LLM are the caller's.

        >>> mode = search_mode(config={"web": {"providers": ["tavily"]}})
        >>> agent = FunctionAgent(tools=mode.filter(tools), system_prompt=mode.system_prompt)  # doctest: +SKIP
        >>> await agent.run(mode.remind("latest Rust release?"))  # doctest: +SKIP
    """

    def remind(self, text: str) -> str:
        """The user's message with the search-mode reminder after it."""
        return with_search_reminder(text)

    def filter(self, tools: Iterable[BaseTool], *, on: bool = True) -> list[BaseTool]:
        """An agent's tools: this mode's search tools while ``on``, every other tool when off."""
        return self.kept(tools, on=on, name=lambda tool: tool.metadata.get_name())


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
