"""The design's configuration keys, read as the keys that mean the same here.

The search design this package follows writes a few keys its own way: one web
``provider`` with its ``api_key_env`` and ``engine``, ``kb.graph: true`` to turn
graph association on, ``rerank.provider``, and an assistant's overrides under a
``search`` key. Each layer of configuration (file, profile, per-call overrides)
is translated before it is merged, so both spellings work in every layer; the
translated keys are then validated like any other, so an unknown key still
fails naming it. ``builtin`` as a reranker name is the ``weighted`` reranker
(``unified_search.rerank.registry``).

Example:
    >>> design_layer({"web": {"provider": "serpapi", "engine": "bing"}}, {})
    {'web': {'providers': ['serpapi'], 'serpapi': {'engine': 'bing'}}}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from unified_search.config.section import deep_merge
from unified_search.errors import ConfigurationError

#: The provider a design ``api_key_env`` belongs to when no provider is chosen (its default).
DESIGN_DEFAULT_PROVIDER = "tavily"


@dataclass(frozen=True)
class Alias:
    """One design key and the key it is read as."""

    key: str
    """The key as the design writes it."""
    reads_as: str
    """The key (and value) it becomes here."""


ALIASES: tuple[Alias, ...] = (
    Alias("web.provider", "`web.providers: [<provider>]`: that one provider"),
    Alias(
        "web.api_key_env",
        "`web.<provider>.api_key_env` of the provider named beside it, else of the one "
        "provider already chosen, else of `tavily`",
    ),
    Alias("web.engine", "`web.serpapi.engine` (only SerpAPI has engines)"),
    Alias("kb.graph", "`kb.graph.enabled` when it is `true` or `false`"),
    Alias("rerank.provider", "`uses.rerank`"),
    Alias("uses.rerank", "`builtin` is the `weighted` reranker, here and in every reranker name"),
    Alias(
        "search",
        "an assistant's overrides: its keys are read at the top level, over the assistant's "
        "own `kb` and `db` keys",
    ),
)
"""Every design key read here, in the order the reference lists them."""


def design_layer(layer: Mapping[str, Any], merged: Mapping[str, Any]) -> dict[str, Any]:
    """Return ``layer`` with the design's keys written as this package's (a new mapping).

    ``merged`` is the configuration the layer goes over: a design ``api_key_env``
    without a ``provider`` beside it belongs to the one provider chosen there.
    """
    data = dict(layer)
    search = data.pop("search", None)
    if search is not None:
        if not isinstance(search, Mapping):
            raise _error("search", "must be a mapping of configuration sections")
        data = deep_merge(data, search)
    if isinstance(data.get("web"), Mapping):
        data["web"] = _web(data["web"], merged.get("web") or {})
    if isinstance(data.get("kb"), Mapping) and "graph" in data["kb"]:
        data["kb"] = _kb(data["kb"])
    if isinstance(data.get("rerank"), Mapping) and "provider" in data["rerank"]:
        rerank = dict(data["rerank"])
        data["uses"] = {**(data.get("uses") or {}), "rerank": rerank.pop("provider")}
        data["rerank"] = rerank
    return data


def _web(section: Mapping[str, Any], merged: Mapping[str, Any]) -> dict[str, Any]:
    web = dict(section)
    provider = web.pop("provider", None)
    if provider is not None:
        if not isinstance(provider, str):
            raise _error("web.provider", "must be one provider name (or use web.providers)")
        if "providers" in web:
            raise _error("web.provider", "give web.provider or web.providers, not both")
        web["providers"] = [provider]
    key_env = web.pop("api_key_env", None)
    if key_env is not None:
        if not isinstance(key_env, str):
            raise _error("web.api_key_env", "must be the name of an environment variable")
        owner = provider or _one(web.get("providers")) or _one(merged.get("providers"))
        web = deep_merge(web, {owner or DESIGN_DEFAULT_PROVIDER: {"api_key_env": key_env}})
    engine = web.pop("engine", None)
    if engine is not None:
        web = deep_merge(web, {"serpapi": {"engine": engine}})
    return web


def _kb(section: Mapping[str, Any]) -> dict[str, Any]:
    kb = dict(section)
    graph = kb["graph"]
    if isinstance(graph, bool):
        kb["graph"] = {"enabled": graph}
    elif not isinstance(graph, Mapping):
        raise _error("kb.graph", "must be true, false or a mapping of graph settings")
    return kb


def _one(providers: Any) -> str | None:
    if isinstance(providers, list) and len(providers) == 1 and isinstance(providers[0], str):
        return providers[0]
    return None


def _error(key: str, problem: str) -> ConfigurationError:
    return ConfigurationError(f"config key {key!r}: {problem}", key=key)
