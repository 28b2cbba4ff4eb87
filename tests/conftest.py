"""Fixtures shared by every test: a hermetic environment and the local database servers."""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator

import pytest

from unified_search.config import ENVIRONMENT_PREFIXES

POSTGRES_URL = os.environ.get(
    "TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)
REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")


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
