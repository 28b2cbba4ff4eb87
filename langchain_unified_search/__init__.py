"""LangChain integration of unified-search (retrievers, tools, compressors, prompts, callbacks)."""

from langchain_unified_search.auto_search import AutoSearch
from langchain_unified_search.callbacks import SearchTrace, UnifiedSearchCallbackHandler
from langchain_unified_search.compressors import UnifiedSearchReranker
from langchain_unified_search.documents import document_to_item, item_to_document
from langchain_unified_search.output_parsers import CitationOutputParser, CitedAnswer
from langchain_unified_search.prompts import citation_prompt, format_references
from langchain_unified_search.retrievers import UnifiedSearchRetriever
from langchain_unified_search.search_mode import SearchMode, search_mode
from langchain_unified_search.tool_base import SearchTool, SearchToolException
from langchain_unified_search.tools import (
    DBSearchTool,
    KBSearchTool,
    RetrieveURLTool,
    WebSearchTool,
    search_tools,
)

__all__ = [
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
    "citation_prompt",
    "document_to_item",
    "format_references",
    "item_to_document",
    "search_mode",
    "search_tools",
]
