"""Options shared by several commands, and how flags become configuration overrides."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import click

from unified_search.types import Intent, SearchType

F = TypeVar("F", bound=Callable[..., Any])

#: Output formats of the search commands.
FORMATS = ("table", "json", "xml", "markdown")
#: ``--freshness`` values: the search-layer design's codes and the time ranges they stand for.
FRESHNESS = {"pd": "day", "pw": "week", "pm": "month", "py": "year"}


class BadInput(click.ClickException):
    """Input the command cannot work with: exit code 2, one line on stderr."""

    exit_code = 2


def parse_types(
    ctx: click.Context, param: click.Parameter, value: str | None
) -> list[SearchType] | None:
    """Split ``web,kb,db`` into source types; an unknown one names the valid ones."""
    if value is None:
        return None
    names = [part.strip().lower() for part in value.split(",") if part.strip()]
    valid = [t.value for t in SearchType]
    unknown = [name for name in names if name not in valid]
    if unknown or not names:
        raise click.BadParameter(
            f"{', '.join(unknown) or 'nothing'} is not one of {', '.join(valid)}"
        )
    return [SearchType(name) for name in dict.fromkeys(names)]


def config_option(function: F) -> F:
    """Add ``--config PATH``."""
    return click.option(
        "--config",
        "config_path",
        metavar="PATH",
        help="search.yml to load (default: $UNIFIED_SEARCH_CONFIG); env vars and flags override it.",
    )(function)


def format_option(formats: Sequence[str], help: str) -> Callable[[F], F]:
    """Add ``--format`` (read as ``output``) choosing one of ``formats``; the first is the default."""
    return click.option(
        "--format",
        "output",
        type=click.Choice(list(formats)),
        default=formats[0],
        show_default=True,
        help=help,
    )


def source_options(function: F) -> F:
    """Add the options that choose and narrow sources."""
    decorators = [
        click.option(
            "--type",
            "types",
            metavar="TYPES",
            callback=parse_types,
            help="Sources to search, comma-separated: web,kb,db (default: every configured one).",
        ),
        click.option(
            "--collection",
            "collections",
            multiple=True,
            help="Knowledge-base collection to search (repeatable); sets kb.collections.",
        ),
        click.option(
            "--db",
            "db_url",
            metavar="URL",
            help="SQLAlchemy database URL, or the path of a SQLite file; sets db.url.",
        ),
        click.option(
            "--model",
            "models",
            multiple=True,
            help="Database table or view to search (repeatable); sets db.models.",
        ),
        click.option(
            "--rerank",
            metavar="NAME",
            help="Reranker (weighted, rrf, intent ...); sets uses.rerank.",
        ),
        click.option("--top-n", type=click.IntRange(1, 1000), help="How many references to keep."),
        format_option(
            FORMATS,
            "table: references and trace; json: the whole response; xml: the <references> "
            "block; markdown: a cited list.",
        ),
        click.option(
            "--chat-id",
            help="Conversation the search is stored under; its citation numbers carry on "
            "across the chat's searches (default: each search is a chat of its own).",
        ),
    ]
    for decorate in reversed(decorators):
        function = decorate(function)
    return function


def skill_options(function: F) -> F:
    """Add the search-layer design's options: ``--queries --intent --freshness --domain-boost --num``."""
    decorators = [
        click.option(
            "--queries",
            is_flag=True,
            help="Each QUERY argument is a query of its own (searched in parallel, ranked "
            "together; in deep and answer mode they are the sub-queries). Without it the "
            "arguments are one query.",
        ),
        click.option(
            "--intent",
            type=click.Choice([intent.value for intent in Intent]),
            help="The question's intent instead of the one its words signal: it sets the "
            "ranking weights (intent reranker), freshness, sub-queries and --mode auto's mode.",
        ),
        click.option(
            "--freshness",
            type=click.Choice([*FRESHNESS, *FRESHNESS.values()]),
            help="Only web pages from the past day (pd), week (pw), month (pm) or year (py).",
        ),
        click.option(
            "--domain-boost",
            metavar="DOMAINS",
            help="Comma-separated domains whose results rank higher (authority +0.2, intent "
            "reranker); sets rerank.intent.boost_domains.",
        ),
        click.option(
            "--num",
            type=click.IntRange(1, 100),
            help="Results asked of each source for each query (default: the source's "
            "configured maximum).",
        ),
    ]
    for decorate in reversed(decorators):
        function = decorate(function)
    return function


def overrides(
    *,
    collections: Sequence[str] = (),
    db_url: str | None = None,
    models: Sequence[str] = (),
    rerank: str | None = None,
    intent: str | None = None,
    domain_boost: str | None = None,
) -> dict[str, Any]:
    """The configuration keys set by the source flags (unset flags set nothing)."""
    layer: dict[str, Any] = {}
    if intent:
        layer["keyword"] = {"intent": intent}
    boosted = [d.strip().lower() for d in (domain_boost or "").split(",") if d.strip()]
    if boosted:
        layer["rerank"] = {"intent": {"boost_domains": boosted}}
    if collections:
        layer["kb"] = {"collections": list(collections)}
    db: dict[str, Any] = {}
    if db_url:
        db["url"] = db_url
    if models:
        db["models"] = list(models)
    if db:
        layer["db"] = db
    if rerank:
        layer["uses"] = {"rerank": rerank}
    return layer
