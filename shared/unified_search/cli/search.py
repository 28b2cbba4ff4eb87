"""``unified-search search`` and ``unified-search deep``: ask, then show cited references."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import click

from unified_search.cli.options import config_option, overrides, source_options

if TYPE_CHECKING:
    from unified_search.contract.response import SearchResponse
    from unified_search.types import SearchType

#: The query modes, as ``--mode`` accepts them (see ``unified_search.policy.modes``).
MODES = ("fast", "deep", "answer")


@click.command()
@click.argument("query")
@click.option(
    "--mode",
    type=click.Choice(MODES),
    help="fast: each source once, one web provider; deep: sub-queries, every web provider, "
    "intent ranking; answer: deep plus answer instructions for the model (default: the "
    "query as typed on every source).",
)
@source_options
@config_option
def search(query: str, mode: str | None, **flags: Any) -> int:
    """Search web, knowledge base and databases at once and print cited references.

    \b
    Examples:
      unified-search search "return policy for headphones" --type kb --collection help
      unified-search search "wireless headphones under $100" --db sqlite:///shop.db --model products
      unified-search search "vector databases" --type web,kb --format json
      unified-search search "Rust 异步编程" --type web --mode answer

    Exit codes: 0 all sources answered, 1 some source failed, 2 bad input.
    """  # noqa: D301 - click reads \b as "keep these lines"
    return _run(query, mode=mode, **flags)


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
    return _run(query, mode="deep", **flags)


def _run(
    query: str,
    *,
    mode: str | None,
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

    flags = overrides(collections=collections, db_url=db_url, models=models, rerank=rerank)
    config = load_config(config_path, flags)
    kinds = chosen_types(config, types)
    chosen = QueryMode(mode) if mode else None
    # Deep and answer searches name their own reranker per request; --rerank replaces it.
    response = asyncio.run(
        asearch(config, query, kinds, mode=chosen, rerank=rerank, top_n=top_n, chat_id=chat_id)
    )
    console = stdout()
    expanded = chosen in (QueryMode.DEEP, QueryMode.ANSWER)
    if expanded and output == "table":
        console.print(plain(deep_summary(response)), highlight=False)
    show(console, response, output)
    if chosen is QueryMode.ANSWER and output == "table":
        console.print(plain(response.context.prompt), highlight=False, soft_wrap=True)
    return exit_code(response)


def deep_summary(response: SearchResponse) -> str:
    """What the deep search decided: the intent and the sub-queries it searched."""
    from unified_search.policy.deep import deep_search_info

    info = deep_search_info(response)
    if info is None:
        return "deep search: no request finished"
    return f"intent: {info.intent.value}  sub-queries: {'; '.join(info.sub_queries)}"


def exit_code(response: SearchResponse) -> int:
    """0 when every source answered (even with nothing found), 1 when any source failed."""
    return 1 if response.status in ("partial", "failed") else 0
