"""LlamaIndex integration of unified-search (retrievers, postprocessors, prompts, instrumentation)."""

from __future__ import annotations

from llama_index_unified_search.citations import ResolvedCitations, resolve_citations
from llama_index_unified_search.collector import SearchTraceCollector
from llama_index_unified_search.events import (
    UnifiedSearchCompleteEvent,
    UnifiedSearchEvent,
    UnifiedSearchItemCompleteEvent,
    UnifiedSearchItemFailedEvent,
    UnifiedSearchItemLogEvent,
    UnifiedSearchItemStartEvent,
    UnifiedSearchProgressEvent,
    UnifiedSearchStartEvent,
)
from llama_index_unified_search.nodes import ReferenceNode, item_to_node, node_to_item
from llama_index_unified_search.postprocessor import UnifiedRerankPostprocessor
from llama_index_unified_search.prompts import citation_qa_template, citation_refine_template
from llama_index_unified_search.retriever import UnifiedSearchRetriever
from llama_index_unified_search.tools import UnifiedSearchToolSpec

__all__ = [
    "ReferenceNode",
    "ResolvedCitations",
    "SearchTraceCollector",
    "UnifiedRerankPostprocessor",
    "UnifiedSearchCompleteEvent",
    "UnifiedSearchEvent",
    "UnifiedSearchItemCompleteEvent",
    "UnifiedSearchItemFailedEvent",
    "UnifiedSearchItemLogEvent",
    "UnifiedSearchItemStartEvent",
    "UnifiedSearchProgressEvent",
    "UnifiedSearchRetriever",
    "UnifiedSearchStartEvent",
    "UnifiedSearchToolSpec",
    "citation_qa_template",
    "citation_refine_template",
    "item_to_node",
    "node_to_item",
    "resolve_citations",
]
