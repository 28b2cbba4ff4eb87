"""Deadlines on what a client sends, and a cap on connections, below the application.

uvicorn bounds neither the time a client takes to send its request headers (its
keep-alive timer starts after a response, and every byte received restarts it) nor
how many connections it holds: connections that never finish their headers stay
open for as long as the client keeps them, and one header byte every few seconds
keeps one open indefinitely. An ASGI middleware cannot help: the application is
called once the headers are in. Hypercorn's ``read_timeout`` restarts with every
read too. So the HTTP protocol itself keeps the deadlines: ``DeadlineProtocol`` is
uvicorn's httptools protocol with

* ``server.header_timeout`` from the moment a client connects (or from the first
  byte of its next request on a kept-alive connection) to the end of the headers:
  past it the client gets a JSON 408 naming ``headers`` and is disconnected;
* ``server.body_timeout`` to the end of the body: the application answers 408 when
  it reads the body (``unified_search.server.guard``); a body nobody reads is cut
  off a second later, with the connection;
* ``server.max_connections`` per worker process: one more connection is answered
  503 and closed at once.

Run it with ``uvicorn.run(app, http=deadline_protocol(settings))``, or name
``unified_search.server.deadlines:DeadlineProtocol`` (what ``unified-search serve``
does) to take the settings of the configuration file (``$UNIFIED_SEARCH_CONFIG``).
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
from http import HTTPStatus
from typing import Any, ClassVar, Literal

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from unified_search.config.search import SearchConfig
from unified_search.config.server import ServerConfig

logger = logging.getLogger(__name__)

#: Seconds a body may take beyond ``server.body_timeout`` before its connection is cut:
#: the application's own 408 at that deadline comes first.
BODY_GRACE = 1.0
Phase = Literal["headers", "body", "idle"]


@functools.cache
def configured() -> ServerConfig:
    """The ``server`` section of this process's configuration file (read once)."""
    return SearchConfig.load().server


class DeadlineProtocol(HttpToolsProtocol):
    """uvicorn's HTTP/1.1 protocol, with the deadlines and the cap of the ``server`` section."""

    settings: ClassVar[ServerConfig | None] = None
    """The limits; ``None`` reads them from the configuration file (:func:`configured`)."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Count the connection, and start the clock on its first request's headers."""
        super().connection_made(transport)
        self._limits = self.settings or configured()
        self._timer: asyncio.TimerHandle | None = None
        self._phase: Phase = "idle"
        if len(self.connections) > self._limits.max_connections:
            limit = self._limits.max_connections
            message = f"more than {limit} connections are open (server.max_connections)"
            self._refuse(HTTPStatus.SERVICE_UNAVAILABLE, "connection", message)
            return
        self._expect("headers")

    def on_message_begin(self) -> None:
        """A kept-alive connection's next request: its headers have their own deadline."""
        super().on_message_begin()
        if self._phase == "idle":
            self._expect("headers")

    def on_headers_complete(self) -> None:
        """The headers are in: the body's deadline starts."""
        super().on_headers_complete()
        self._expect("body")

    def on_message_complete(self) -> None:
        """The request is in: no deadline until the next one starts."""
        super().on_message_complete()
        self._stop_clock()
        self._phase = "idle"

    def connection_lost(self, exc: Exception | None) -> None:
        """Stop the clock of a connection that is gone."""
        self._stop_clock()
        super().connection_lost(exc)

    def _expect(self, phase: Phase) -> None:
        self._stop_clock()
        self._phase = phase
        seconds = (
            self._limits.header_timeout
            if phase == "headers"
            else self._limits.body_timeout + BODY_GRACE
        )
        self._timer = self.loop.call_later(seconds, self._expired)

    def _stop_clock(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _expired(self) -> None:
        self._timer = None
        client = f"{self.client[0]}:{self.client[1]}" if self.client else "a client"
        if self._phase == "headers":
            logger.warning("%s did not send its request headers in time: closed", client)
            seconds = f"{self._limits.header_timeout:g}"
            message = f"not received within {seconds} s (server.header_timeout)"
            self._refuse(HTTPStatus.REQUEST_TIMEOUT, "headers", message)
        elif self._phase == "body":
            logger.warning("%s did not send its request body in time: closed", client)
            self.transport.close()

    def _refuse(self, status: HTTPStatus, field: str, message: str) -> None:
        """Answer ``status`` with the JSON of every refusal of the API, and close."""
        body = json.dumps({"detail": [{"field": field, "message": message}]}).encode()
        head: list[Any] = [f"HTTP/1.1 {status.value} {status.phrase}\r\n".encode()]
        for name, value in self.server_state.default_headers:
            head += [name, b": ", value, b"\r\n"]
        head.append(
            b"content-type: application/json\r\n"
            + f"content-length: {len(body)}\r\n".encode()
            + b"connection: close\r\n\r\n"
        )
        self.transport.write(b"".join(head) + body)
        self.transport.close()


def deadline_protocol(settings: ServerConfig) -> type[DeadlineProtocol]:
    """A ``DeadlineProtocol`` class with ``settings``, for a server run in this process."""
    return type("DeadlineProtocol", (DeadlineProtocol,), {"settings": settings})
