"""``unified-search serve`` as an operator runs it: the token it insists on beyond loopback,
and a stalled upload or stalled headers answered 408 and let go, over a real socket."""

from __future__ import annotations

import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

TOKEN_ENV = "UNIFIED_SEARCH_API_TOKEN"
TOKEN = "a-long-enough-test-token-4242"


def serve(env: dict[str, str], *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "unified_search.cli", "serve", *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.fixture
def running(
    tmp_path: Path,
    free_port: Callable[[], int],
    serve_environment: Callable[..., dict[str, str]],
    wait_until_serving: Callable[[int, subprocess.Popen[str]], None],
) -> Iterator[tuple[int, subprocess.Popen[str]]]:
    """A server on loopback with one-second header and body timeouts and a token."""
    config = tmp_path / "search.yml"
    config.write_text("server:\n  body_timeout: 1\n  header_timeout: 1\n")
    port = free_port()
    env = serve_environment(tmp_path / "home", **{TOKEN_ENV: TOKEN})
    server = serve(env, "--port", str(port), "--config", str(config))
    try:
        wait_until_serving(port, server)
        yield port, server
    finally:
        server.terminate()
        server.communicate(timeout=30)  # and close its pipes


@pytest.mark.parametrize(
    ("host", "token", "says"),
    [
        ("0.0.0.0", None, f"needs a bearer token: set {TOKEN_ENV}"),
        ("0.0.0.0", "   ", f"needs a bearer token: set {TOKEN_ENV}"),
        ("::", None, f"needs a bearer token: set {TOKEN_ENV}"),
        ("192.0.2.10", None, f"needs a bearer token: set {TOKEN_ENV}"),
        ("0.0.0.0", "short", f"{TOKEN_ENV} is too short"),
    ],
)
def test_serving_beyond_loopback_without_a_token_refuses_to_start(
    tmp_path: Path,
    host: str,
    token: str | None,
    says: str,
    free_port: Callable[[], int],
    serve_environment: Callable[..., dict[str, str]],
) -> None:
    port = free_port()
    extra = {TOKEN_ENV: token} if token is not None else {}
    server = serve(
        serve_environment(tmp_path / "home", **extra), "--host", host, "--port", str(port)
    )
    try:
        _, err = server.communicate(timeout=120)
    except subprocess.TimeoutExpired:  # it started serving: stop it, then fail
        server.kill()
        server.communicate()
        raise AssertionError(f"serve --host {host} started without a usable token") from None
    assert server.returncode == 2, err
    assert says in err and "Traceback" not in err
    with pytest.raises(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
        pass  # nothing listens


def test_the_token_is_required_once_set(running: tuple[int, subprocess.Popen[str]]) -> None:
    port, _ = running
    url = f"http://127.0.0.1:{port}/api/chat/c/request/r/references"
    refused = httpx.get(url, timeout=30)
    assert refused.status_code == 401 and TOKEN not in refused.text
    allowed = httpx.get(url, headers={"authorization": f"Bearer {TOKEN}"}, timeout=30)
    assert allowed.status_code == 404  # past the gate: no such request
    assert allowed.json() == {"detail": "request 'r' not found"}


def read_response(conn: socket.socket) -> bytes:
    """One whole HTTP response (head and ``Content-Length`` body) from ``conn``."""
    received = b""
    while b"\r\n\r\n" not in received:
        chunk = conn.recv(65536)
        assert chunk, f"closed before a whole response: {received[:200]!r}"
        received += chunk
    head, _, body = received.partition(b"\r\n\r\n")
    length = next(
        int(line.split(b":", 1)[1])
        for line in head.split(b"\r\n")
        if line.lower().startswith(b"content-length:")
    )
    while len(body) < length:
        chunk = conn.recv(65536)
        assert chunk, "closed in the middle of the body"
        body += chunk
    return head + b"\r\n\r\n" + body


def test_a_stalled_upload_is_answered_408_and_its_connection_closed(
    running: tuple[int, subprocess.Popen[str]], hang_guard: Any
) -> None:
    port, _ = running
    head = (
        "POST /api/search HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        f"Authorization: Bearer {TOKEN}\r\nContent-Type: application/json\r\n"
        "Content-Length: 1000\r\n\r\n"
    )
    searches = f"http://127.0.0.1:{port}/api/chat/c/searches"
    authorised = {"authorization": f"Bearer {TOKEN}"}
    with socket.create_connection(("127.0.0.1", port), timeout=hang_guard.seconds) as stalled:
        stalled.sendall(head.encode() + b'{"query": "')  # ... and nothing more
        # Meanwhile the server answers others.
        other = httpx.get(searches, headers=authorised, timeout=hang_guard.seconds)
        assert other.status_code == 200
        received = read_response(stalled)
        # Closed on the answer, not at the keep-alive timeout after it: once the server has
        # answered a later request, the stalled connection's end is already there to read.
        later = httpx.get(searches, headers=authorised, timeout=hang_guard.seconds)
        assert later.status_code == 200
        stalled.setblocking(False)
        try:
            rest = stalled.recv(65536)
        except BlockingIOError:
            raise AssertionError("the connection stayed open after the 408") from None
        except ConnectionResetError:
            rest = b""
    assert rest == b""
    assert received.startswith(b"HTTP/1.1 408 "), received[:200]
    assert b'"field":"body"' in received and b"server.body_timeout" in received
    assert b"connection: close" in received.lower()


def test_headers_never_finished_are_answered_408_from_the_configuration(
    running: tuple[int, subprocess.Popen[str]],
) -> None:
    """The workers' protocol reads ``server.header_timeout`` from the file ``serve`` was given."""
    port, _ = running
    with socket.create_connection(("127.0.0.1", port), timeout=15) as stalled:
        stalled.sendall(b"GET /api/chat/c/searches HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        received = b""
        while chunk := stalled.recv(65536):
            received += chunk
    assert received.startswith(b"HTTP/1.1 408 "), received[:200]
    assert b"server.header_timeout" in received and b'"field": "headers"' in received
