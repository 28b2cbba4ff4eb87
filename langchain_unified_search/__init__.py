"""LangChain integration of unified-search (retrievers, tools, compressors, prompts, callbacks).

Needs the ``langchain`` extra: ``pip install "unified-search[langchain]"``.
"""

from unified_search import require

require("langchain_core", extra="langchain", purpose="langchain_unified_search")

from langchain_unified_search.auto_search import AutoSearch  # noqa: E402
from langchain_unified_search.callbacks import (  # noqa: E402
    SearchTrace,
    UnifiedSearchCallbackHandler,
)
from langchain_unified_search.checks import citation_checks  # noqa: E402
from langchain_unified_search.compressors import UnifiedSearchReranker  # noqa: E402
from langchain_unified_search.documents import (  # noqa: E402
    citation_id_of,
    document_to_item,
    item_to_document,
)
from langchain_unified_search.output_parsers import CitationOutputParser, CitedAnswer  # noqa: E402
from langchain_unified_search.prompts import citation_prompt, format_references  # noqa: E402
from langchain_unified_search.retrievers import UnifiedSearchRetriever  # noqa: E402
from langchain_unified_search.search_mode import SearchMode, search_mode  # noqa: E402
from langchain_unified_search.tool_base import SearchTool, SearchToolException  # noqa: E402
from langchain_unified_search.tools import (  # noqa: E402
    DBSearchTool,
    KBSearchTool,
    RetrieveURLTool,
    WebSearchTool,
    search_tools,
)
from unified_search import __version__  # noqa: E402

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
