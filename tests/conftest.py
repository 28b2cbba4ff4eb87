"""Fixtures shared by every test: a hermetic environment, the local database servers, Chroma."""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import TypeVar

import httpx
import pytest

from unified_search.config import ENVIRONMENT_PREFIXES

POSTGRES_URL = os.environ.get(
    "TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)
REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
T = TypeVar("T")


@pytest.fixture(autouse=True)
def clean_environ(
    monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Remove API keys and config pointers so tests see only what they set.

    The data folder is a fresh temporary one: what a test writes by default (the web
    cache, the search records) never lands in the user's own.
    """
    for name in list(os.environ):
        if name.startswith(ENVIRONMENT_PREFIXES):
            monkeypatch.delenv(name)
    monkeypatch.setenv("UNIFIED_SEARCH_HOME", str(tmp_path_factory.mktemp("data-home")))


def _reachable(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=0.5):
            return True
    except OSError:
        return False


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """The local PostgreSQL server's URL; skips (with the reason) when no server listens."""
    if not _reachable("127.0.0.1", 5432):
        pytest.skip("PostgreSQL is not listening on 127.0.0.1:5432")
    yield POSTGRES_URL


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """The local Redis server's URL; skips (with the reason) when no server listens."""
    if not _reachable("127.0.0.1", 6379):
        pytest.skip("Redis is not listening on 127.0.0.1:6379")
    yield REDIS_URL


class HangGuard:
    """Wait for something that must end, and fail saying what never returned if it hangs.

    A guard against a hang, never a measure of speed: ``seconds`` is far beyond
    what anything takes on the busiest machine. Tests prove speed-related
    behaviour by structure (a coded error, a cancelled call, calls in flight
    together); the guard only turns a hang into a clear failure.
    """

    seconds = 60.0

    async def __call__(self, awaitable: Awaitable[T], what: str) -> T:
        guard = asyncio.timeout(self.seconds)
        try:
            async with guard:
                return await awaitable
        except TimeoutError:
            if guard.expired():
                raise AssertionError(self.message(what)) from None
            raise

    def message(self, what: str) -> str:
        return f"{what} never returned (hang guard: {self.seconds:g} s)"


@pytest.fixture
def hang_guard() -> HangGuard:
    """Await with ``await hang_guard(call(), "the call")``; ``.seconds`` bounds blocking waits."""
    return HangGuard()


@pytest.fixture(scope="session")
def redis_url_if_up() -> str | None:
    """The local Redis server's URL, or ``None`` when none listens: for what runs either way."""
    return REDIS_URL if _reachable("127.0.0.1", 6379) else None


@pytest.fixture(scope="session")
def postgres_url_if_up() -> str | None:
    """The local PostgreSQL server's URL, or ``None`` when none listens."""
    return POSTGRES_URL if _reachable("127.0.0.1", 5432) else None


CHROMA = shutil.which("chroma") or str(Path(sys.executable).with_name("chroma"))


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _serve_environment(home: Path, **extra: str) -> dict[str, str]:
    """This environment without our settings, with ``home`` as the data folder."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("UNIFIED_SEARCH_")}
    return {**clean, "UNIFIED_SEARCH_HOME": str(home), **extra}


def _wait_until_serving(port: int, server: subprocess.Popen[str]) -> None:
    """Return once ``server`` answers HTTP on ``port``; fail with its errors if it stops."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        assert server.poll() is None, server.stderr.read() if server.stderr else "stopped"
        try:
            httpx.get(f"http://127.0.0.1:{port}/", timeout=5)
            return
        except httpx.TransportError:
            time.sleep(0.2)
    raise AssertionError("the server did not start")


@pytest.fixture(scope="session")
def free_port() -> Callable[[], int]:
    """A free loopback port, each call (test modules cannot import conftest)."""
    return _free_port


@pytest.fixture(scope="session")
def serve_environment() -> Callable[..., dict[str, str]]:
    """The environment of a ``serve`` process: ``serve_environment(home, **extra)``."""
    return _serve_environment


@pytest.fixture(scope="session")
def wait_until_serving() -> Callable[[int, subprocess.Popen[str]], None]:
    """Wait for a started ``serve`` process: ``wait_until_serving(port, server)``."""
    return _wait_until_serving


@pytest.fixture
def chroma_process(tmp_path: Path) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """A real ``chroma run`` on loopback (its URL and process), stopped after the test."""
    if not Path(CHROMA).exists():
        pytest.skip("the chroma CLI is not installed with chromadb")
    port = _free_port()
    process = subprocess.Popen(
        [
            CHROMA,
            "run",
            "--path",
            str(tmp_path / "chroma-server"),
            "--port",
            str(port),
            "--host",
            "127.0.0.1",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_for(url, process)
        yield url, process
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture
def chroma_server(chroma_process: tuple[str, subprocess.Popen[bytes]]) -> str:
    """The URL of a real ``chroma run`` on loopback."""
    return chroma_process[0]


def _wait_for(url: str, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail("chroma run exited early")
        try:
            if httpx.get(f"{url}/api/v2/heartbeat", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            time.sleep(0.2)
    pytest.fail("chroma run did not answer within 90 s")
