"""``unified-search records``: show what the store kept about a request."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import click
from rich.table import Table

from unified_search.cli.console import stdout
from unified_search.cli.options import BadInput
from unified_search.cli.render import error_line, references_table

if TYPE_CHECKING:
    from unified_search.records import SearchRecord


@click.command()
@click.argument("request_id")
@click.option(
    "--format",
    "output",
    type=click.Choice(["table", "json"]),
    default="table",
    show_default=True,
    help="table: searches and references; json: the stored records.",
)
def records(request_id: str, output: str) -> int:
    """Show the stored searches and cited references of REQUEST_ID.

    Every search, deep search and demo run is recorded in the search store
    (search.sqlite3 in $UNIFIED_SEARCH_HOME); the request ID is printed after each.

    \b
    Example:
      unified-search records 3f2c9a0e8b7d4c1fa6e5d4c3b2a19080
    """  # noqa: D301 - click reads \b as "keep these lines"
    from unified_search.store import SearchStore

    with SearchStore() as store:
        found = store.get_searches(request_id)
        references = store.get_references(request_id) if found else []
    if not found:
        raise BadInput(f"no stored search has request id {request_id!r}")
    console = stdout()
    if output == "json":
        console.print_json(json.dumps([r.model_dump(mode="json") for r in found]))
        return 0
    console.print(searches_table(found))
    console.print(references_table(references, title=f"References of {request_id}"))
    return 0


def searches_table(found: list[SearchRecord]) -> Table:
    """One row per stored search of a request."""
    table = Table(title="Searches", title_justify="left")
    for column in ("type", "query", "chat", "refs", "ms", "when", "error"):
        table.add_column(column, overflow="fold")
    for record in found:
        table.add_row(
            record.type.value,
            record.query,
            record.chat_id or "",
            str(len(record.references)),
            f"{record.duration_ms:.0f}",
            record.created_at.strftime("%Y-%m-%d %H:%M:%S"),
            error_line(record.error) if record.error else "",
        )
    return table
