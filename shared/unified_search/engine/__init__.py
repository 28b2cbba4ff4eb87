"""The engine: fan requests out to sources, then merge, rerank, cite, record and report."""

from __future__ import annotations

from unified_search.engine.attachments import DataSource, DBRow, KBDocument, MCPResource
from unified_search.engine.mirrors import merge_mirrors
from unified_search.engine.otel import OpenTelemetrySink, instrument
from unified_search.engine.parallel import Mode
from unified_search.engine.searcher import Ranked, RunOptions, Searcher

__all__ = [
    "DBRow",
    "DataSource",
    "KBDocument",
    "MCPResource",
    "Mode",
    "OpenTelemetrySink",
    "Ranked",
    "RunOptions",
    "Searcher",
    "instrument",
    "merge_mirrors",
]
