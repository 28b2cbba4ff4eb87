"""Configuration: sections with documented defaults, merged in layers.

Layers, later ones winning key by key: built-in defaults → a global
``search.yml`` → a profile (assistant) dict → per-request overrides. A layer
only overrides the keys it sets; nested sections merge, lists replace. The
design's own spellings (``web.provider``, ``kb.graph: true``, an assistant's
``search`` section ...) are read in every layer (``unified_search.config.aliases``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import Field, ValidationError, model_validator

from unified_search.config.aliases import design_layer
from unified_search.config.citation import CitationConfig
from unified_search.config.db import DBConfig, QueryDSLConfig
from unified_search.config.kb import KBConfig
from unified_search.config.keyword import KeywordConfig
from unified_search.config.rerank import RerankConfig
from unified_search.config.section import Section, deep_merge
from unified_search.config.server import ServerConfig
from unified_search.config.web import WebConfig
from unified_search.errors import ConfigurationError
from unified_search.types import Source

#: Environment variable naming the global configuration file.
CONFIG_ENV = "UNIFIED_SEARCH_CONFIG"
#: Prefixes of every environment variable the package or a provider it calls may read:
#: the package's own settings and each remote API's key. Clearing them gives a run that
#: uses nothing of the caller's setup (tests, the cookbook's saved outputs).
ENVIRONMENT_PREFIXES = (
    "UNIFIED_SEARCH_",
    "TAVILY_",
    "SERPER_",
    "SERPAPI_",
    "BRAVE_",
    "EXA_",
    "JINA_",
    "COHERE_",
    "SEARXNG_",
    "OPENAI_",
)
Language = Literal["en", "zh"]


class Weights(Section):
    """Trust in a result by who asked for the search."""

    user: float = Field(default=1.0, ge=0.0)
    """Weight of searches the user asked for."""
    hook: float = Field(default=0.8, ge=0.0)
    """Weight of searches a hook or an earlier pipeline step made."""
    auto: float = Field(default=0.6, ge=0.0)
    """Weight of automatic searches made before a model call."""

    def of(self, source: Source) -> float:
        """Return the weight of ``source``."""
        return float(getattr(self, source.value))


class Options(Section):
    """Engine behaviour."""

    skip_threshold: int = Field(default=5, ge=0)
    """Skip auto searches once the user has provided this many references (0 never skips)."""
    timeout: float = Field(default=30.0, gt=0)
    """Seconds one request may take before it fails with TIMEOUT."""
    language: Language = "en"
    """Language of progress messages and trace labels."""


class Uses(Section):
    """Which implementation does each job: ``builtin``, an agent name, or ``mcp:<server>.<tool>``."""

    search: str = "builtin"
    """Automatic (``source: auto``) searches: ``builtin`` sources, ``disabled`` (off), or an agent
    or MCP tool that runs the whole automatic search (``unified_search.engine.delegated``)."""
    web: str = "builtin"
    """Web search: the builtin providers, an agent that plans its own searches, or an MCP tool."""
    keyword: str | None = "builtin"
    """Keyword extraction for the web queries of the searches in ``keyword.sources`` (automatic
    ones by default); ``None`` sends every query as typed."""
    querydsl: str = "builtin"
    """Natural language to query DSL for database search."""
    rerank: str = "weighted"
    """Reranker name (``weighted``, ``rrf``, ``intent`` ...), an agent, or an MCP tool."""


class MCPServerConfig(Section):
    """An MCP server reachable by name: a stdio command or a streamable HTTP URL."""

    command: str | None = None
    """Program that serves MCP over stdio."""
    args: list[str] = Field(default_factory=list)
    """Its arguments."""
    env: dict[str, str] = Field(default_factory=dict)
    """Extra environment variables for it."""
    url: str | None = None
    """Streamable HTTP endpoint of a running server (instead of ``command``)."""
    timeout: float = Field(default=30.0, gt=0)
    """Seconds one tool call may take."""

    @model_validator(mode="after")
    def _one_transport(self) -> MCPServerConfig:
        if (self.command is None) == (self.url is None):
            raise ValueError("an MCP server needs exactly one of command or url")
        return self


class SearchConfig(Section):
    """The whole configuration.

    Example:
        >>> cfg = SearchConfig.load(profile={"rerank": {"top_n": 5}})
        >>> cfg.rerank.top_n, cfg.weights.hook
        (5, 0.8)
    """

    web: WebConfig = Field(default_factory=WebConfig)
    kb: KBConfig = Field(default_factory=KBConfig)
    db: DBConfig = Field(default_factory=DBConfig)
    keyword: KeywordConfig = Field(default_factory=KeywordConfig)
    querydsl: QueryDSLConfig = Field(default_factory=QueryDSLConfig)
    rerank: RerankConfig = Field(default_factory=RerankConfig)
    citation: CitationConfig = Field(default_factory=CitationConfig)
    weights: Weights = Field(default_factory=Weights)
    options: Options = Field(default_factory=Options)
    uses: Uses = Field(default_factory=Uses)
    mcp: dict[str, MCPServerConfig] = Field(default_factory=dict)
    """MCP servers by name, for ``uses`` values of the form ``mcp:<server>.<tool>``."""
    server: ServerConfig = Field(default_factory=ServerConfig)

    @classmethod
    def load(
        cls,
        path: str | Path | None = None,
        *,
        profile: Mapping[str, Any] | None = None,
        overrides: Mapping[str, Any] | None = None,
    ) -> SearchConfig:
        """Merge defaults, the file at ``path`` (or ``$UNIFIED_SEARCH_CONFIG``), a profile and overrides."""
        file = path if path is not None else os.environ.get(CONFIG_ENV) or None
        layers: list[tuple[Mapping[str, Any], str | None]] = []
        if file is not None:
            layers.append((read_config_file(file), str(file)))
        layers += [(profile or {}, None), (overrides or {}, None)]
        return cls().merged(*layers)

    def merged(
        self, *layers: Mapping[str, Any] | tuple[Mapping[str, Any], str | None]
    ) -> SearchConfig:
        """Return a copy with each layer's keys applied on top, in order."""
        data: dict[str, Any] = self.model_dump(mode="python", exclude_unset=False)
        origin: str | None = None
        for layer in layers:
            values, origin = layer if isinstance(layer, tuple) else (layer, None)
            data = deep_merge(data, _design_keys_read(values, data, origin))
            _validate(data, origin)
        return _validate(data, origin)


def _design_keys_read(
    values: Mapping[str, Any], data: Mapping[str, Any], origin: str | None
) -> dict[str, Any]:
    """The layer with the design's keys translated (``unified_search.config.aliases``)."""
    try:
        return design_layer(values, data)
    except ConfigurationError as exc:
        if origin is None:
            raise
        raise ConfigurationError(f"{exc} (in {origin})", key=exc.key, file=origin) from exc


def read_config_file(path: str | Path) -> dict[str, Any]:
    """Read a YAML configuration file; errors name the file."""
    file = Path(path)
    try:
        loaded = yaml.safe_load(file.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigurationError(
            f"cannot read config file {file}: {exc.strerror}", file=str(file)
        ) from exc
    except yaml.YAMLError as exc:
        raise ConfigurationError(
            f"config file {file} is not valid YAML: {exc}", file=str(file)
        ) from exc
    if loaded is None:
        return {}
    if not isinstance(loaded, dict):
        raise ConfigurationError(
            f"config file {file} must hold a mapping at the top", file=str(file)
        )
    return loaded


def _validate(data: Mapping[str, Any], origin: str | None) -> SearchConfig:
    try:
        return SearchConfig.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        key = ".".join(str(part) for part in first["loc"])
        where = f" in {origin}" if origin else ""
        problem = "unknown key" if first["type"] == "extra_forbidden" else first["msg"]
        raise ConfigurationError(
            f"config key {key!r}{where}: {problem}", key=key, file=origin
        ) from exc


ConfigLike = SearchConfig | Mapping[str, Any] | str | Path | None
"""What every entry point accepts as configuration."""


def as_config(config: ConfigLike) -> SearchConfig:
    """Accept a config object, a dict (a profile over the defaults) or a ``search.yml`` path."""
    if isinstance(config, SearchConfig):
        return config
    if isinstance(config, str | Path):
        return SearchConfig.load(config)
    return SearchConfig.load(profile=config)
