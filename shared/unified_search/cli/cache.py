"""``unified-search cache``: what the web cache holds, and emptying it."""

from __future__ import annotations

import asyncio
import json

import click

from unified_search.cli.console import stdout
from unified_search.cli.options import config_option, format_option


@click.group()
def cache() -> None:
    """Show the web cache's statistics, or empty it.

    Provider answers are kept for web.cache.ttl seconds, by default in
    web-cache.sqlite3 in $UNIFIED_SEARCH_HOME, so they survive restarts and are
    shared by every process of the machine (web.cache.backend: memory keeps them
    in one process, redis shares them between machines).

    \b
    Examples:
      unified-search cache stats
      unified-search cache clear
    """  # noqa: D301 - click reads \b as "keep these lines"


@cache.command()
@format_option(("table", "json"), "table: one line per figure; json: the statistics as an object.")
@config_option
def stats(output: str, config_path: str | None) -> int:
    """Show what the web cache holds and how often it answered."""
    from unified_search.cli.settings import load_config
    from unified_search.web.cache import acache_stats

    figures = asyncio.run(acache_stats(load_config(config_path)))
    console = stdout()
    if output == "json":
        console.print_json(json.dumps(figures.model_dump(mode="json")))
        return 0
    rate = "–" if figures.hit_rate is None else f"{figures.hit_rate:.0%}"
    lines = [
        f"backend: {figures.backend}" + (f" ({figures.location})" if figures.location else ""),
        f"entries: {figures.entries} of {figures.max_entries}, fresh for {figures.ttl:g} s",
        f"hits: {figures.hits}  misses: {figures.misses}  hit rate: {rate}",
    ]
    if figures.backend == "memory":
        lines.append("(a memory cache lives in one process: this one is new and empty)")
    console.print("\n".join(lines), highlight=False, markup=False)
    return 0


@cache.command()
@config_option
def clear(config_path: str | None) -> int:
    """Empty the web cache: every stored answer and the hit and miss counts."""
    from unified_search.cli.settings import load_config
    from unified_search.web.cache import aclear_cache

    dropped = asyncio.run(aclear_cache(load_config(config_path)))
    stdout().print(f"cleared {dropped} cached answer(s)", highlight=False)
    return 0
