"""``UnifiedSearchToolSpec``: web, URL, knowledge-base and database search as agent tools."""

# No ``from __future__ import annotations`` here: LlamaIndex builds each tool's schema from
# the evaluated signature, so the annotations must be real objects, not strings.

import uuid
from collections.abc import Mapping
from typing import Annotated, Any, Literal

from llama_index.core.tools.tool_spec.base import SPEC_FUNCTION_TYPE, BaseToolSpec

from llama_index_unified_search import instrumentation
from llama_index_unified_search.retriever import raise_if_failed, resolve_searcher
from unified_search._sync import run_sync
from unified_search.errors import ErrorCode, SearchError, as_search_error
from unified_search.events import progress_message
from unified_search.handler import SearchContext
from unified_search.response import SearchResponse
from unified_search.searcher import ConfigLike, Searcher
from unified_search.types import ResultItem, SearchRequest, SearchType

# Parameter types with the descriptions the model reads in each tool's schema.
Query = Annotated[str, "What to look for, in natural language."]
MaxResults = Annotated[int, "How many references to return (1-100)."]
Recency = Annotated[Literal["day", "week", "month", "year"] | None, "Only pages this recent."]
Url = Annotated[str, "The http(s) address to read."]
Collections = Annotated[list[str] | None, "Collections to search; all by default."]
Models = Annotated[list[str] | None, "Tables to query; all configured ones by default."]


class UnifiedSearchToolSpec(BaseToolSpec):
    """Search tools for LlamaIndex agents, answering with a cited ``<references>`` block.

    Every search of one tool spec shares one citation context, so ``ref_NNN``
    IDs never repeat across the calls of a conversation. A failure raises
    ``SearchError``; LlamaIndex agents (and ``call_tool``) turn it into a tool
    error whose text starts with the error code, such as ``NO_API_KEY``.

    Example:
        >>> from llama_index.core.agent.workflow import FunctionAgent  # doctest: +SKIP
        >>> tools = UnifiedSearchToolSpec(config="search.yml").to_tool_list()  # doctest: +SKIP
        >>> agent = FunctionAgent(tools=tools, llm=llm)  # doctest: +SKIP
    """

    spec_functions: list[SPEC_FUNCTION_TYPE] = [  # noqa: RUF012 (BaseToolSpec's own declaration)
        ("web_search", "aweb_search"),
        ("retrieve_url", "aretrieve_url"),
        ("kb_search", "akb_search"),
        ("db_search", "adb_search"),
    ]

    def __init__(
        self,
        searcher: Searcher | None = None,
        *,
        config: ConfigLike = None,
        request_id: str | None = None,
        chat_id: str | None = None,
        user: Mapping[str, Any] | None = None,
    ) -> None:
        """Use a Searcher (or build one from ``config``) for every tool call.

        Args:
            searcher: the engine to use.
            config: or a configuration to build one from (not both).
            request_id: the citation context to continue; a new one by default.
            chat_id: the conversation the searches belong to.
            user: caller context, such as a tenant ID for database permission filters.
        """
        self._searcher = resolve_searcher(searcher, config)
        self._options: dict[str, Any] = {
            "request_id": request_id or uuid.uuid4().hex,
            "chat_id": chat_id,
            "user": user,
        }

    # -- tools ----------------------------------------------------------------------------

    def web_search(
        self, query: Query, max_results: MaxResults = 5, time_range: Recency = None
    ) -> str:
        """Search the web for current information; answers with citable references."""
        return run_sync(self.aweb_search(query, max_results, time_range))

    async def aweb_search(
        self, query: Query, max_results: MaxResults = 5, time_range: Recency = None
    ) -> str:
        """Search the web for current information; answers with citable references."""
        fields = {"time_range": time_range} if time_range else {}
        return await self._search(SearchType.WEB, query, max_results, fields)

    def retrieve_url(self, url: Url) -> str:
        """Read the main text of one web page."""
        return run_sync(self.aretrieve_url(url))

    async def aretrieve_url(self, url: Url) -> str:
        """Read the main text of one web page."""
        handler = self._searcher.handler(SearchType.WEB)
        retrieve = getattr(handler, "retrieve", None)
        if retrieve is None:
            raise SearchError(ErrorCode.UNSUPPORTED, "the web source cannot retrieve URLs")
        ctx = SearchContext(
            config=self._searcher.config,
            request_id=self._options["request_id"],
            delegates=self._searcher.delegates,
        )
        return _page_text(await retrieve(url, ctx))

    def kb_search(
        self, query: Query, collections: Collections = None, max_results: MaxResults = 5
    ) -> str:
        """Search the knowledge base (internal documents); answers with citable references."""
        return run_sync(self.akb_search(query, collections, max_results))

    async def akb_search(
        self, query: Query, collections: Collections = None, max_results: MaxResults = 5
    ) -> str:
        """Search the knowledge base (internal documents); answers with citable references."""
        fields = {"collections": collections or []}
        return await self._search(SearchType.KB, query, max_results, fields)

    def db_search(self, query: Query, models: Models = None, max_results: MaxResults = 10) -> str:
        """Query the database in plain language (for example "orders over $100 this week")."""
        return run_sync(self.adb_search(query, models, max_results))

    async def adb_search(
        self, query: Query, models: Models = None, max_results: MaxResults = 10
    ) -> str:
        """Query the database in plain language (for example "orders over $100 this week")."""
        return await self._search(SearchType.DB, query, max_results, {"models": models or []})

    # -- shared ---------------------------------------------------------------------------

    async def _search(
        self, type_: SearchType, query: str, max_results: int, fields: Mapping[str, Any]
    ) -> str:
        try:
            request = SearchRequest.model_validate(
                {**fields, "query": query, "type": type_, "limit": max_results}
            )
        except ValueError as exc:  # bad arguments from the model come back as INVALID_QUERY
            raise as_search_error(exc) from exc
        response = await instrumentation.asearch(
            self._searcher, [request], top_n=max_results, **self._options
        )
        return _answer(raise_if_failed(response), self._searcher.config.options.language)


def _answer(response: SearchResponse, language: Literal["en", "zh"]) -> str:
    """Return the references block with its citation instruction, or say nothing was found."""
    if not response.items:
        return progress_message("none", language=language)
    return "\n\n".join(part for part in (response.context.prompt, response.context.xml) if part)


def _page_text(page: ResultItem) -> str:
    return f"{page.title}\n{page.url or ''}\n\n{page.content}".strip()
