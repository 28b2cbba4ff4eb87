"""``UnifiedSearchRetriever``: the search policy as a LangChain retriever."""

from __future__ import annotations

from typing import Any

from langchain_core.callbacks import (
    AsyncCallbackManagerForRetrieverRun,
    CallbackManagerForRetrieverRun,
)
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from langchain_core.runnables import RunnableConfig
from pydantic import ConfigDict

from langchain_unified_search.binding import SessionBinding, run_ids
from langchain_unified_search.documents import items_to_documents
from langchain_unified_search.events import acustom_event_sink, custom_event_sink
from unified_search.policy import RunIds, SearchOptions

#: The keyword argument carrying the run identifiers from ``invoke`` to the search.
_RUN = "run_ids"


class UnifiedSearchRetriever(SessionBinding, SearchOptions, BaseRetriever):
    """Search the web, a knowledge base and databases in parallel and return cited documents.

    Every document carries the item's own metadata and, under
    ``metadata["unified_search"]``, its ``citation_id``, ``type``, ``source``,
    ``weight``, ``score``, ``title``, ``url`` and the source's identifiers.
    Citation IDs are unique within the scope of ``configurable``'s
    ``request_id``, ``thread_id`` or ``chat_id``, else within this retriever's
    session. When every source fails the first ``SearchError`` is raised (so
    ``with_fallbacks`` and ``with_retry`` take over); a partial failure returns
    the other sources' documents and reports the failure as a
    ``search_item_failed`` event; ``strict`` raises on any failure.

    Per call, ``invoke`` accepts every ``SearchOptions`` field (``k``, ``types`` ...).

    Example:
        Not run here: it needs an indexed collection ``docs``.

        >>> retriever = UnifiedSearchRetriever(
        ...     config={"kb": {"collections": ["docs"]}}, types=["kb"], k=3
        ... )  # doctest: +SKIP
        >>> retriever.invoke("how do I rotate keys?", config={"configurable": {"thread_id": "t1"}})  # doctest: +SKIP
    """

    model_config = ConfigDict(extra="forbid", arbitrary_types_allowed=True, frozen=False)

    def invoke(
        self, input: str, config: RunnableConfig | None = None, **kwargs: Any
    ) -> list[Document]:
        """Retrieve documents for ``input`` within the run's citation scope."""
        return super().invoke(input, config, **kwargs, **{_RUN: run_ids(config)})

    async def ainvoke(
        self, input: str, config: RunnableConfig | None = None, **kwargs: Any
    ) -> list[Document]:
        """Async twin of ``invoke``."""
        return await super().ainvoke(input, config, **kwargs, **{_RUN: run_ids(config)})

    def _get_relevant_documents(
        self,
        query: str,
        *,
        run_manager: CallbackManagerForRetrieverRun,
        run_ids: RunIds | None = None,
        **kwargs: Any,
    ) -> list[Document]:
        response = self.bound.search(
            query, self.merged(kwargs), run=run_ids, sinks=custom_event_sink(run_manager)
        )
        return items_to_documents(response.items)

    async def _aget_relevant_documents(
        self,
        query: str,
        *,
        run_manager: AsyncCallbackManagerForRetrieverRun,
        run_ids: RunIds | None = None,
        **kwargs: Any,
    ) -> list[Document]:
        response = await self.bound.asearch(
            query, self.merged(kwargs), run=run_ids, sinks=acustom_event_sink(run_manager)
        )
        return items_to_documents(response.items)
