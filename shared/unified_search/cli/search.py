"""``unified-search search`` and ``unified-search deep``: ask, then show cited references."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import click

from unified_search.cli.options import (
    FRESHNESS,
    BadInput,
    config_option,
    overrides,
    skill_options,
    source_options,
)

if TYPE_CHECKING:
    from unified_search.contract.response import SearchResponse
    from unified_search.policy.modes import QueryMode
    from unified_search.types import SearchType

#: The query modes, as ``--mode`` accepts them (see ``unified_search.policy.modes``).
MODES = ("fast", "deep", "answer", "auto")


@click.command()
@click.argument("query", nargs=-1, required=True, metavar="QUERY")
@click.option(
    "--mode",
    type=click.Choice(MODES),
    help="fast: each source once, one web provider; deep: sub-queries, every web provider, "
    "intent ranking; answer: deep plus answer instructions for the model; auto: the "
    "question's intent picks one (default: the query as typed on every source).",
)
@skill_options
@source_options
@config_option
def search(query: tuple[str, ...], mode: str | None, **flags: Any) -> int:
    """Search web, knowledge base and databases at once and print cited references.

    \b
    Examples:
      unified-search search "return policy for headphones" --type kb --collection kestrel-help
      unified-search search 'wireless headphones under $100' --db ~/.local/share/unified-search/demo/shop.db --model products
      unified-search search "vector databases" --type web,kb --collection kestrel-help --format json
      unified-search search "Rust 异步编程" --type web --mode answer
      unified-search search --queries "Aurora battery life" "Aurora charging case" --type kb --collection kestrel-help --num 3
      unified-search search "how do I reset the Beacon speaker" --collection kestrel-help --mode auto

    The database and collection are the ones unified-search demo makes.

    Exit codes: 0 all sources answered, 1 some source failed, 2 bad input.
    """  # noqa: D301 - click reads \b as "keep these lines"
    return _run(query, mode=mode, **flags)


@click.command()
@click.argument("query", nargs=-1, required=True, metavar="QUERY")
@skill_options
@source_options
@config_option
def deep(query: tuple[str, ...], **flags: Any) -> int:
    """Deep search: classify intent, expand into sub-queries, search every source, rank by intent.

    \b
    Example:
      unified-search deep "compare the Aurora and Studio Pro headphones" --collection kestrel-help --db ~/.local/share/unified-search/demo/shop.db --model products

    Exit codes: 0 all sources answered, 1 some source failed, 2 bad input.
    """  # noqa: D301 - click reads \b as "keep these lines"
    return _run(query, mode="deep", **flags)


def _run(
    query: tuple[str, ...],
    *,
    mode: str | None,
    queries: bool,
    intent: str | None,
    freshness: str | None,
    domain_boost: str | None,
    num: int | None,
    types: Sequence[SearchType] | None,
    collections: Sequence[str],
    db_url: str | None,
    models: Sequence[str],
    rerank: str | None,
    top_n: int | None,
    output: str,
    chat_id: str | None,
    config_path: str | None,
) -> int:
    # The engine is imported here, not at the top: ``--help`` and usage errors stay instant.
    from unified_search.cli.console import plain, stdout
    from unified_search.cli.render import show
    from unified_search.cli.runtime import asearch, chosen_types
    from unified_search.cli.settings import load_config
    from unified_search.policy.modes import QueryMode
    from unified_search.types import SearchRequest

    asked = [q for q in query if q.strip()] if queries else [" ".join(query)]
    if not asked or not asked[0].strip():
        raise BadInput("QUERY must contain text")
    for text in asked:  # one length rule, whichever sources are asked: checked first
        SearchRequest(query=text)
    flags = overrides(
        collections=collections,
        db_url=db_url,
        models=models,
        rerank=rerank,
        intent=intent,
        domain_boost=domain_boost,
    )
    config = load_config(config_path, flags)
    kinds = chosen_types(config, types)
    chosen = QueryMode(mode) if mode else None
    # Scoring by intent (the skill's --intent, --domain-boost) needs the intent reranker.
    if rerank is None and chosen is None and (intent or domain_boost):
        rerank = "intent"
    # Deep and answer searches name their own reranker per request; --rerank replaces it.
    response = asyncio.run(
        asearch(
            config,
            asked,
            kinds,
            mode=chosen,
            rerank=rerank,
            top_n=top_n,
            chat_id=chat_id,
            limit=num,
            time_range=FRESHNESS.get(freshness or "", freshness),
        )
    )
    console = stdout()
    ran = searched_mode(response, chosen)
    if ran in (QueryMode.DEEP, QueryMode.ANSWER) and output == "table":
        console.print(plain(deep_summary(response)), highlight=False)
    show(console, response, output)
    if ran is QueryMode.ANSWER and output == "table":
        console.print(plain(response.context.prompt), highlight=False, soft_wrap=True)
    return exit_code(response)


def searched_mode(response: SearchResponse, asked: QueryMode | None) -> QueryMode | None:
    """The mode the search ran in: the one asked, or the one ``auto`` chose."""
    from unified_search.policy.modes import QueryMode

    for result in response.results:
        if result is not None and "query_mode" in result.metadata:
            return QueryMode(result.metadata["query_mode"])
    return asked


def deep_summary(response: SearchResponse) -> str:
    """What the deep search decided: the intent and the sub-queries it searched."""
    from unified_search.policy.deep import deep_search_info

    info = deep_search_info(response)
    if info is None:
        return "deep search: no request finished"
    return f"intent: {info.intent.value}  sub-queries: {'; '.join(info.sub_queries)}"


def exit_code(response: SearchResponse) -> int:
    """0 when the sources answered, 1 when one failed, 2 when every source refused the input.

    A source refusing a question it cannot read (``INVALID_QUERY``, ``UNSUPPORTED``) while
    others answer is not a failure; every source refusing it is bad input.
    """
    from unified_search.errors import REFUSALS

    refused = [error.code in REFUSALS for error in response.errors]
    if response.status == "failed":
        return 2 if all(refused) else 1
    return 1 if response.warnings or not all(refused) else 0
