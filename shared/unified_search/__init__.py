"""unified-search: one search layer over the web, a knowledge base and databases.

Public names are imported lazily, so ``import unified_search`` stays cheap
however many sources are installed.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from unified_search._optional import MissingDependencyError, require
    from unified_search._sync import run_sync
    from unified_search.attachments import DataSource, DBRow, KBDocument, MCPResource
    from unified_search.auth import Secret
    from unified_search.citations import Citations, build_context, citation_prompt, parse_citations
    from unified_search.config import SearchConfig
    from unified_search.db.handler import DBHandler
    from unified_search.deep import adeep_search, deep_search
    from unified_search.errors import ConfigurationError, ErrorCode, ErrorInfo, SearchError
    from unified_search.events import EventName, SearchEvent, TraceNode, TraceStatus
    from unified_search.handler import SearchContext, SearchHandler
    from unified_search.kb.handler import KBHandler
    from unified_search.modes import QueryMode, arun_mode, run_mode
    from unified_search.parallel import Mode
    from unified_search.response import SearchResponse
    from unified_search.searcher import Ranked, RunOptions, Searcher
    from unified_search.session import RunIds, SearchOptions, SearchSession, ToolAnswer
    from unified_search.steps import StepName
    from unified_search.store import SearchRecord, SearchStore
    from unified_search.tools import ToolLimits, ToolSpec, tool_specs
    from unified_search.types import (
        Entity,
        GraphNode,
        Reference,
        ReferenceContext,
        Relation,
        ResultItem,
        SearchRequest,
        SearchResult,
        SearchType,
        Source,
    )
    from unified_search.web.handler import WebHandler

_EXPORTS: dict[str, str] = {
    "Citations": "unified_search.citations",
    "ConfigurationError": "unified_search.errors",
    "DBHandler": "unified_search.db.handler",
    "DBRow": "unified_search.attachments",
    "DataSource": "unified_search.attachments",
    "Entity": "unified_search.types",
    "ErrorCode": "unified_search.errors",
    "ErrorInfo": "unified_search.errors",
    "EventName": "unified_search.events",
    "GraphNode": "unified_search.types",
    "KBDocument": "unified_search.attachments",
    "KBHandler": "unified_search.kb.handler",
    "MCPResource": "unified_search.attachments",
    "MissingDependencyError": "unified_search._optional",
    "Mode": "unified_search.parallel",
    "QueryMode": "unified_search.modes",
    "Ranked": "unified_search.searcher",
    "Reference": "unified_search.types",
    "ReferenceContext": "unified_search.types",
    "Relation": "unified_search.types",
    "ResultItem": "unified_search.types",
    "RunIds": "unified_search.session",
    "RunOptions": "unified_search.searcher",
    "SearchConfig": "unified_search.config",
    "SearchContext": "unified_search.handler",
    "SearchError": "unified_search.errors",
    "SearchEvent": "unified_search.events",
    "SearchHandler": "unified_search.handler",
    "SearchOptions": "unified_search.session",
    "SearchRecord": "unified_search.store",
    "SearchRequest": "unified_search.types",
    "SearchResponse": "unified_search.response",
    "SearchResult": "unified_search.types",
    "SearchSession": "unified_search.session",
    "SearchStore": "unified_search.store",
    "SearchType": "unified_search.types",
    "Searcher": "unified_search.searcher",
    "Secret": "unified_search.auth",
    "Source": "unified_search.types",
    "StepName": "unified_search.steps",
    "ToolAnswer": "unified_search.session",
    "ToolLimits": "unified_search.tools",
    "ToolSpec": "unified_search.tools",
    "TraceNode": "unified_search.events",
    "TraceStatus": "unified_search.events",
    "WebHandler": "unified_search.web.handler",
    "adeep_search": "unified_search.deep",
    "arun_mode": "unified_search.modes",
    "build_context": "unified_search.citations",
    "citation_prompt": "unified_search.citations",
    "deep_search": "unified_search.deep",
    "parse_citations": "unified_search.citations",
    "require": "unified_search._optional",
    "run_mode": "unified_search.modes",
    "run_sync": "unified_search._sync",
    "tool_specs": "unified_search.tools",
}

__all__ = [
    "Citations",
    "ConfigurationError",
    "DBHandler",
    "DBRow",
    "DataSource",
    "Entity",
    "ErrorCode",
    "ErrorInfo",
    "EventName",
    "GraphNode",
    "KBDocument",
    "KBHandler",
    "MCPResource",
    "MissingDependencyError",
    "Mode",
    "QueryMode",
    "Ranked",
    "Reference",
    "ReferenceContext",
    "Relation",
    "ResultItem",
    "RunIds",
    "RunOptions",
    "SearchConfig",
    "SearchContext",
    "SearchError",
    "SearchEvent",
    "SearchHandler",
    "SearchOptions",
    "SearchRecord",
    "SearchRequest",
    "SearchResponse",
    "SearchResult",
    "SearchSession",
    "SearchStore",
    "SearchType",
    "Searcher",
    "Secret",
    "Source",
    "StepName",
    "ToolAnswer",
    "ToolLimits",
    "ToolSpec",
    "TraceNode",
    "TraceStatus",
    "WebHandler",
    "adeep_search",
    "arun_mode",
    "build_context",
    "citation_prompt",
    "deep_search",
    "parse_citations",
    "require",
    "run_mode",
    "run_sync",
    "tool_specs",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'unified_search' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


def __dir__() -> list[str]:
    return __all__
