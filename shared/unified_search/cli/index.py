"""``unified-search index``: put files into a knowledge-base collection, with a progress bar."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from unified_search.cli.console import stderr, stdout, warn
from unified_search.cli.loaders import describe, load_paths
from unified_search.cli.options import BadInput, config_option
from unified_search.cli.settings import load_config

if TYPE_CHECKING:
    from unified_search.config import SearchConfig
    from unified_search.kb.handler import KBHandler
    from unified_search.kb.ingest import IngestReport

# Chroma's rule for collection names, checked here so the error is about the flag.
_COLLECTION = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{1,61}[A-Za-z0-9]")


def check_collection(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """Accept only names Chroma can store (3-63 letters, digits, ``.``, ``_``, ``-``)."""
    if _COLLECTION.fullmatch(value) is None:
        raise click.BadParameter(
            f"{value!r} is not a collection name (3-63 letters, digits, '.', '_' or '-', "
            "starting and ending with a letter or digit)"
        )
    return value


@click.command()
@click.argument("paths", nargs=-1, required=True, metavar="PATH...")
@click.option(
    "--collection", required=True, callback=check_collection, help="Collection to index into."
)
@config_option
def index(paths: Sequence[str], collection: str, config_path: str | None) -> int:
    """Index files and folders into a knowledge-base collection.

    Reads .md, .markdown, .txt, .html/.htm, .jsonl (one {"text", "title", "id"} object per
    line) and .pdf (when pypdf is installed); folders are read recursively. Running it
    again only embeds what changed. Missing or unreadable files are skipped with a
    warning and counted; everything else is still indexed.

    \b
    Example:
      unified-search index docs/ notes.md --collection help

    Exit codes: 0 everything indexed, 1 some files skipped, 2 nothing readable.
    """  # noqa: D301 - click reads \b as "keep these lines"
    config = load_config(config_path)
    loaded = load_paths(paths)
    for line in describe(loaded.skipped):
        warn(line)
    if not loaded.documents:
        raise BadInput(f"nothing to index: {len(loaded.skipped)} path(s) skipped, 0 documents read")
    started = time.perf_counter()
    report = asyncio.run(_index(config, collection, loaded.documents))
    for line in describe((str(s.document_id or s.index), s.reason) for s in report.skipped):
        warn(line)
    skipped = len(loaded.skipped) + len(report.skipped)
    stdout().print(summary(report, skipped, time.perf_counter() - started), highlight=False)
    return 1 if skipped else 0


async def _index(
    config: SearchConfig, collection: str, documents: Sequence[Mapping[str, Any]]
) -> IngestReport:
    from unified_search.kb.handler import KBHandler

    kb = KBHandler.from_config(config)
    try:
        return await add_with_progress(kb, collection, documents)
    finally:
        await kb.aclose()


async def add_with_progress(
    kb: KBHandler, collection: str, documents: Sequence[Mapping[str, Any]]
) -> IngestReport:
    """Index ``documents`` into ``collection`` while a progress bar counts embedded chunks."""
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn())
    with Progress(*columns, TimeElapsedColumn(), console=stderr(), transient=True) as bar:
        task = bar.add_task(f"embedding into {collection}", total=None)

        def advance(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        return await kb.aadd_documents(collection, documents, progress=advance)


def summary(report: IngestReport, skipped: int, seconds: float) -> str:
    """One line: what changed in the collection, and how long it took."""
    return (
        f"indexed {report.collection}: {report.added} added or changed, "
        f"{report.unchanged} unchanged, {skipped} skipped "
        f"({report.chunks_added} chunks embedded, {report.chunks_removed} removed) "
        f"in {seconds:.1f} s"
    )
