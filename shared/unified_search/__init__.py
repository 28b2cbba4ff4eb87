"""unified-search: one search layer over the web, a knowledge base and databases.

Public names are imported lazily, so ``import unified_search`` stays cheap
however many sources are installed.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from unified_search import _moved
from unified_search._version import __version__ as __version__

_moved.install()

if TYPE_CHECKING:
    from unified_search._optional import MissingDependencyError, require
    from unified_search._sync import run_sync
    from unified_search.auth import Secret
    from unified_search.citations.context import (
        Citations,
        build_context,
        citation_prompt,
        parse_citations,
    )
    from unified_search.citations.verify import averify_citations, verify_citations
    from unified_search.config.search import SearchConfig
    from unified_search.contract.checks import (
        CitationCheck,
        CitationReport,
        SentenceCheck,
        Span,
        Verdict,
    )
    from unified_search.contract.events import EventName, SearchEvent, TraceNode, TraceStatus
    from unified_search.contract.handler import SearchContext, SearchHandler
    from unified_search.contract.response import SearchResponse
    from unified_search.contract.steps import StepName
    from unified_search.db.handler import DBHandler
    from unified_search.engine.attachments import DataSource, DBRow, KBDocument, MCPResource
    from unified_search.engine.parallel import Mode
    from unified_search.engine.searcher import Ranked, RunOptions, Searcher
    from unified_search.errors import ConfigurationError, ErrorCode, ErrorInfo, SearchError
    from unified_search.kb.handler import KBHandler
    from unified_search.policy.deep import adeep_search, deep_search
    from unified_search.policy.modes import QueryMode, arun_mode, run_mode
    from unified_search.policy.session import RunIds, SearchOptions, SearchSession, ToolAnswer
    from unified_search.policy.tools import ToolLimits, ToolSpec, tool_specs
    from unified_search.records.store import SearchRecord, SearchStore
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
    "CitationCheck": "unified_search.contract.checks",
    "CitationReport": "unified_search.contract.checks",
    "Citations": "unified_search.citations.context",
    "ConfigurationError": "unified_search.errors",
    "DBHandler": "unified_search.db.handler",
    "DBRow": "unified_search.engine.attachments",
    "DataSource": "unified_search.engine.attachments",
    "Entity": "unified_search.types",
    "ErrorCode": "unified_search.errors",
    "ErrorInfo": "unified_search.errors",
    "EventName": "unified_search.contract.events",
    "GraphNode": "unified_search.types",
    "KBDocument": "unified_search.engine.attachments",
    "KBHandler": "unified_search.kb.handler",
    "MCPResource": "unified_search.engine.attachments",
    "MissingDependencyError": "unified_search._optional",
    "Mode": "unified_search.engine.parallel",
    "QueryMode": "unified_search.policy.modes",
    "Ranked": "unified_search.engine.searcher",
    "Reference": "unified_search.types",
    "ReferenceContext": "unified_search.types",
    "Relation": "unified_search.types",
    "ResultItem": "unified_search.types",
    "RunIds": "unified_search.policy.session",
    "RunOptions": "unified_search.engine.searcher",
    "SearchConfig": "unified_search.config.search",
    "SearchContext": "unified_search.contract.handler",
    "SearchError": "unified_search.errors",
    "SearchEvent": "unified_search.contract.events",
    "SearchHandler": "unified_search.contract.handler",
    "SearchOptions": "unified_search.policy.session",
    "SearchRecord": "unified_search.records.store",
    "SearchRequest": "unified_search.types",
    "SearchResponse": "unified_search.contract.response",
    "SearchResult": "unified_search.types",
    "SearchSession": "unified_search.policy.session",
    "SearchStore": "unified_search.records.store",
    "SearchType": "unified_search.types",
    "Searcher": "unified_search.engine.searcher",
    "SentenceCheck": "unified_search.contract.checks",
    "Span": "unified_search.contract.checks",
    "Secret": "unified_search.auth",
    "Source": "unified_search.types",
    "StepName": "unified_search.contract.steps",
    "ToolAnswer": "unified_search.policy.session",
    "ToolLimits": "unified_search.policy.tools",
    "ToolSpec": "unified_search.policy.tools",
    "TraceNode": "unified_search.contract.events",
    "TraceStatus": "unified_search.contract.events",
    "Verdict": "unified_search.contract.checks",
    "WebHandler": "unified_search.web.handler",
    "adeep_search": "unified_search.policy.deep",
    "arun_mode": "unified_search.policy.modes",
    "averify_citations": "unified_search.citations.verify",
    "build_context": "unified_search.citations.context",
    "citation_prompt": "unified_search.citations.context",
    "deep_search": "unified_search.policy.deep",
    "parse_citations": "unified_search.citations.context",
    "require": "unified_search._optional",
    "run_mode": "unified_search.policy.modes",
    "run_sync": "unified_search._sync",
    "tool_specs": "unified_search.policy.tools",
    "verify_citations": "unified_search.citations.verify",
}

__all__ = [
    "CitationCheck",
    "CitationReport",
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
    "SentenceCheck",
    "Source",
    "Span",
    "StepName",
    "ToolAnswer",
    "ToolLimits",
    "ToolSpec",
    "TraceNode",
    "TraceStatus",
    "Verdict",
    "WebHandler",
    "adeep_search",
    "arun_mode",
    "averify_citations",
    "build_context",
    "citation_prompt",
    "deep_search",
    "parse_citations",
    "require",
    "run_mode",
    "run_sync",
    "tool_specs",
    "verify_citations",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'unified_search' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


def __dir__() -> list[str]:
    return __all__
