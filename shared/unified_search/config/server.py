"""Configuration of the HTTP API (the ``server`` section): request limits and who may call it.

The bearer token is not configuration: it is read from ``$UNIFIED_SEARCH_API_TOKEN``
so that it never lands in a ``search.yml`` (or in a record's stored configuration).
"""

from __future__ import annotations

import ipaddress

from pydantic import Field

from unified_search.config.section import Section

#: Environment variable holding the bearer token clients must send (``Authorization: Bearer …``).
TOKEN_ENV = "UNIFIED_SEARCH_API_TOKEN"
#: The shortest token ``serve`` accepts.
MIN_TOKEN_CHARS = 16
#: The ``Host`` names served by default: the loopback interface only.
LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "::1")


class ServerConfig(Section):
    """Limits and access control of ``unified-search serve``."""

    store_url: str | None = None
    """The search store every worker records searches and references into (a SQLAlchemy URL);
    ``None``: ``search.sqlite3`` in the data folder. Machines serving together share one
    PostgreSQL URL here, so a chat's numbering continues and its references resolve on any."""
    max_body_bytes: int = Field(default=64_000, ge=1024)
    """Largest request body accepted (bytes); a larger one is refused with 413."""
    max_query_chars: int = Field(default=2_000, ge=1)
    """Longest ``query`` accepted (characters); a longer one is refused with 422."""
    header_timeout: float = Field(default=10.0, gt=0, le=300)
    """Seconds a client may take to send its request line and headers, from the moment it
    connects (or from the first byte of its next request on a kept-alive connection); a
    client still sending gets 408 and is disconnected, however slowly it drips bytes."""
    body_timeout: float = Field(default=10.0, gt=0, le=300)
    """Seconds a client may take to send its request body; a stalled upload gets 408 (and the
    connection is closed a second later if the body was never read)."""
    max_connections: int = Field(default=1_000, ge=1)
    """Connections one worker process holds at once; one more is answered 503 and closed at
    once (keep it below the open-file limit, ``ulimit -n``)."""
    allowed_hosts: list[str] = Field(default_factory=lambda: list(LOOPBACK_HOSTS))
    """``Host`` names served (``*.example.com`` matches subdomains, ``*`` any); others get 400.
    Add the name clients use when serving beyond loopback."""
    cors_origins: list[str] = Field(default_factory=list)
    """Browser origins allowed to call the API cross-site (``https://app.example.com``);
    empty turns CORS off."""
    max_attachments: int = Field(default=20, ge=0, le=1000)
    """Most rows, documents and resources one search may attach (``attachments``)."""
    max_attachment_chars: int = Field(default=20_000, ge=1)
    """Longest attachment accepted: a document's text, a row's values written out, or a
    resource's text (characters)."""
    attach_mcp_servers: list[str] = Field(default_factory=list)
    """MCP servers (names under ``mcp:``) whose resources a request may attach; empty: none,
    since reading one runs that server's code for the caller."""


def is_loopback(host: str) -> bool:
    """Whether binding to ``host`` keeps the server on this machine.

    Example:
        >>> [is_loopback(h) for h in ("127.0.0.1", "localhost", "::1", "0.0.0.0", "10.0.0.5")]
        [True, True, True, False, False]
    """
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:  # a name: it may resolve to anything
        return False
