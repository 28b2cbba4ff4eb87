"""Query modes: how thoroughly one question is searched (``fast``, ``deep``, ``answer``).

* ``fast``: every source once, the question as typed; web search asks one
  provider (the first of ``web.providers``, else the first with a key).
* ``deep``: the question is expanded into sub-queries (synonyms, the intent's
  angles, the other language's wording), every usable web provider is asked,
  and the union is ranked by intent (see ``unified_search.policy.deep``).
* ``answer``: ``deep``, and the citation prompt gains synthesis instructions
  shaped by the number of results (up to 5, up to 15, more): answer first,
  flag contradictions, say how sure (``unified_search.policy.synthesis.answer_prompt``).
* ``auto``: the question's intent picks one of the three, as the search-layer
  design does: ``answer`` for factual questions and tutorials, ``fast`` for
  resources, ``deep`` for the rest (``keyword.intent`` fixes the intent). The mode
  chosen is recorded on every result (``metadata["query_mode"]``).

Without a mode (``None``), the requests run as given. Modes sit above the
engine, like deep search: the ``SearchSession`` (and so both adapters and the
HTTP API) and the CLI run them through :func:`arun_mode`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from unified_search._sync import run_sync
from unified_search.config.search import SearchConfig
from unified_search.contract.response import SearchResponse
from unified_search.engine.parallel import Mode
from unified_search.nlp.intent import strategy_for
from unified_search.policy.deep import DeepSearchInfo, deep_plan, recorded
from unified_search.policy.sources import usable_providers
from unified_search.policy.synthesis import answer_prompt
from unified_search.types import Choice, SearchRequest, SearchType

if TYPE_CHECKING:
    from unified_search.engine.searcher import Searcher


class QueryMode(Choice):
    """How thoroughly a question is searched."""

    FAST = "fast"
    """Each source once, one web provider, no expansion."""
    DEEP = "deep"
    """Sub-queries, every usable web provider, intent-aware ranking."""
    ANSWER = "answer"
    """``deep``, plus synthesis instructions for the model in the citation prompt."""
    AUTO = "auto"
    """The question's intent picks ``fast``, ``deep`` or ``answer``."""


def plan_mode(
    mode: QueryMode | None, requests: Sequence[SearchRequest], config: SearchConfig
) -> tuple[list[SearchRequest], DeepSearchInfo | None]:
    """The requests ``mode`` sends for ``requests``, and the deep-search record if it expands.

    Example:
        >>> plan_mode(QueryMode.FAST, [SearchRequest(query="q")], SearchConfig())[0][0].options
        {}
    """
    if mode is None:
        return list(requests), None
    if mode is QueryMode.AUTO:
        return plan_mode(auto_mode(requests[0].query, config), requests, config)
    if mode is QueryMode.FAST:
        return _one_provider(requests, config), None
    return deep_plan(requests, config)


async def arun_mode(
    searcher: Searcher,
    requests: Sequence[SearchRequest],
    mode: QueryMode | str | None,
    *,
    parallel: Mode | str = Mode.ALL,
    **options: Any,
) -> SearchResponse:
    """Search ``requests`` in ``mode`` on ``searcher``; ``options`` are ``Searcher.arun``'s.

    Example:
        Not run here: ``searcher`` stands for a configured Searcher.

        >>> response = await arun_mode(searcher, [SearchRequest(query="rust async")], "answer")  # doctest: +SKIP
        >>> print(response.context.prompt)  # doctest: +SKIP
    """
    chosen = QueryMode.from_str(mode) if isinstance(mode, str) else mode
    overrides = options.get("overrides")
    config = searcher.config.merged(overrides) if overrides else searcher.config
    if chosen is QueryMode.AUTO:
        chosen = auto_mode(requests[0].query, config)
    planned, info = plan_mode(chosen, requests, config)
    if chosen is QueryMode.ANSWER:
        # Added before the record is written, so the record keeps the prompt the model reads.
        options["finish"] = with_answer_prompt
    response = await searcher.arun(planned, mode=parallel, **options)
    response = response if info is None else recorded(response, info)
    return response if chosen is None else _with_mode(response, chosen)


def auto_mode(query: str, config: SearchConfig) -> QueryMode:
    """The mode the intent of ``query`` asks for (``keyword.intent`` when set).

    Example:
        >>> auto_mode("FastAPI github", SearchConfig()), auto_mode("what is RRF?", SearchConfig())
        (<QueryMode.FAST: 'fast'>, <QueryMode.ANSWER: 'answer'>)
    """
    _, strategy = strategy_for(query, config.keyword.intent)
    return QueryMode(strategy.mode)


def _with_mode(response: SearchResponse, mode: QueryMode) -> SearchResponse:
    """Record on every result the mode it was searched in."""
    results = [
        None
        if result is None
        else result.model_copy(update={"metadata": {**result.metadata, "query_mode": mode.value}})
        for result in response.results
    ]
    return response.model_copy(update={"results": results})


def run_mode(
    searcher: Searcher,
    requests: Sequence[SearchRequest],
    mode: QueryMode | str | None,
    *,
    parallel: Mode | str = Mode.ALL,
    **options: Any,
) -> SearchResponse:
    """Sync twin of ``arun_mode`` (works inside Jupyter and running loops)."""
    return run_sync(arun_mode(searcher, requests, mode, parallel=parallel, **options))


def answer_guidance(response: SearchResponse) -> str:
    """The answer-mode instructions for ``response``'s items (sized to how many there are)."""
    return answer_prompt(response.items, query=response.requests[0].query)


def with_answer_prompt(response: SearchResponse) -> SearchResponse:
    """``response`` with the answer-mode instructions after its citation prompt."""
    parts = (response.context.prompt, answer_guidance(response))
    context = response.context.model_copy(update={"prompt": "\n\n".join(p for p in parts if p)})
    return response.model_copy(update={"context": context})


def _one_provider(requests: Sequence[SearchRequest], config: SearchConfig) -> list[SearchRequest]:
    """Web requests that name no provider ask only the first configured (or keyed) one."""
    if not any(request.type is SearchType.WEB for request in requests):
        return list(requests)
    first = (config.web.providers or usable_providers(config))[:1]
    return [
        request.model_copy(update={"options": {**request.options, "providers": first}})
        if request.type is SearchType.WEB and first and "providers" not in request.options
        else request
        for request in requests
    ]
