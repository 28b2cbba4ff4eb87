"""Deep search: one question, several sub-queries, every source, one intent-aware ranking.

``adeep_search`` classifies the query's intent, expands it into sub-queries
(``unified_search.nlp.expand``), sends one request per (sub-query × source
type) in parallel, and lets the engine merge and deduplicate them and rerank
with the ``intent`` reranker. The intent's freshness becomes the web requests'
``time_range``. What the deep search decided is recorded on every
``SearchResult`` in ``metadata["deep_search"]`` (read it back with
:func:`deep_search_info`). Deep search sits above the engine: it imports the
Searcher, never the reverse.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict

from unified_search._sync import run_sync
from unified_search.config import SearchConfig
from unified_search.nlp.expand import Expansion, expand_query
from unified_search.nlp.intent import STRATEGIES, Intent
from unified_search.response import SearchResponse
from unified_search.types import RerankOptions, SearchRequest, SearchType

if TYPE_CHECKING:
    from unified_search.searcher import Searcher

#: The reranker a deep search asks for unless the caller names another.
DEEP_RERANKER = "intent"
_REQUEST_FIELDS = frozenset(SearchRequest.model_fields) - {"query", "type"}


class DeepSearchInfo(BaseModel):
    """What a deep search did with its query.

    Example:
        >>> DeepSearchInfo(query="k8s vs nomad", intent="comparison", sub_queries=["k8s vs nomad"]).intent
        <Intent.COMPARISON: 'comparison'>
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    query: str
    intent: Intent
    sub_queries: list[str]
    types: list[SearchType] = []
    time_range: str | None = None


async def adeep_search(
    searcher: Searcher,
    query: str,
    *,
    types: Sequence[SearchType | str] | None = None,
    **options: Any,
) -> SearchResponse:
    """Search every sub-query of ``query`` on every source type and rank the union by intent.

    Args:
        searcher: the engine to run the requests on.
        query: the user's question.
        types: source types to search; default: the configured ones (see :func:`default_types`).
        **options: request fields (``limit``, ``sites``, ``source``, ``rerank`` ...) applied to
            every request, and ``Searcher.arun`` options (``top_n``, ``request_id`` ...).
    """
    request_fields = {k: v for k, v in options.items() if k in _REQUEST_FIELDS}
    run_options = {k: v for k, v in options.items() if k not in _REQUEST_FIELDS}
    chosen = [SearchType(t) for t in types] if types else default_types(searcher.config)
    expansion = expand_query(_checked(query), config=searcher.config.keyword)
    requests = plan_requests(expansion, chosen, request_fields)
    info = DeepSearchInfo(
        query=expansion.query,
        intent=expansion.intent,
        sub_queries=expansion.sub_queries,
        types=list(dict.fromkeys(chosen)),
        time_range=STRATEGIES[expansion.intent].time_range,
    )
    response = await searcher.aall(requests, **run_options)
    return _recorded(response, info)


def deep_search(
    searcher: Searcher,
    query: str,
    *,
    types: Sequence[SearchType | str] | None = None,
    **options: Any,
) -> SearchResponse:
    """Sync twin of ``adeep_search`` (works inside Jupyter and running loops)."""
    return run_sync(adeep_search(searcher, query, types=types, **options))


def _checked(query: str) -> str:
    text = " ".join(query.split())
    if not text:
        raise ValueError("query must contain text")
    return text


def default_types(config: SearchConfig) -> list[SearchType]:
    """The source types with something configured (web providers, collections, a database)."""
    configured = [
        (SearchType.WEB, bool(config.web.providers)),
        (SearchType.KB, bool(config.kb.collections)),
        (SearchType.DB, config.db.url is not None),
    ]
    return [kind for kind, ready in configured if ready] or [SearchType.WEB]


def plan_requests(
    expansion: Expansion, types: Sequence[SearchType], fields: Mapping[str, Any]
) -> list[SearchRequest]:
    """One request per (sub-query × type), the original query first (the reranker reads it)."""
    time_range = STRATEGIES[expansion.intent].time_range
    base = {"rerank": RerankOptions(uses=DEEP_RERANKER), **fields}
    return [
        SearchRequest.model_validate(
            {
                **base,
                "query": sub_query,
                "type": kind,
                **_web_only(kind, time_range, fields),
            }
        )
        for sub_query in expansion.sub_queries
        for kind in dict.fromkeys(types)
    ]


def _web_only(
    kind: SearchType, time_range: str | None, fields: Mapping[str, Any]
) -> dict[str, Any]:
    if kind is not SearchType.WEB or time_range is None or "time_range" in fields:
        return {}
    return {"time_range": time_range}


def _recorded(response: SearchResponse, info: DeepSearchInfo) -> SearchResponse:
    record = info.model_dump(mode="json")
    results = [
        None
        if result is None
        else result.model_copy(
            update={
                "metadata": {
                    **result.metadata,
                    "deep_search": {**record, "sub_query": result.query},
                }
            }
        )
        for result in response.results
    ]
    return response.model_copy(update={"results": results})


def deep_search_info(response: SearchResponse) -> DeepSearchInfo | None:
    """The deep search record of ``response`` (``None`` when it was not a deep search)."""
    for result in response.results:
        if result is not None and "deep_search" in result.metadata:
            record = {k: v for k, v in result.metadata["deep_search"].items() if k != "sub_query"}
            return DeepSearchInfo.model_validate(record)
    return None
