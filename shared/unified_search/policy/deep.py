"""Deep search: one question, several sub-queries, several providers, one intent-aware ranking.

``adeep_search`` classifies the query's intent, expands it into sub-queries
(``unified_search.nlp.expand``: synonyms, intent-driven sub-queries, the other
language's wording), sends one request per (sub-query × source) in parallel,
asks every usable web provider at once, and lets the engine merge and
deduplicate them and rerank with the ``intent`` reranker. The intent's
freshness becomes the web requests' ``time_range``, unless the question's own
words say (``today`` searches a day, ``this week`` a week ...). What the deep search
decided is recorded on every ``SearchResult`` in ``metadata["deep_search"]``
(read it back with :func:`deep_search_info`). Deep search sits above the
engine: it imports the Searcher, never the reverse; ``unified_search.policy.modes``
builds the ``deep`` and ``answer`` modes on it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict

from unified_search._sync import run_sync
from unified_search.config.search import SearchConfig
from unified_search.contract.response import SearchResponse
from unified_search.nlp.expand import expand_query
from unified_search.nlp.intent import freshness_for, time_range_of
from unified_search.policy.sources import default_types, usable_providers
from unified_search.types import Intent, RerankOptions, SearchRequest, SearchType

if TYPE_CHECKING:
    from unified_search.engine.searcher import Searcher

#: The reranker a deep search asks for unless the caller names another.
DEEP_RERANKER = "intent"
#: Sources that read the sub-queries expansion writes ("Aurora advantages", "X ecosystem"):
#: web search engines and the knowledge base's text search. A database reads a question
#: about its rows and refuses words it cannot map to them, so it gets the questions asked.
READS_SUB_QUERIES = frozenset({SearchType.WEB, SearchType.KB})
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
    providers: list[str] = []
    """Web providers asked when the configuration names none (every one with a key)."""


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
    base = [
        SearchRequest.model_validate({**request_fields, "query": _checked(query), "type": kind})
        for kind in dict.fromkeys(chosen)
    ]
    requests, info = deep_plan(base, searcher.config)
    response = await searcher.aall(requests, **run_options)
    return recorded(response, info)


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


def deep_plan(
    requests: Sequence[SearchRequest], config: SearchConfig
) -> tuple[list[SearchRequest], DeepSearchInfo]:
    """Expand the query of ``requests`` and return one request per (sub-query × request).

    Requests with several queries bring their own sub-queries: each is sent to every
    source the first query's requests name, and none is added. The sub-queries
    expansion adds go only to the sources that read them (``READS_SUB_QUERIES``). The original (first)
    query comes first (the reranker reads it). Every request asks
    for the ``intent`` reranker unless it names one; web requests get the
    intent's time range unless they set one, and every usable provider when
    neither they nor ``web.providers`` name any.
    """
    asked = list(dict.fromkeys(request.query for request in requests))
    expansion = expand_query(asked[0], config=config.keyword, language=config.options.language)
    # Several queries given (the skill's --queries) are the sub-queries: nothing is added.
    sub_queries = expansion.sub_queries if len(asked) == 1 else asked
    base = [request for request in requests if request.query == asked[0]]
    time_range = time_range_of(freshness_for(expansion.query, expansion.intent))
    providers = [] if config.web.providers else usable_providers(config)
    planned = [
        _sub_request(request, sub_query, time_range, providers)
        for sub_query in sub_queries
        for request in base
        if sub_query in asked or request.type in READS_SUB_QUERIES
    ]
    info = DeepSearchInfo(
        query=expansion.query,
        intent=expansion.intent,
        sub_queries=sub_queries,
        types=list(dict.fromkeys(request.type for request in requests)),
        time_range=time_range,
        providers=providers if any(r.type is SearchType.WEB for r in requests) else [],
    )
    return planned, info


def _sub_request(
    request: SearchRequest, sub_query: str, time_range: str | None, providers: list[str]
) -> SearchRequest:
    update: dict[str, Any] = {"query": sub_query}
    if request.rerank is None or request.rerank.uses is None:
        top_n = request.rerank.top_n if request.rerank else None
        update["rerank"] = RerankOptions(uses=DEEP_RERANKER, top_n=top_n)
    if request.type is SearchType.WEB:
        if time_range and not (request.time_range or request.start_date or request.end_date):
            update["time_range"] = time_range
        if providers and "providers" not in request.options:
            update["options"] = {**request.options, "providers": providers}
    return request.model_copy(update=update)


def recorded(response: SearchResponse, info: DeepSearchInfo) -> SearchResponse:
    """Record what the deep search decided on every result of ``response``."""
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
