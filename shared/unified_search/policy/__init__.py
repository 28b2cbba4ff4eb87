"""Search policy: how a question becomes searches (modes, deep search, tools) and how it is answered."""

from __future__ import annotations

from unified_search.policy.deep import adeep_search, deep_search
from unified_search.policy.modes import QueryMode, arun_mode, run_mode
from unified_search.policy.session import RunIds, SearchOptions, SearchSession, ToolAnswer
from unified_search.policy.tools import (
    TOOLS,
    SearchModeTools,
    ToolLimits,
    ToolName,
    ToolSpec,
    research_prompt,
    tool_specs,
    with_search_reminder,
)

__all__ = [
    "TOOLS",
    "QueryMode",
    "RunIds",
    "SearchModeTools",
    "SearchOptions",
    "SearchSession",
    "ToolAnswer",
    "ToolLimits",
    "ToolName",
    "ToolSpec",
    "adeep_search",
    "arun_mode",
    "deep_search",
    "research_prompt",
    "run_mode",
    "tool_specs",
    "with_search_reminder",
]
