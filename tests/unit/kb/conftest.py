"""Fixtures of the knowledge-base tests: a small fake embedding and a handler per test."""

from __future__ import annotations

import hashlib
import math
from collections.abc import AsyncIterator
from pathlib import Path

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
