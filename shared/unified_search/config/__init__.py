"""Configuration: the root ``SearchConfig`` and the settings of every source, merged in layers."""

from __future__ import annotations

from unified_search.config.citation import CitationConfig
from unified_search.config.db import DBConfig, ModelSettings, QueryDSLConfig
from unified_search.config.kb import (
    ChunkingConfig,
    EmbeddingConfig,
    GraphConfig,
    HybridConfig,
    KBConfig,
    LimitsConfig,
)
from unified_search.config.keyword import KeywordConfig
from unified_search.config.rerank import RerankConfig
from unified_search.config.search import (
    CONFIG_ENV,
    ENVIRONMENT_PREFIXES,
    ConfigLike,
    Language,
    MCPServerConfig,
    Options,
    SearchConfig,
    Uses,
    Weights,
    as_config,
    read_config_file,
)
from unified_search.config.section import Section, deep_merge
from unified_search.config.server import ServerConfig
from unified_search.config.web import CacheConfig, ProviderSettings, ReaderConfig, WebConfig

__all__ = [
    "CONFIG_ENV",
    "ENVIRONMENT_PREFIXES",
    "CacheConfig",
    "ChunkingConfig",
    "CitationConfig",
    "ConfigLike",
    "DBConfig",
    "EmbeddingConfig",
    "GraphConfig",
    "HybridConfig",
    "KBConfig",
    "KeywordConfig",
    "Language",
    "LimitsConfig",
    "MCPServerConfig",
    "ModelSettings",
    "Options",
    "ProviderSettings",
    "QueryDSLConfig",
    "ReaderConfig",
    "RerankConfig",
    "SearchConfig",
    "Section",
    "ServerConfig",
    "Uses",
    "WebConfig",
    "Weights",
    "as_config",
    "deep_merge",
    "read_config_file",
]
