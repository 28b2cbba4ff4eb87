"""``UnifiedSearchRetriever``: the search policy as a LlamaIndex retriever."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from llama_index.core.base.base_retriever import BaseRetriever
from llama_index.core.callbacks import CallbackManager
from llama_index.core.schema import NodeWithScore, QueryBundle

from llama_index_unified_search.instrumentation import asearch, search
from llama_index_unified_search.nodes import item_to_node
from unified_search import Mode, Searcher, SearchResponse, SearchType, Source
from unified_search.config import ConfigLike
from unified_search.policy import QueryMode, RunIds, SearchOptions, SearchSession


def resolve_session(
    session: SearchSession | None, searcher: Searcher | None, config: ConfigLike
) -> SearchSession:
    """Use the given session, or one over the given Searcher, or over one built from ``config``."""
    given = [
        n
        for n, v in (("session", session), ("searcher", searcher), ("config", config))
        if v is not None
    ]
    if len(given) > 1:
        raise ValueError(f"pass one of session, searcher or config, not {' and '.join(given)}")
    return session or SearchSession(searcher or Searcher(config))


class UnifiedSearchRetriever(BaseRetriever):
    """Retrieve cited nodes from the web, a knowledge base and databases at once.

    Each node's metadata carries the item's own metadata and, under
    ``metadata["unified_search"]``, its ``citation_id``, ``type``, ``source``,
    ``weight``, ``score``, ``title``, ``url`` and identifiers; its id is derived
    from the item's identity, so the same page, chunk or row has the same node
    id in every run. Citation IDs are unique within ``request_id`` /
    ``thread_id`` / ``chat_id`` when given, else within the retriever's session.
    When every source fails the first ``SearchError`` is raised; when some fail,
    the others' nodes are returned and the failures reported in the events;
    ``strict`` raises on any failure.

    Example:
        Not run here: it needs an indexed collection and web access.

        >>> retriever = UnifiedSearchRetriever(
        ...     config={"kb": {"collections": ["docs"]}}, types=["kb", "web"], top_k=5
        ... )
        >>> nodes = retriever.retrieve("how do I rotate my API key?")  # doctest: +SKIP
    """

    def __init__(
        self,
        searcher: Searcher | None = None,
        *,
        config: ConfigLike = None,
        session: SearchSession | None = None,
        types: Sequence[SearchType | str] | None = None,
        requests: Sequence[Mapping[str, Any]] | None = None,
        collections: Sequence[str] = (),
        models: Sequence[str] = (),
        mode: QueryMode | str | None = None,
        parallel: Mode | str = Mode.ALL,
        top_k: int | None = None,
        source: Source | str = Source.USER,
        strict: bool = False,
        request_fields: Mapping[str, Any] | None = None,
        request_id: str | None = None,
        thread_id: str | None = None,
        chat_id: str | None = None,
        user: Mapping[str, Any] | None = None,
        overrides: Mapping[str, Any] | None = None,
        callback_manager: CallbackManager | None = None,
        verbose: bool = False,
    ) -> None:
        """Configure what each query searches (see ``SearchOptions`` for the search fields).

        Args:
            searcher: the engine to use; or give ``config``, or a ``session`` shared with
                other retrievers and tool specs (one citation scope for all of them).
            config: a ``SearchConfig``, a profile dict or a ``search.yml`` path.
            session: a ``SearchSession`` to search through.
            types: the kinds of source to search, one request each; every configured one
                by default.
            requests: or the requests themselves, as ``SearchRequest`` fields without the
                query (for example two ``kb`` requests over different collections).
            collections: knowledge-base collections (empty: the configured ones).
            models: database tables or views (empty: the configured ones).
            mode: ``fast``, ``deep`` or ``answer`` (see ``unified_search.policy.modes``); ``None``
                searches each source once with the query as typed.
            parallel: ``all``, ``any`` or ``race`` (also accepted as ``mode``).
            top_k: nodes to return; ``None`` uses ``rerank.top_n``.
            source: who is asking (``user`` by default, as everywhere).
            strict: raise on any failed source, not only when all fail.
            request_fields: further ``SearchRequest`` fields for every request.
            request_id: the citation scope of every search of this retriever.
            thread_id: or the conversation thread as the scope.
            chat_id: the conversation the searches belong to (the scope if no other).
            user: caller context, such as a tenant ID for database permission filters.
            overrides: configuration keys applied over the Searcher's for these searches.
            callback_manager: LlamaIndex callback manager.
            verbose: LlamaIndex verbose flag.
        """
        if top_k is not None and top_k < 1:
            raise ValueError(f"top_k must be at least 1, got {top_k}")
        self._session = resolve_session(session, searcher, config)
        self._options = SearchOptions.model_validate(
            {
                "types": types,
                "requests": requests,
                "collections": list(collections),
                "models": list(models),
                "parallel": parallel,
                "mode": mode,
                "k": top_k,
                "source": source,
                "strict": strict,
                "request_fields": dict(request_fields or {}),
                "user": user,
                "overrides": overrides,
            }
        )
        self._run = RunIds(request_id=request_id, thread_id=thread_id, chat_id=chat_id)
        super().__init__(callback_manager=callback_manager, verbose=verbose)

    @property
    def searcher(self) -> Searcher:
        """The engine this retriever searches with."""
        return self._session.searcher

    @property
    def session(self) -> SearchSession:
        """The session (and so the citation scope) this retriever searches in."""
        return self._session

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        query = query_bundle.query_str
        response: SearchResponse = search(
            lambda sinks: self._session.search(query, self._options, run=self._run, sinks=sinks)
        )
        return [item_to_node(item) for item in response.items]

    async def _aretrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        query = query_bundle.query_str
        response: SearchResponse = await asearch(
            lambda sinks: self._session.asearch(query, self._options, run=self._run, sinks=sinks)
        )
        return [item_to_node(item) for item in response.items]
