"""The public surface of langchain_unified_search is explicit, sorted and importable."""

from __future__ import annotations

import langchain_unified_search

EXPECTED = [
    "AutoSearch",
    "CitationOutputParser",
    "CitedAnswer",
    "DBSearchTool",
    "KBSearchTool",
    "RetrieveURLTool",
    "SearchMode",
    "SearchTool",
    "SearchToolException",
    "SearchTrace",
    "UnifiedSearchCallbackHandler",
    "UnifiedSearchReranker",
    "UnifiedSearchRetriever",
    "WebSearchTool",
    "__version__",
    "citation_checks",
    "citation_id_of",
    "citation_prompt",
    "document_to_item",
    "format_references",
    "item_to_document",
    "search_mode",
    "search_tools",
]


def test_all_is_pinned_and_sorted():
    assert langchain_unified_search.__all__ == EXPECTED
    assert sorted(EXPECTED) == EXPECTED


def test_every_name_resolves():
    for name in EXPECTED:
        assert getattr(langchain_unified_search, name) is not None
