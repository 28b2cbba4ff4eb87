"""LlamaIndex integration of unified-search (retrievers, postprocessors, prompts, instrumentation).

Needs the ``llamaindex`` extra: ``pip install "unified-search[llamaindex]"``.
"""

from __future__ import annotations

from unified_search import require

require("llama_index.core", extra="llamaindex", purpose="llama_index_unified_search")

from llama_index_unified_search.checks import (  # noqa: E402
    CitationEvaluator,
    acheck_response,
    check_response,
)
from llama_index_unified_search.citations import ResolvedCitations, resolve_citations  # noqa: E402
from llama_index_unified_search.collector import SearchTraceCollector  # noqa: E402
from llama_index_unified_search.events import (  # noqa: E402
    UnifiedSearchCitationCheckEvent,
    UnifiedSearchCitationsCheckedEvent,
    UnifiedSearchCompleteEvent,
    UnifiedSearchEvent,
    UnifiedSearchItemCompleteEvent,
    UnifiedSearchItemFailedEvent,
    UnifiedSearchItemLogEvent,
    UnifiedSearchItemStartEvent,
    UnifiedSearchProgressEvent,
    UnifiedSearchResultEvent,
    UnifiedSearchStartEvent,
    UnifiedSearchStepCompleteEvent,
    UnifiedSearchStepFailedEvent,
    UnifiedSearchStepStartEvent,
)
from llama_index_unified_search.nodes import (  # noqa: E402
    ReferenceNode,
    citation_id_of,
    item_to_node,
    node_to_item,
)
from llama_index_unified_search.postprocessor import UnifiedRerankPostprocessor  # noqa: E402
from llama_index_unified_search.prompts import citation_qa_template, citation_refine_template  # noqa: E402
from llama_index_unified_search.retriever import UnifiedSearchRetriever  # noqa: E402
from llama_index_unified_search.search_mode import SearchMode, search_mode  # noqa: E402
from llama_index_unified_search.tools import UnifiedSearchToolSpec  # noqa: E402
from unified_search import __version__  # noqa: E402

__all__ = [
    "CitationEvaluator",
    "ReferenceNode",
    "ResolvedCitations",
    "SearchMode",
    "SearchTraceCollector",
    "UnifiedRerankPostprocessor",
    "UnifiedSearchCitationCheckEvent",
    "UnifiedSearchCitationsCheckedEvent",
    "UnifiedSearchCompleteEvent",
    "UnifiedSearchEvent",
    "UnifiedSearchItemCompleteEvent",
    "UnifiedSearchItemFailedEvent",
    "UnifiedSearchItemLogEvent",
    "UnifiedSearchItemStartEvent",
    "UnifiedSearchProgressEvent",
    "UnifiedSearchResultEvent",
    "UnifiedSearchRetriever",
    "UnifiedSearchStartEvent",
    "UnifiedSearchStepCompleteEvent",
    "UnifiedSearchStepFailedEvent",
    "UnifiedSearchStepStartEvent",
    "UnifiedSearchToolSpec",
    "__version__",
    "acheck_response",
    "check_response",
    "citation_id_of",
    "citation_qa_template",
    "citation_refine_template",
    "item_to_node",
    "node_to_item",
    "resolve_citations",
    "search_mode",
]
