"""``UnifiedSearchRetriever``: the Searcher as a LangChain retriever."""

from __future__ import annotations

from typing import Any

from langchain_core.callbacks import (
    AsyncCallbackManagerForRetrieverRun,
    CallbackManagerForRetrieverRun,
)
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from pydantic import ConfigDict

from langchain_unified_search._binding import (
    SearcherBinding,
    SourceSelection,
    call_options,
    check_strict,
)
from langchain_unified_search.documents import items_to_documents
from langchain_unified_search.events import acustom_event_sink, custom_event_sink
from unified_search.response import SearchResponse


class UnifiedSearchRetriever(SearcherBinding, SourceSelection, BaseRetriever):
    """Search the web, a knowledge base and databases in parallel and return cited documents.

    Every document's metadata carries ``citation_id``, ``type``, ``source``,
    ``weight``, ``score``, ``title``, ``url`` and the source's identifiers.
    A failed source is reported as a ``search_item_failed`` custom event and is
    simply missing from the documents, unless ``strict`` is set.

    Per call, ``invoke`` accepts ``k``, ``types``, ``collections``, ``models``,
    ``mode``, ``source``, ``strict`` and the Searcher options ``request_id``,
    ``chat_id``, ``user``, ``overrides`` and ``provided_references``.

    Example:
        >>> retriever = UnifiedSearchRetriever(
        ...     config={"kb": {"collections": ["docs"]}}, types=["kb"], k=3
        ... )  # doctest: +SKIP
        >>> retriever.invoke("how do I rotate keys?", k=5)  # doctest: +SKIP
    """

    model_config = ConfigDict(extra="forbid", arbitrary_types_allowed=True)

    def _get_relevant_documents(
        self, query: str, *, run_manager: CallbackManagerForRetrieverRun, **kwargs: Any
    ) -> list[Document]:
        selection = self.selection(kwargs)
        response = self.engine.run(
            selection.requests(query),
            sinks=custom_event_sink(run_manager),
            **call_options(kwargs, selection),
        )
        return _documents(response, selection)

    async def _aget_relevant_documents(
        self, query: str, *, run_manager: AsyncCallbackManagerForRetrieverRun, **kwargs: Any
    ) -> list[Document]:
        selection = self.selection(kwargs)
        response = await self.engine.arun(
            selection.requests(query),
            sinks=acustom_event_sink(run_manager),
            **call_options(kwargs, selection),
        )
        return _documents(response, selection)


def _documents(response: SearchResponse, selection: SourceSelection) -> list[Document]:
    check_strict(response, selection.strict)
    return items_to_documents(response.items)
