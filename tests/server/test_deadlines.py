"""Clients that stall get a deadline and are disconnected; the others are served meanwhile."""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from unified_search.config.server import ServerConfig
from unified_search.server.deadlines import deadline_protocol

LIMITS = ServerConfig(header_timeout=1.0, body_timeout=1.0, max_connections=8)
#: How long a test waits for the server to close a connection before it fails.
PATIENCE = 15.0


async def hello(_request: Request) -> JSONResponse:
    return JSONResponse({"hello": "world"})


@pytest.fixture
def port() -> Iterator[int]:
    """A uvicorn server in a thread, with the deadline protocol and ``LIMITS``."""
    app = Starlette(routes=[Route("/hello", hello)])
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        free = int(probe.getsockname()[1])
    config = uvicorn.Config(
        app, port=free, http=deadline_protocol(LIMITS), log_level="error", lifespan="off"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.05)
    yield free
    server.should_exit = True
    thread.join(30)


def connect(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=PATIENCE)
    return sock


def until_closed(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection (fails if it never does)."""
    received = b""
    while chunk := sock.recv(65536):
        received += chunk
    return received


def problem(answer: bytes) -> dict[str, Any]:
    head, _, body = answer.partition(b"\r\n\r\n")
    assert b"connection: close" in head.lower()
    detail: dict[str, Any] = json.loads(body)["detail"][0]
    return detail


def get(port: int) -> httpx.Response:
    return httpx.get(f"http://127.0.0.1:{port}/hello", timeout=PATIENCE)


def test_a_client_that_sends_nothing_gets_408_and_is_disconnected(port: int) -> None:
    with connect(port) as silent:
        answer = until_closed(silent)
    assert answer.startswith(b"HTTP/1.1 408 Request Timeout\r\n")
    assert problem(answer) == {
        "field": "headers",
        "message": "not received within 1 s (server.header_timeout)",
    }


def test_dripping_header_bytes_does_not_keep_a_connection(port: int) -> None:
    request = b"GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 1000
    with connect(port) as dripping:
        sent = 0
        with contextlib.suppress(OSError):  # the server hangs up in the middle
            for byte in request:
                dripping.sendall(bytes([byte]))
                sent += 1
                time.sleep(0.05)
        answer = until_closed(dripping)
    assert sent < len(request)  # cut off while it kept sending
    assert answer.startswith(b"HTTP/1.1 408 ") and problem(answer)["field"] == "headers"


def test_the_next_request_on_a_kept_alive_connection_has_its_own_deadline(port: int) -> None:
    with connect(port) as kept:
        kept.sendall(b"GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        first = kept.recv(65536)
        assert first.startswith(b"HTTP/1.1 200 ") and b'{"hello":"world"}' in first
        kept.sendall(b"GET /hello HTTP/1.1\r\nHost: 127")  # ... and no more
        answer = until_closed(kept)
    assert answer.startswith(b"HTTP/1.1 408 ")


def test_a_body_nobody_reads_is_cut_off(port: int) -> None:
    head = b"POST /missing HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n"
    with connect(port) as stalled:
        stalled.sendall(head + b"partial")
        answer = until_closed(stalled)
    assert answer.startswith(b"HTTP/1.1 404 ")  # answered, then let go: the body never came


def test_clients_are_served_beside_stalled_ones(port: int) -> None:
    stalled = [connect(port) for _ in range(LIMITS.max_connections // 2)]
    try:
        assert [get(port).status_code for _ in range(5)] == [200] * 5
    finally:
        for sock in stalled:
            sock.close()


def test_connections_past_the_cap_are_refused_until_stalled_ones_are_cut(port: int) -> None:
    stalled = [connect(port) for _ in range(LIMITS.max_connections)]
    try:
        time.sleep(0.2)  # every one accepted
        with connect(port) as one_more:
            answer = until_closed(one_more)
        assert answer.startswith(b"HTTP/1.1 503 Service Unavailable\r\n")
        assert problem(answer) == {
            "field": "connection",
            "message": "more than 8 connections are open (server.max_connections)",
        }
        for sock in stalled:  # each is let go at its deadline ...
            assert until_closed(sock).startswith(b"HTTP/1.1 408 ")
        assert get(port).status_code == 200  # ... and the place is free again
    finally:
        for sock in stalled:
            sock.close()
