"""``unified-search serve``: the HTTP API of :mod:`unified_search.server` under uvicorn."""

from __future__ import annotations

import click

from unified_search._optional import MissingDependencyError, require
from unified_search.cli.options import BadInput, config_option
from unified_search.cli.settings import load_config


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to listen on.")
@click.option(
    "--port", type=click.IntRange(1, 65535), default=8000, show_default=True, help="TCP port."
)
@config_option
def serve(host: str, port: int, config_path: str | None) -> int:
    """Serve the search API for front ends (needs the server extra).

    \b
    Routes:
      POST /api/search   {"query", "types", "collections", "models", "top_n", "chat_id"}
      GET  /api/chat/{chat_id}/request/{request_id}/references
      GET  /api/chat/{chat_id}/request/{request_id}/reference/{index}

    Searches are recorded in the search store, so every answer's citations can be
    looked up again by request ID and index.
    """  # noqa: D301 - click reads \b as "keep these lines"
    try:
        uvicorn = require("uvicorn", extra="server", purpose="serve")
        require("starlette", extra="server", purpose="serve")
    except MissingDependencyError as exc:
        raise BadInput(str(exc)) from exc
    from unified_search.searcher import Searcher
    from unified_search.server import create_app
    from unified_search.store import SearchStore

    store = SearchStore()
    searcher = Searcher(load_config(config_path), store=store)
    try:
        uvicorn.run(create_app(searcher, store), host=host, port=port)
    finally:
        searcher.close()
    return 0
