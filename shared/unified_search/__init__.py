"""unified-search: one search layer over the web, a knowledge base and databases.

Public names are imported lazily, so ``import unified_search`` stays cheap
however many sources are installed.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from unified_search.auth import Secret
    from unified_search.citations import Citations, build_context, citation_prompt, parse_citations
    from unified_search.config import SearchConfig
    from unified_search.db.handler import DBHandler
    from unified_search.errors import ConfigurationError, ErrorCode, ErrorInfo, SearchError
    from unified_search.events import EventName, SearchEvent, TraceNode, TraceStatus
    from unified_search.handler import SearchContext, SearchHandler
    from unified_search.kb.handler import KBHandler
    from unified_search.parallel import Mode
    from unified_search.response import SearchResponse
    from unified_search.searcher import Searcher
    from unified_search.store import SearchRecord, SearchStore
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
    "Entity": "unified_search.types",
    "ErrorCode": "unified_search.errors",
    "ErrorInfo": "unified_search.errors",
    "EventName": "unified_search.events",
    "GraphNode": "unified_search.types",
    "KBHandler": "unified_search.kb.handler",
    "Mode": "unified_search.parallel",
    "Reference": "unified_search.types",
    "ReferenceContext": "unified_search.types",
    "Relation": "unified_search.types",
    "ResultItem": "unified_search.types",
    "SearchConfig": "unified_search.config",
    "SearchContext": "unified_search.handler",
    "SearchError": "unified_search.errors",
    "SearchEvent": "unified_search.events",
    "SearchHandler": "unified_search.handler",
    "SearchRequest": "unified_search.types",
    "SearchResponse": "unified_search.response",
    "SearchRecord": "unified_search.store",
    "SearchResult": "unified_search.types",
    "SearchStore": "unified_search.store",
    "SearchType": "unified_search.types",
    "Searcher": "unified_search.searcher",
    "Secret": "unified_search.auth",
    "Source": "unified_search.types",
    "TraceNode": "unified_search.events",
    "TraceStatus": "unified_search.events",
    "WebHandler": "unified_search.web.handler",
    "build_context": "unified_search.citations",
    "citation_prompt": "unified_search.citations",
    "parse_citations": "unified_search.citations",
}

__all__ = [
    "Citations",
    "ConfigurationError",
    "DBHandler",
    "Entity",
    "ErrorCode",
    "ErrorInfo",
    "EventName",
    "GraphNode",
    "KBHandler",
    "Mode",
    "Reference",
    "ReferenceContext",
    "Relation",
    "ResultItem",
    "SearchConfig",
    "SearchContext",
    "SearchError",
    "SearchEvent",
    "SearchHandler",
    "SearchRecord",
    "SearchRequest",
    "SearchResponse",
    "SearchResult",
    "SearchStore",
    "SearchType",
    "Searcher",
    "Secret",
    "Source",
    "TraceNode",
    "TraceStatus",
    "WebHandler",
    "build_context",
    "citation_prompt",
    "parse_citations",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'unified_search' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


def __dir__() -> list[str]:
    return __all__
