"""``unified-search serve``: the HTTP API of :mod:`unified_search.server.app` under uvicorn.

Each worker process builds its own app with ``worker_app`` (uvicorn calls the
factory in the worker), over the configuration named by
``$UNIFIED_SEARCH_CONFIG`` and the record store it names (``server.store_url``,
default the one of ``$UNIFIED_SEARCH_HOME``): every worker records into that one
store, so any of them resolves the
citations another has shown, and citation numbering continues across them.

Bound beyond loopback, the API requires a bearer token: ``serve`` refuses to
start unless ``$UNIFIED_SEARCH_API_TOKEN`` holds one (the workers inherit it).
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

import click

from unified_search._optional import MissingDependencyError, require
from unified_search.cli.options import BadInput, config_option
from unified_search.cli.settings import load_config
from unified_search.config.search import CONFIG_ENV
from unified_search.config.server import MIN_TOKEN_CHARS, TOKEN_ENV, is_loopback

if TYPE_CHECKING:
    from starlette.applications import Starlette

#: The import string uvicorn builds each worker's application from.
APP_FACTORY = "unified_search.cli.serve:worker_app"
#: The HTTP protocol of every worker: uvicorn's, with the ``server`` section's deadlines on
#: what clients send and its cap on connections (read from the configuration in the worker).
PROTOCOL = "unified_search.server.deadlines:DeadlineProtocol"


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to listen on.")
@click.option(
    "--port", type=click.IntRange(1, 65535), default=8000, show_default=True, help="TCP port."
)
@click.option(
    "--workers",
    type=click.IntRange(1, 64),
    default=1,
    show_default=True,
    help="Worker processes; they share the search store.",
)
@config_option
def serve(host: str, port: int, workers: int, config_path: str | None) -> int:
    """Serve the search API for front ends (needs the server extra).

    \b
    Routes:
      POST /api/search   {"query", "types", "collections", "models", "top_n", "mode",
                          "chat_id", "request_id", "uses", "attachments", "search"}
      GET  /api/chat/{chat_id}/request/{request_id}/references
      GET  /api/chat/{chat_id}/request/{request_id}/reference/{index}
      GET  /api/chat/{chat_id}/searches?source=kb&limit=20
      GET  /api/cache    (DELETE empties it)

    Searches are recorded in the search store, so every answer's citations can be
    looked up again by request ID and index, from any worker.

    \b
    Access: clients send "Authorization: Bearer $UNIFIED_SEARCH_API_TOKEN" when that
    variable is set; it must be set to serve beyond loopback (--host 0.0.0.0).
    Limits (body size, header and body deadlines, connections per worker), allowed
    Host names and CORS origins: the server section of search.yml.
    """  # noqa: D301 - click reads \b as "keep these lines"
    try:
        uvicorn = require("uvicorn", extra="server", purpose="serve")
        require("starlette", extra="server", purpose="serve")
        require("httptools", extra="server", purpose="serve")
    except MissingDependencyError as exc:
        raise BadInput(str(exc)) from exc
    load_config(config_path)  # a bad file stops here, before any worker starts
    check_token(host, os.environ.get(TOKEN_ENV))
    if config_path is not None:
        os.environ[CONFIG_ENV] = os.path.abspath(config_path)  # the workers read it from there
    uvicorn.run(APP_FACTORY, factory=True, host=host, port=port, workers=workers, http=PROTOCOL)
    return 0


def check_token(host: str, token: str | None) -> None:
    """Refuse to serve beyond loopback without a token, and any token too short to guess at."""
    if token is None or not token.strip():
        if is_loopback(host):
            return
        raise BadInput(
            f"serving on {host} needs a bearer token: set {TOKEN_ENV} to a secret of at least "
            f"{MIN_TOKEN_CHARS} characters (clients send 'Authorization: Bearer <token>')"
        )
    if len(token.strip()) < MIN_TOKEN_CHARS:
        raise BadInput(f"{TOKEN_ENV} is too short: use at least {MIN_TOKEN_CHARS} characters")


def worker_app() -> Starlette:
    """Build one worker's application: its engine, recording into the shared store.

    The engine and the store are closed when the worker shuts down, after the
    queued records are written.
    """
    from unified_search.engine.searcher import Searcher
    from unified_search.records.store import SearchStore
    from unified_search.server.app import create_app

    config = load_config(None)
    store = SearchStore(config.server.store_url)
    searcher = Searcher(config, store=store)
    app = create_app(searcher, store, token=os.environ.get(TOKEN_ENV, "").strip() or None)

    @asynccontextmanager
    async def lifespan(_app: Any) -> AsyncIterator[None]:
        try:
            yield
        finally:
            await searcher.aclose()

    app.router.lifespan_context = lifespan
    return app
