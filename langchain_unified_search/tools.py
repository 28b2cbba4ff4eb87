"""The search tools a model can call: ``web_search``, ``retrieve_url``, ``kb_search``, ``db_search``."""

from __future__ import annotations

import uuid
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from langchain_unified_search.tool_base import SearchTool, ToolCall
from unified_search.citations import build_context
from unified_search.errors import ErrorCode, SearchError, as_search_error
from unified_search.response import SearchResponse
from unified_search.types import (
    ResultItem,
    SearchDepth,
    SearchRequest,
    SearchResult,
    SearchType,
    TimeRange,
)

Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid")


class WebSearchInput(_Args):
    """Arguments of ``web_search``, validated before anything is searched.

    Example:
        >>> WebSearchInput(query="python 3.13 release").max_results
        5
    """

    query: Text = Field(description="What to look up on the web, as a short search query.")
    max_results: int = Field(
        default=5, ge=1, le=20, description="How many results to return (1 to 20)."
    )
    search_depth: SearchDepth = Field(
        default="basic",
        description="'basic' for quick lookups; 'advanced' for a deeper, slower search.",
    )
    include_domains: list[str] = Field(
        default_factory=list,
        description="Only return pages from these domains, e.g. ['python.org'].",
    )
    exclude_domains: list[str] = Field(
        default_factory=list, description="Never return pages from these domains."
    )
    time_range: TimeRange | None = Field(
        default=None,
        description="Only pages published within the last 'day', 'week', 'month' or 'year'.",
    )


class RetrieveURLInput(_Args):
    """Arguments of ``retrieve_url``, validated before anything is searched.

    Example:
        >>> RetrieveURLInput(url=" https://example.com ").url
        'https://example.com'
    """

    url: Text = Field(
        description="The full http(s) address of the page to read, e.g. from a search result."
    )


class KBSearchInput(_Args):
    """Arguments of ``kb_search``, validated before anything is searched.

    Example:
        >>> KBSearchInput(query="leave policy").limit
        5
    """

    query: Text = Field(description="What to look for in the knowledge base, in plain words.")
    collections: list[str] = Field(
        default_factory=list,
        description="Knowledge-base collections to search; leave empty for the default ones.",
    )
    limit: int = Field(default=5, ge=1, le=50, description="How many passages to return (1 to 50).")


class DBSearchInput(_Args):
    """Arguments of ``db_search``, validated before anything is searched.

    Example:
        >>> DBSearchInput(question="late orders").limit
        10
    """

    question: Text = Field(
        description="The question to answer from the database, in plain words "
        "(e.g. 'orders over $100 placed last week')."
    )
    models: list[str] = Field(
        default_factory=list,
        description="Tables or views to query; leave empty for the default ones.",
    )
    limit: int = Field(default=10, ge=1, le=100, description="How many rows to return (1 to 100).")


class WebSearchTool(SearchTool):
    """Search the web through the configured providers.

    Example:
        >>> WebSearchTool(config={"web": {"providers": ["searxng"]}}).name
        'web_search'
    """

    name: str = "web_search"
    description: str = (
        "Search the web for current information. Returns numbered results with a citation "
        "id each; cite the results you use."
    )
    args_schema: type[BaseModel] = WebSearchInput

    async def _asearch(self, args: dict[str, Any], call: ToolCall) -> SearchResponse:
        params = WebSearchInput.model_validate(args)
        request = SearchRequest(
            query=params.query,
            type=SearchType.WEB,
            source=self.source,
            limit=params.max_results,
            search_depth=params.search_depth,
            sites=params.include_domains,
            exclude_sites=params.exclude_domains,
            time_range=params.time_range,
        )
        return await self._search(request, call)


class KBSearchTool(SearchTool):
    """Search the knowledge base.

    Example:
        >>> KBSearchTool(config={"kb": {"collections": ["handbook"]}}).name
        'kb_search'
    """

    name: str = "kb_search"
    description: str = (
        "Search the organisation's knowledge base (documents, manuals, notes). Returns "
        "numbered passages with a citation id each; cite the passages you use."
    )
    args_schema: type[BaseModel] = KBSearchInput

    async def _asearch(self, args: dict[str, Any], call: ToolCall) -> SearchResponse:
        params = KBSearchInput.model_validate(args)
        request = SearchRequest(
            query=params.query,
            type=SearchType.KB,
            source=self.source,
            collections=params.collections,
            limit=params.limit,
        )
        return await self._search(request, call)


class DBSearchTool(SearchTool):
    """Answer a question from the configured database tables (read-only).

    Example:
        >>> DBSearchTool(config={"db": {"models": ["orders"]}}).name
        'db_search'
    """

    name: str = "db_search"
    description: str = (
        "Look up records in the database by asking a question in plain words. Returns "
        "numbered rows with a citation id each; cite the rows you use."
    )
    args_schema: type[BaseModel] = DBSearchInput

    async def _asearch(self, args: dict[str, Any], call: ToolCall) -> SearchResponse:
        params = DBSearchInput.model_validate(args)
        request = SearchRequest(
            query=params.question,
            type=SearchType.DB,
            source=self.source,
            models=params.models,
            limit=params.limit,
        )
        return await self._search(request, call)


class RetrieveURLTool(SearchTool):
    """Read the text of one web page through the web handler's ``retrieve``.

    Example:
        >>> RetrieveURLTool().name
        'retrieve_url'
    """

    name: str = "retrieve_url"
    description: str = (
        "Read the full text of one web page, for example a search result worth a closer "
        "look. Returns the page with a citation id; cite it when you use it."
    )
    args_schema: type[BaseModel] = RetrieveURLInput

    async def _asearch(self, args: dict[str, Any], call: ToolCall) -> SearchResponse:
        params = RetrieveURLInput.model_validate(args)
        request = SearchRequest(query=params.url, type=SearchType.WEB, source=self.source)
        try:
            items = [await self._retrieve(params.url)]
            result = SearchResult(type=SearchType.WEB, query=params.url, items=items, total=1)
        except Exception as exc:  # reported like a failed search: a tool error for the model
            error = as_search_error(exc)
            result = SearchResult(type=SearchType.WEB, query=params.url, error=error.info())
        return self._cited(request, result, call.request_id or uuid.uuid4().hex)

    async def _retrieve(self, url: str) -> ResultItem:
        handler: Any = self.engine.handler(SearchType.WEB)
        if not hasattr(handler, "retrieve"):
            raise SearchError(ErrorCode.UNSUPPORTED, "the web handler cannot retrieve URLs")
        item: ResultItem = await handler.retrieve(url, self.engine.config)
        return item.model_copy(update={"source": self.source})

    def _cited(
        self, request: SearchRequest, result: SearchResult, request_id: str
    ) -> SearchResponse:
        """Cite the page like a one-item search of the same request context."""
        # The Searcher only cites what it found itself; its per-request allocator keeps the
        # page's ID unique among the searches of the same request.
        items = self.engine.cite(result.items, request_id)
        return SearchResponse(
            request_id=request_id,
            requests=[request],
            results=[result],
            items=items,
            context=build_context(items, self.engine.config.citation),
        )


def search_tools(**binding: Any) -> list[SearchTool]:
    """Return the four tools sharing one Searcher (pass ``searcher=`` or ``config=``)."""
    first = WebSearchTool(**binding)
    shared = {"searcher": first.engine}
    return [first, RetrieveURLTool(**shared), KBSearchTool(**shared), DBSearchTool(**shared)]
