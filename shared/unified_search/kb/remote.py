"""A Chroma server client whose every call is bounded in time, and its failures coded.

chromadb's HTTP client waits forever (its httpx session has no timeout) and
already calls the server in its constructor, to learn the tenant: a server that
accepts connections and never answers would hold the caller, and the worker
thread it runs in, indefinitely. chromadb offers no setting for this, so the
client here gives the session its timeouts just before that first call. This
module imports chromadb: only ``kb.store.make_client`` imports it, once the
``kb`` extra is known to be installed.
"""

from __future__ import annotations

from typing import Any

import httpx
from chromadb.api.client import Client
from chromadb.config import Settings


class BoundedClient(Client):
    """chromadb's ``Client`` over HTTP whose requests time out after ``timeout`` seconds."""

    def __init__(self, settings: Settings, timeout: float) -> None:
        self._timeout = httpx.Timeout(timeout)
        super().__init__(settings=settings)

    def get_user_identity(self) -> Any:
        """Ask the server who we are, with the session bounded (the constructor's first call).

        chromadb turns a failed connection into a ``ValueError`` here; the transport
        error is kept instead, so that ``unreachable`` can code it.
        """
        self._server._session.timeout = self._timeout  # type: ignore[attr-defined]
        return self._server.get_user_identity()


def bounded_client(host: str, port: int, *, ssl: bool, timeout: float) -> Client:
    """Connect to the Chroma server at ``host:port`` (what ``chromadb.HttpClient`` does, bounded)."""
    settings = Settings(
        anonymized_telemetry=False,
        chroma_api_impl="chromadb.api.fastapi.FastAPI",
        chroma_server_host=host,
        chroma_server_http_port=port,
        chroma_server_ssl_enabled=ssl,
    )
    return BoundedClient(settings, timeout)
