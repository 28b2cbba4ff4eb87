import llama_index_unified_search


def test_public_names_are_pinned_and_sorted() -> None:
    """The package exports exactly these names, sorted, and each resolves."""
    expected = [
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
    assert llama_index_unified_search.__all__ == expected
    assert all(hasattr(llama_index_unified_search, name) for name in expected)
