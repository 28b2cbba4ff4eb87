"""``unified-search demo``: the whole job on embedded defaults, with no account and no network.

It indexes the bundled help centre into embedded Chroma as the collection
``kestrel-help`` (only what changed: the second run embeds nothing), writes the
sample shop database (``demo/shop.db`` in the data folder) and a copy of the help
centre's Markdown files (``demo/docs``) once, asks one question of both (and of
the web when a provider key or ``SEARXNG_URL`` is set), records the search, and
prints the cited references, the trace, the ``<references>`` block a model would
receive and the commands to try next on the same data.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import click
from rich.console import Console

from unified_search.cli.console import stdout
from unified_search.cli.index import add_with_progress, summary
from unified_search.cli.options import config_option
from unified_search.cli.render import show_table
from unified_search.cli.runtime import arun_search, open_searcher
from unified_search.cli.search import exit_code
from unified_search.cli.settings import load_config
from unified_search.config.search import SearchConfig
from unified_search.contract.response import SearchResponse
from unified_search.paths import data_home
from unified_search.samples.knowledge import SAMPLE_COLLECTION, sample_documents
from unified_search.types import SearchType

#: The question the demo asks when given none: the documents and the catalogue both answer it.
DEMO_QUESTION = "wireless headphones under $100 with noise cancelling"
#: References the demo keeps, so the printed context stays readable.
DEMO_TOP_N = 6


@click.command()
@click.argument("question", required=False, default=DEMO_QUESTION)
@config_option
def demo(question: str, config_path: str | None) -> int:
    """Index the sample help centre, build the sample shop database and ask them one question.

    Runs offline on embedded defaults: Chroma and the search records live in
    $UNIFIED_SEARCH_HOME (default ~/.local/share/unified-search). Web results are
    added when a provider key (TAVILY_API_KEY, BRAVE_API_KEY ...) or SEARXNG_URL is set.
    A second run reuses the index.

    \b
    Examples:
      unified-search demo
      unified-search demo "how do I return opened earbuds?"
    """  # noqa: D301 - click reads \b as "keep these lines"
    home = data_home()
    config = load_config(config_path, demo_layer(home))
    console = stdout()
    response = asyncio.run(run_demo(config, question, console, home / "demo" / "shop.db"))
    docs = ensure_docs(home / "demo" / "docs")
    console.print(next_steps(response.request_id, home / "demo" / "shop.db", docs), highlight=False)
    return exit_code(response)


def next_steps(request_id: str, database: Path, docs: Path) -> str:
    """The record of this run, and commands to try on the demo's data (real paths)."""
    return (
        f"\nrequest id: {request_id}\n"
        f"show the stored record again with: unified-search records {request_id}\n\n"
        "try next on the same data:\n"
        f'  unified-search search "how do I pair the Aurora headphones?" '
        f"--collection {SAMPLE_COLLECTION}\n"
        f"  unified-search search 'wireless headphones under $100' --db {database} "
        "--model products\n"
        f"  unified-search index {docs} --collection kestrel-docs"
    )


def ensure_docs(folder: Path) -> Path:
    """Copy the help centre's Markdown files to ``folder`` once, to index and edit by hand."""
    from unified_search.samples.knowledge import documents_folder

    if not folder.exists():
        folder.mkdir(parents=True)
        for entry in documents_folder().iterdir():
            if entry.name.endswith(".md"):
                (folder / entry.name).write_text(entry.read_text(encoding="utf-8"), "utf-8")
    return folder


def demo_layer(home: Path) -> dict[str, Any]:
    """The configuration keys the demo sets over the user's: the sample collection and database."""
    database = home / "demo" / "shop.db"
    return {"kb": {"collections": [SAMPLE_COLLECTION]}, "db": {"url": f"sqlite:///{database}"}}


async def run_demo(
    config: SearchConfig, question: str, console: Console, database: Path
) -> SearchResponse:
    """Index, build the database, search, and print each step with its timing."""
    from unified_search.kb.handler import KBHandler

    kb = KBHandler.from_config(config)
    searcher = open_searcher(config)
    searcher.register(SearchType.KB, kb)  # one embedding model for indexing and searching
    async with searcher:
        console.rule("1. Knowledge base: the bundled help centre → embedded Chroma")
        started = time.perf_counter()
        report = await add_with_progress(kb, SAMPLE_COLLECTION, sample_documents())
        console.print(summary(report, len(report.skipped), time.perf_counter() - started))
        console.rule("2. Database: the sample shop (products, customers, orders)")
        console.print(await asyncio.to_thread(ensure_database, database), highlight=False)
        types = [SearchType.KB, SearchType.DB]
        types += [SearchType.WEB] if config.web.providers else []
        console.rule(f"3. Search {' + '.join(t.value for t in types)}: {question}")
        response = await arun_search(searcher, question, types, top_n=DEMO_TOP_N)
        show_table(console, response)
        console.rule("4. The <references> context a model receives")
        console.print(response.context.xml, markup=False, highlight=False, soft_wrap=True)
        return response


def ensure_database(path: Path) -> str:
    """Write the sample shop database unless it exists; say which happened."""
    from unified_search.samples.shop import build_shop_database

    if path.exists():
        return f"reusing {path}"
    path.parent.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    build_shop_database(path)
    return f"created {path} in {time.perf_counter() - started:.2f} s"
