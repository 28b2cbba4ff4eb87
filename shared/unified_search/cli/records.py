"""``unified-search records``: show what the store kept about a request, a chat or a source."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click
from rich.table import Table

from unified_search.cli.console import plain, print_json, stdout
from unified_search.cli.options import BadInput, format_option
from unified_search.cli.render import error_line, references_table

if TYPE_CHECKING:
    from unified_search.records.model import SearchRecord


#: What ``--source`` accepts: who asked, or the kind of source searched.
SOURCES = ("user", "hook", "auto", "web", "kb", "db")


@click.command()
@click.argument("request_id", required=False)
@click.option("--chat", "chat_id", metavar="ID", help="Only the searches of this conversation.")
@click.option(
    "--source",
    type=click.Choice(SOURCES),
    help="Only searches by who asked (user, hook, auto) or by source (web, kb, db).",
)
@click.option(
    "--limit",
    type=click.IntRange(1, 10_000),
    default=100,
    show_default=True,
    help="At most this many of the latest searches (with --chat, --source or --dropped).",
)
@click.option(
    "--dropped",
    is_flag=True,
    help="The searches whose records were given up on (not stored), and how many in all.",
)
@format_option(("table", "json"), "table: searches and references; json: the stored records.")
def records(
    request_id: str | None,
    chat_id: str | None,
    source: str | None,
    limit: int,
    dropped: bool,
    output: str,
) -> int:
    """Show the stored searches and cited references of REQUEST_ID, or of a chat or a source.

    Every search, deep search and demo run is recorded in the search store
    (search.sqlite3 in $UNIFIED_SEARCH_HOME); the request ID is printed after each.

    A record the store finally gave up on (its disk full or read-only when the
    process closed, or the record failing on its own) is logged with its request ID
    and listed by --dropped.

    \b
    Examples:
      unified-search records --source kb --limit 5
      unified-search records --source db --format json
      unified-search records --dropped
    """  # noqa: D301 - click reads \b as "keep these lines"
    from unified_search.records.store import SearchStore

    if dropped:
        return show_dropped(limit, output)
    if request_id is None and chat_id is None and source is None:
        raise BadInput("give a REQUEST_ID, --chat ID, --source SOURCE or --dropped")
    with SearchStore() as store:
        if request_id is not None:
            found = store.get_searches(request_id)
            references = store.get_references(request_id) if found else []
        else:
            found = store.find_searches(chat_id=chat_id, source=source, limit=limit)
            references = [ref for record in found for ref in record.references]
    if request_id is not None:
        found = [r for r in found if _matches(r, chat_id, source)]
    if not found:
        raise BadInput(_nothing_found(request_id, chat_id, source))
    console = stdout()
    if output == "json":
        print_json(console, [r.model_dump(mode="json") for r in found])
        return 0
    console.print(searches_table(found))
    title = f"References of {request_id}" if request_id else "References"
    console.print(references_table(references, title=title))
    return 0


def _matches(record: SearchRecord, chat_id: str | None, source: str | None) -> bool:
    in_chat = chat_id is None or record.chat_id == chat_id
    return in_chat and source in (None, record.source.value, record.type.value)


def _nothing_found(request_id: str | None, chat_id: str | None, source: str | None) -> str:
    parts = [f"request id {request_id!r}" if request_id else ""]
    parts += [f"chat {chat_id!r}" if chat_id else "", f"source {source!r}" if source else ""]
    return "no stored search has " + " and ".join(part for part in parts if part)


def show_dropped(limit: int, output: str) -> int:
    """Print how many searches were dropped in all, and the latest ``limit`` of them."""
    from unified_search.records.store import SearchStore

    with SearchStore() as store:
        total, latest = store.dropped_searches(limit)
    console = stdout()
    if output == "json":
        print_json(
            console,
            {"dropped_total": total, "dropped": [d.model_dump(mode="json") for d in latest]},
        )
        return 0
    table = Table(title=f"Dropped searches: {total} in all", title_justify="left")
    for column in ("request", "when", "code", "why"):
        table.add_column(column, overflow="fold")
    for drop in latest:
        when = drop.dropped_at.strftime("%Y-%m-%d %H:%M:%S")
        table.add_row(plain(drop.request_id), when, drop.code.value, plain(drop.message, line=True))
    console.print(table)
    return 0


def searches_table(found: list[SearchRecord]) -> Table:
    """One row per stored search of a request; what a client sent is shown as inert text."""
    table = Table(title="Searches", title_justify="left")
    for column in ("request", "type", "source", "query", "chat", "refs", "ms", "when", "error"):
        table.add_column(column, overflow="fold")
    for record in found:
        table.add_row(
            plain(record.request_id),
            record.type.value,
            record.source.value,
            plain(record.query, line=True),
            plain(record.chat_id),
            str(len(record.references)),
            f"{record.duration_ms:.0f}",
            record.created_at.strftime("%Y-%m-%d %H:%M:%S"),
            plain(error_line(record.error) if record.error else ""),
        )
    return table
