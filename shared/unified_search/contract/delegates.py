"""Resolve a ``uses`` value: ``builtin``, a registered agent, or ``mcp:<server>.<tool>``.

An agent is anything callable the user registers under a name: a plain
function (sync or async), a LangChain ``Runnable`` (``ainvoke``/``invoke``) or a
LlamaIndex component with ``acall``/``call``. It receives one JSON-like payload
and returns JSON-like data; each job (keywords, DSL, reranking ...) documents
its payload and the answer it expects.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from unified_search.config.search import SearchConfig
from unified_search.errors import ConfigurationError, ErrorCode, SearchError

BUILTIN = "builtin"
MCP_PREFIX = "mcp:"


@dataclass(frozen=True)
class Uses:
    """A parsed ``uses`` value."""

    kind: Literal["builtin", "agent", "mcp"]
    name: str = BUILTIN
    """The agent name, or the MCP server name."""
    tool: str | None = None
    """The MCP tool name."""


def parse_uses(value: str) -> Uses:
    """Parse ``builtin``, ``<agent>`` or ``mcp:<server>.<tool>``.

    Example:
        >>> parse_uses("mcp:search.web_search")
        Uses(kind='mcp', name='search', tool='web_search')
    """
    text = value.strip()
    if not text:
        raise ConfigurationError("a uses value must not be empty")
    if text == BUILTIN:
        return Uses("builtin")
    if text.startswith(MCP_PREFIX):
        server, dot, tool = text[len(MCP_PREFIX) :].partition(".")
        if not (server and dot and tool):
            raise ConfigurationError(f"{value!r} must look like mcp:<server>.<tool>")
        return Uses("mcp", server, tool)
    return Uses("agent", text)


class Delegates:
    """The agents registered by name, and the door to configured MCP servers.

    Example:
        >>> delegates = Delegates()
        >>> delegates.register("upper", lambda payload: payload["query"].upper())
        >>> asyncio.run(delegates.call("upper", {"query": "hi"}, SearchConfig()))
        'HI'
    """

    def __init__(self, agents: Mapping[str, Any] | None = None) -> None:
        self._agents: dict[str, Any] = {}
        for name, agent in (agents or {}).items():
            self.register(name, agent)

    def register(self, name: str, agent: Any) -> None:
        """Make ``agent`` available as ``uses: <name>``."""
        if not name or name == BUILTIN or name.startswith(MCP_PREFIX):
            raise ValueError(f"agent name {name!r} is reserved or empty")
        if not _is_invocable(agent):
            raise TypeError(f"agent {name!r} is not callable and has no invoke/ainvoke method")
        self._agents[name] = agent

    def names(self) -> list[str]:
        """Return the registered agent names, sorted."""
        return sorted(self._agents)

    def agent(self, name: str) -> Any:
        """Return the agent registered as ``name``; the error lists the known names."""
        try:
            return self._agents[name]
        except KeyError:
            known = ", ".join(self.names()) or "none registered"
            raise SearchError(
                ErrorCode.UNSUPPORTED, f"unknown agent {name!r}; registered agents: {known}"
            ) from None

    async def call(self, uses: str, payload: Mapping[str, Any], config: SearchConfig) -> Any:
        """Run the agent or MCP tool named by ``uses`` on ``payload``."""
        target = parse_uses(uses)
        if target.kind == "builtin":
            raise ValueError("builtin is handled by the caller, not delegated")
        if target.kind == "mcp":
            from unified_search.contract.mcp_client import call_mcp_tool

            return await call_mcp_tool(config, target.name, target.tool or "", dict(payload))
        return await invoke_agent(self.agent(target.name), dict(payload))


def _is_invocable(agent: Any) -> bool:
    return any(hasattr(agent, attr) for attr in ("ainvoke", "invoke", "acall")) or callable(agent)


async def invoke_agent(agent: Any, payload: dict[str, Any]) -> Any:
    """Call an agent natively async when it can be, else in a worker thread."""
    if hasattr(agent, "ainvoke"):
        return await agent.ainvoke(payload)
    if hasattr(agent, "acall"):
        return await agent.acall(payload)
    if hasattr(agent, "invoke"):
        return await asyncio.to_thread(agent.invoke, payload)
    if inspect.iscoroutinefunction(agent) or inspect.iscoroutinefunction(type(agent).__call__):
        return await agent(payload)
    outcome = await asyncio.to_thread(agent, payload)
    return await outcome if inspect.isawaitable(outcome) else outcome
