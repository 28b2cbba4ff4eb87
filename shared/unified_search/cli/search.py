"""``unified-search search`` and ``unified-search deep``: ask, then show cited references."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import click

from unified_search.cli.options import config_option, overrides, source_options

if TYPE_CHECKING:
    from unified_search.response import SearchResponse
    from unified_search.types import SearchType


@click.command()
@click.argument("query")
@source_options
@config_option
def search(query: str, **flags: Any) -> int:
    """Search web, knowledge base and databases at once and print cited references.

    \b
    Examples:
      unified-search search "return policy for headphones" --type kb --collection help
      unified-search search "wireless headphones under $100" --db sqlite:///shop.db --model products
      unified-search search "vector databases" --type web,kb --format json

    Exit codes: 0 all sources answered, 1 some source failed, 2 bad input.
    """  # noqa: D301 - click reads \b as "keep these lines"
    return _run(query, deep=False, **flags)


@click.command()
@click.argument("query")
@source_options
@config_option
def deep(query: str, **flags: Any) -> int:
    """Deep search: classify intent, expand into sub-queries, search every source, rank by intent.

    \b
    Example:
      unified-search deep "compare the Aurora and Studio Pro headphones" --type kb,db

    Exit codes: 0 all sources answered, 1 some source failed, 2 bad input.
    """  # noqa: D301 - click reads \b as "keep these lines"
    return _run(query, deep=True, **flags)


def _run(
    query: str,
    *,
    deep: bool,
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
    from unified_search.cli.console import stdout
    from unified_search.cli.render import show
    from unified_search.cli.runtime import asearch, chosen_types
    from unified_search.cli.settings import load_config

    flags = overrides(collections=collections, db_url=db_url, models=models, rerank=rerank)
    config = load_config(config_path, flags)
    kinds = chosen_types(config, types)
    # A deep search names its own reranker per request; an explicit --rerank replaces it.
    extra = {"rerank": {"uses": rerank}} if deep and rerank else {}
    response = asyncio.run(
        asearch(config, query, kinds, deep=deep, top_n=top_n, chat_id=chat_id, **extra)
    )
    console = stdout()
    if deep and output == "table":
        console.print(deep_summary(response), highlight=False, markup=False)
    show(console, response, output)
    return exit_code(response)


def deep_summary(response: SearchResponse) -> str:
    """What the deep search decided: the intent and the sub-queries it searched."""
    from unified_search.deep import deep_search_info

    info = deep_search_info(response)
    if info is None:
        return "deep search: no request finished"
    return f"intent: {info.intent.value}  sub-queries: {'; '.join(info.sub_queries)}"


def exit_code(response: SearchResponse) -> int:
    """0 when every source answered (even with nothing found), 1 when any source failed."""
    return 1 if response.status in ("partial", "failed") else 0
