"""Check every ``uses`` value of a configuration against what exists, before any search runs.

A configuration file cannot know which agents a program registers, so a
``uses`` value naming an agent is only checked where the configuration meets
the agents: when a ``Searcher`` is built (and for per-call ``overrides``). An
unknown value fails there with a ``ConfigurationError`` naming the key and
listing every valid value: the builtin names of that job, the registered
agents, and ``mcp:<server>.<tool>`` for the configured MCP servers.
"""

from __future__ import annotations

from collections.abc import Sequence

from unified_search.config.search import SearchConfig
from unified_search.contract.delegates import Delegates, parse_uses
from unified_search.errors import ConfigurationError
from unified_search.rerank.registry import RERANKERS

#: Values of ``uses.search`` besides agents and MCP tools.
SEARCH_CHOICES = ("builtin", "disabled")


def builtin_choices() -> dict[str, tuple[str, ...]]:
    """Each checked key and the names it accepts besides agents and MCP tools."""
    return {
        "uses.search": SEARCH_CHOICES,
        "uses.web": ("builtin",),
        "uses.keyword": ("builtin",),
        "uses.querydsl": ("builtin",),
        "uses.rerank": tuple(sorted(RERANKERS)),
        "kb.graph.uses": ("builtin",),
    }


def check_uses(config: SearchConfig, delegates: Delegates) -> None:
    """Raise ``ConfigurationError`` for the first ``uses`` value that names nothing known.

    Example:
        >>> check_uses(SearchConfig.load(profile={"uses": {"web": "planner"}}), Delegates())
        Traceback (most recent call last):
        unified_search.errors.ConfigurationError: config key 'uses.web': ...
    """
    values = {
        "uses.search": config.uses.search,
        "uses.web": config.uses.web,
        "uses.keyword": config.uses.keyword,
        "uses.querydsl": config.uses.querydsl,
        "uses.rerank": config.uses.rerank,
        "kb.graph.uses": config.kb.graph.uses,
    }
    for key, builtin in builtin_choices().items():
        value = values[key]
        if value is not None and not _known(value, builtin, delegates, config):
            raise ConfigurationError(
                f"config key {key!r}: unknown value {value!r}; valid: "
                + valid_values(builtin, delegates, config),
                key=key,
            )


def valid_values(builtin: Sequence[str], delegates: Delegates, config: SearchConfig) -> str:
    """The valid values of one ``uses`` key, as a sentence fragment."""
    agents = ", ".join(delegates.names()) or "none registered"
    servers = ", ".join(sorted(config.mcp)) or "none configured"
    return (
        f"{', '.join(builtin)}; a registered agent ({agents}); "
        f"or mcp:<server>.<tool> with a configured server ({servers})"
    )


def _known(value: str, builtin: Sequence[str], delegates: Delegates, config: SearchConfig) -> bool:
    if value in builtin:
        return True
    try:
        target = parse_uses(value)
    except ConfigurationError:
        return False
    if target.kind == "mcp":
        return target.name in config.mcp
    return target.kind == "agent" and target.name in delegates.names()
