"""``unified-search kb``: look after knowledge-base collections (list, remove, drop, check, copy)."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, TypeVar

import click
from rich.table import Table

from unified_search.cli.console import plain, stdout
from unified_search.cli.index import check_collection
from unified_search.cli.options import BadInput, config_option
from unified_search.cli.settings import load_config

if TYPE_CHECKING:
    from unified_search.kb.consistency import Consistency
    from unified_search.kb.handler import KBHandler

T = TypeVar("T")


@click.group()
def kb() -> None:
    """List, remove, drop, check and copy knowledge-base collections.

    \b
    Examples:
      unified-search kb list
      unified-search kb list kestrel-help
      unified-search kb remove faq-audio.md --collection kestrel-docs
      unified-search kb check kestrel-help --repair
      unified-search kb drop kestrel-docs --yes
    """  # noqa: D301 - click reads \b as "keep these lines"


def _with_kb(config_path: str | None, work: Callable[[KBHandler], Awaitable[T]]) -> T:
    """Open the configured knowledge base, run ``work`` on it, close it."""
    from unified_search.kb.handler import KBHandler

    async def run() -> T:
        handler = KBHandler.from_config(load_config(config_path))
        try:
            return await work(handler)
        finally:
            await handler.aclose()

    return asyncio.run(run())


@kb.command("list")
@click.argument("collection", required=False)
@config_option
def list_(collection: str | None, config_path: str | None) -> int:
    """List the collections, or the documents of COLLECTION with their chunks and files."""

    async def work(handler: KBHandler) -> Table:
        if collection is None:
            names = await handler.alist_collections()
            table = Table(
                "collection", "documents", "chunks", title="Collections", title_justify="left"
            )
            for name in names:
                docs = await handler.alist_documents(name)
                table.add_row(plain(name), str(len(docs)), str(sum(d.chunks for d in docs)))
            return table
        docs = await handler.alist_documents(collection)
        table = Table("document", "title", "chunks", title=plain(collection), title_justify="left")
        for doc in docs:
            table.add_row(plain(doc.id, line=True), plain(doc.title, line=True), str(doc.chunks))
        return table

    stdout().print(_with_kb(config_path, work))
    return 0


@kb.command()
@click.argument("paths", nargs=-1, required=True, metavar="PATH...")
@click.option(
    "--collection", required=True, callback=check_collection, help="Collection to change."
)
@config_option
def remove(paths: Sequence[str], collection: str, config_path: str | None) -> int:
    """Remove files or folders (on disk or as `kb list` names them) from a collection.

    Exit codes: 0 removed, 1 some paths matched nothing, 2 bad input.
    """
    removed = _with_kb(config_path, lambda h: h.aremove_paths(collection, paths))
    stdout().print(
        f"removed {removed.documents} documents ({removed.chunks} chunks) from {collection}",
        highlight=False,
        markup=False,
        soft_wrap=True,
    )
    for path in removed.unmatched:
        click.echo(f"warning: nothing indexed matches {path}", err=True)
    return 1 if removed.unmatched else 0


@kb.command()
@click.argument("collection")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@config_option
def drop(collection: str, yes: bool, config_path: str | None) -> int:
    """Delete COLLECTION: its vectors, lexical index and graph."""
    if not yes:
        if not sys.stdin.isatty():
            raise BadInput(f"dropping {collection!r} deletes it: pass --yes to confirm")
        click.confirm(f"Delete collection {collection!r} and everything indexed in it?", abort=True)
    _with_kb(config_path, lambda h: h.adrop_collection(collection))
    stdout().print(f"dropped {collection}", highlight=False, markup=False, soft_wrap=True)
    return 0


@kb.command()
@click.argument("collection")
@click.option("--repair", is_flag=True, help="Fix what the check finds.")
@config_option
def check(collection: str, repair: bool, config_path: str | None) -> int:
    """Check that Chroma and the lexical index of COLLECTION hold the same chunks.

    A run killed while indexing can leave chunks in Chroma that the lexical index
    does not know; --repair deletes them (and writes back chunks Chroma lost).
    Exit codes: 0 consistent (or repaired), 1 inconsistent.
    """
    found = _with_kb(config_path, lambda h: h.acheck(collection, fix=repair))
    stdout().print(consistency_line(found), highlight=False, markup=False, soft_wrap=True)
    return 0 if found.consistent or found.repaired else 1


@kb.command()
@click.argument("collection")
@click.option(
    "--to",
    "target_path",
    required=True,
    metavar="PATH",
    help="search.yml of the deployment to copy to (its kb.chroma_url and kb.store_url).",
)
@config_option
def copy(collection: str, target_path: str, config_path: str | None) -> int:
    """Copy COLLECTION to another deployment without embedding it again, then check both.

    Moves a collection from this machine to shared servers (or back): servers.yml sets
    kb.chroma_url and kb.store_url. Running it again continues an interrupted copy.
    Exit codes: 0 both sides consistent, 1 otherwise.

    \b
    Example:
      unified-search kb copy kestrel-help --to servers.yml
    """  # noqa: D301 - click reads \b as "keep these lines"
    from unified_search.kb.handler import KBHandler

    target_config = load_config(target_path)

    async def work(source: KBHandler) -> tuple[list[str], bool]:
        target = KBHandler.from_config(target_config, embedding=source.embedding)
        try:
            report = await source.acopy_to(collection, target)
            checked = [await source.acheck(collection), await target.acheck(collection)]
        finally:
            await target.aclose()
        lines = [
            f"copied {report.copied} of {report.chunks} chunks of {collection} "
            f"({report.chunks - report.copied} there already, {report.removed} removed)"
        ]
        sides = ("source", "target")
        lines += [f"{side} {consistency_line(c)}" for side, c in zip(sides, checked, strict=True)]
        return lines, all(c.consistent for c in checked)

    lines, consistent = _with_kb(config_path, work)
    for line in lines:
        stdout().print(line, highlight=False, markup=False, soft_wrap=True)
    return 0 if consistent else 1


def consistency_line(found: Consistency) -> str:
    """``help: 120 chunks, consistent`` or what differs (and whether it was repaired)."""
    head = f"{found.collection}: {found.chunks} chunks"
    unfinished = (
        "; a write began and has not finished (running, or killed: the next write or --repair "
        "completes it)"
        if found.unfinished and not found.repaired
        else ""
    )
    if found.consistent:
        return f"{head}, consistent{unfinished}"
    fixed = "repaired" if found.repaired else "run with --repair to fix"
    return (
        f"{head}; {len(found.only_in_chroma)} only in Chroma, "
        f"{len(found.only_in_side_store)} missing from Chroma ({fixed}){unfinished}"
    )
