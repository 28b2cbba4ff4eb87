"""``UnifiedSearchRetriever``: the Searcher as a LlamaIndex retriever."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from llama_index.core.base.base_retriever import BaseRetriever
from llama_index.core.callbacks import CallbackManager
from llama_index.core.schema import NodeWithScore, QueryBundle

from llama_index_unified_search import instrumentation
from llama_index_unified_search.nodes import item_to_node
from unified_search.errors import SearchError
from unified_search.parallel import Mode
from unified_search.response import SearchResponse
from unified_search.searcher import ConfigLike, Searcher
from unified_search.types import SearchRequest, SearchType

logger = logging.getLogger(__name__)


def resolve_searcher(searcher: Searcher | None, config: ConfigLike) -> Searcher:
    """Use the given Searcher, or build one from ``config``; never both."""
    if searcher is not None and config is not None:
        raise ValueError("pass either searcher or config, not both")
    return searcher if searcher is not None else Searcher(config)


def _templates(
    types: Sequence[SearchType | str] | None, requests: Sequence[Mapping[str, Any]] | None
) -> list[dict[str, Any]]:
    """Return one request template per request a query becomes."""
    if requests is None:
        chosen = _search_types(types if types is not None else (SearchType.KB,))
        return [{"type": type_} for type_ in chosen]
    if types is not None:
        raise ValueError("pass either types or requests, not both")
    if not requests or any("query" in request for request in requests):
        raise ValueError("requests must hold at least one request template, none with a query")
    return [dict(request) for request in requests]


def _search_types(types: Iterable[SearchType | str]) -> list[SearchType]:
    valid = ", ".join(t.value for t in SearchType)
    chosen: list[SearchType] = []
    for value in types:
        try:
            chosen.append(SearchType(value))
        except ValueError:
            raise ValueError(f"unknown search type {value!r}; valid types: {valid}") from None
    if not chosen:
        raise ValueError(f"types must name at least one of: {valid}")
    return list(dict.fromkeys(chosen))


def raise_if_failed(response: SearchResponse) -> SearchResponse:
    """Raise the first error when every source failed; log partial failures."""
    if response.status == "failed":
        raise SearchError.from_info(response.errors[0])
    for error in response.errors:
        logger.warning("search %s: %s %s", response.request_id, error.code.value, error.message)
    return response


class UnifiedSearchRetriever(BaseRetriever):
    """Retrieve cited nodes from the web, a knowledge base and databases at once.

    Each node is a ``TextNode`` whose metadata carries ``citation_id``,
    ``type``, ``source``, ``weight``, ``score``, ``title``, ``url`` and the
    collection/document or model/record ids; its id is derived from the
    item's identity, so the same page, chunk or row has the same node id in
    every run. When every source fails the first ``SearchError`` is raised;
    when some fail, the others' nodes are returned and the failures logged.

    Example:
        >>> retriever = UnifiedSearchRetriever(
        ...     config={"kb": {"collections": ["docs"]}}, types=["kb", "web"], top_k=5
        ... )
        >>> nodes = retriever.retrieve("how do I rotate my API key?")  # doctest: +SKIP
        >>> nodes[0].node.metadata["citation_id"]  # doctest: +SKIP
        'ref_001'
    """

    def __init__(
        self,
        searcher: Searcher | None = None,
        *,
        config: ConfigLike = None,
        types: Sequence[SearchType | str] | None = None,
        requests: Sequence[Mapping[str, Any]] | None = None,
        collections: Sequence[str] = (),
        models: Sequence[str] = (),
        mode: Mode | str = Mode.ALL,
        top_k: int | None = None,
        request_fields: Mapping[str, Any] | None = None,
        request_id: str | None = None,
        chat_id: str | None = None,
        user: Mapping[str, Any] | None = None,
        overrides: Mapping[str, Any] | None = None,
        callback_manager: CallbackManager | None = None,
        verbose: bool = False,
    ) -> None:
        """Configure what each query searches.

        Args:
            searcher: the engine to use; or give ``config`` and one is built.
            config: a ``SearchConfig``, a profile dict or a ``search.yml`` path.
            types: the kinds of source to search, one request each (``web``, ``kb``, ``db``);
                ``kb`` by default.
            requests: or the requests themselves, as ``SearchRequest`` fields without the
                query (for example two ``kb`` requests over different collections, fused
                as two ranked lists). Not together with ``types``.
            collections: knowledge-base collections (empty: the configured ones).
            models: database tables or views (empty: the configured ones).
            mode: ``all``, ``any`` or ``race`` (see ``Searcher.arun``).
            top_k: nodes to return; ``None`` uses ``rerank.top_n``.
            request_fields: further ``SearchRequest`` fields for every request
                (for example ``{"sites": ["python.org"], "threshold": 0.5}``).
            request_id: a citation context for every search of this retriever; citation IDs
                then continue across queries (and across retrievers given the same ID, for
                example the sub-retrievers of a fusion retriever) instead of restarting at
                ``ref_001``. A new context per query by default.
            chat_id: the conversation the searches belong to.
            user: caller context, such as a tenant ID for database permission filters.
            overrides: configuration keys applied over the Searcher's for these searches.
            callback_manager: LlamaIndex callback manager.
            verbose: LlamaIndex verbose flag.
        """
        if top_k is not None and top_k < 1:
            raise ValueError(f"top_k must be at least 1, got {top_k}")
        if request_fields and {"query", "type"} & set(request_fields):
            raise ValueError("request_fields cannot set query or type; use the query and types")
        self._searcher = resolve_searcher(searcher, config)
        self._templates = _templates(types, requests)
        self._fields = {"collections": list(collections), "models": list(models)}
        self._fields |= dict(request_fields or {})
        self._mode = Mode.from_str(mode) if isinstance(mode, str) else mode
        self._options: dict[str, Any] = {"top_n": top_k, "request_id": request_id}
        self._options |= {"chat_id": chat_id, "user": user, "overrides": overrides}
        self._requests("validation")  # fail now, naming the field, rather than at the first query
        super().__init__(callback_manager=callback_manager, verbose=verbose)

    @property
    def searcher(self) -> Searcher:
        """The engine this retriever searches with."""
        return self._searcher

    def _requests(self, query: str) -> list[SearchRequest]:
        return [
            SearchRequest.model_validate({**self._fields, **template, "query": query})
            for template in self._templates
        ]

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        requests = self._requests(query_bundle.query_str)
        response = instrumentation.search(
            self._searcher, requests, mode=self._mode, **self._options
        )
        return [item_to_node(item) for item in raise_if_failed(response).items]

    async def _aretrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        requests = self._requests(query_bundle.query_str)
        response = await instrumentation.asearch(
            self._searcher, requests, mode=self._mode, **self._options
        )
        return [item_to_node(item) for item in raise_if_failed(response).items]
