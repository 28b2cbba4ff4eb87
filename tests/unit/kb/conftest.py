"""Fixtures of the knowledge-base tests: a small fake embedding and a handler per test."""

from __future__ import annotations

import hashlib
import math
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest

from unified_search.config import SearchConfig
from unified_search.contract.handler import SearchContext
from unified_search.kb.handler import KBHandler

DIM = 64


class HashEmbedding:
    """Bag of hashed words, L2-normalised: texts sharing words are similar. Counts its inputs."""

    def __init__(self, name: str = "hash-64") -> None:
        self.name = name
        self.embedded: list[str] = []

    def __call__(self, texts: list[str]) -> list[list[float]]:
        self.embedded.extend(texts)
        return [self._one(t) for t in texts]

    @staticmethod
    def _one(text: str) -> list[float]:
        vector = [0.0] * DIM
        for word in text.lower().replace(".", " ").split():
            vector[int(hashlib.md5(word.encode()).hexdigest(), 16) % DIM] += 1.0
        norm = math.sqrt(sum(x * x for x in vector)) or 1.0
        return [x / norm for x in vector]


@pytest.fixture
def config(tmp_path: Path) -> SearchConfig:
    return SearchConfig.load(profile={"kb": {"data_dir": str(tmp_path / "kb")}})


@pytest.fixture
def embedding() -> HashEmbedding:
    return HashEmbedding()


@pytest.fixture
async def kb(config: SearchConfig, embedding: HashEmbedding) -> AsyncIterator[KBHandler]:
    handler = KBHandler.from_config(config, embedding=embedding)
    yield handler
    await handler.aclose()


@pytest.fixture
def ctx(config: SearchConfig) -> SearchContext:
    return SearchContext(config=config, request_id="req-test")


class LogRecorder:
    """A ``ctx.log`` that remembers what it was told."""

    def __init__(self) -> None:
        self.lines: list[tuple[str, str]] = []

    async def __call__(self, level: str, message: str) -> None:
        self.lines.append((level, message))


@pytest.fixture
def make_embedding() -> type[HashEmbedding]:
    """The fake embedding class (test modules cannot import conftest under importlib mode)."""
    return HashEmbedding


@pytest.fixture
def log() -> LogRecorder:
    return LogRecorder()


CHROMA = shutil.which("chroma") or str(Path(sys.executable).with_name("chroma"))


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


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
            str(tmp_path / "server"),
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
