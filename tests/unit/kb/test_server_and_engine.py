"""The Chroma server path, and the real default embedding through the whole engine."""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from unified_search.config import SearchConfig
from unified_search.handler import SearchContext
from unified_search.kb.handler import KBHandler
from unified_search.searcher import Searcher
from unified_search.types import SearchRequest

CHROMA = shutil.which("chroma") or str(Path(sys.executable).with_name("chroma"))


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def chroma_server(tmp_path: Path) -> Iterator[str]:
    """A real ``chroma run`` on loopback, stopped after the test."""
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
        yield url
    finally:
        process.terminate()
        process.wait(timeout=10)


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


async def test_http_client_against_a_real_chroma_server(
    chroma_server: str, tmp_path: Path, make_embedding: Any
) -> None:
    config = SearchConfig.load(
        profile={"kb": {"chroma_url": chroma_server, "data_dir": str(tmp_path / "side")}}
    )
    kb = KBHandler.from_config(config, embedding=make_embedding())
    report = await kb.aadd_documents(
        "remote", [{"id": "r1", "text": "Remote Chroma servers hold vectors."}, "Other text."]
    )
    assert report.added == 2
    assert await kb.alist_collections() == ["remote"]
    assert not (tmp_path / "side" / "chroma").exists()  # vectors live on the server
    result = await kb.asearch(
        SearchRequest(query="remote vectors", type="kb"),
        SearchContext(config=config, request_id="r"),
    )
    assert result.items[0].document_id == "r1"
    await kb.aclose()


async def test_end_to_end_through_the_searcher_with_the_default_embedding(tmp_path: Path) -> None:
    config = SearchConfig.load(
        profile={"kb": {"data_dir": str(tmp_path), "collections": ["papers"]}}
    )
    kb = KBHandler.from_config(config)
    await kb.aadd_documents(
        "papers",
        [
            {
                "id": "p1",
                "title": "Aspirin and heart attacks",
                "text": "Low-dose aspirin lowers the risk of myocardial infarction.",
            },
            {
                "id": "p2",
                "title": "Sleep",
                "text": "Adults who sleep less than six hours report more fatigue.",
            },
            {
                "id": "p3",
                "title": "Glaciers",
                "text": "Alpine glaciers have lost mass every year since 1990.",
            },
        ],
    )
    async with Searcher(config, handlers={"kb": kb}) as searcher:
        response = await searcher.asearch(
            {"query": "does aspirin prevent heart disease", "type": "kb"}
        )
    assert response.items[0].document_id == "p1"
    assert response.items[0].citation_id == "ref_001"
    assert "Low-dose aspirin" in response.context.xml
    assert (
        response.results[0] is not None
        and response.results[0].metadata["embedding_model"] == "all-MiniLM-L6-v2-int8"
    )


async def test_a_query_longer_than_the_model_window_is_truncated_and_noted(
    tmp_path: Path, log: Any
) -> None:
    config = SearchConfig.load(profile={"kb": {"data_dir": str(tmp_path)}})
    kb = KBHandler.from_config(config)
    await kb.aadd_documents("papers", ["Glaciers are melting."])
    ctx = SearchContext(config=config, request_id="r", log=log)
    result = await kb.asearch(SearchRequest(query="glaciers melting " * 200, type="kb"), ctx)
    assert result.items[0].content == "Glaciers are melting."
    assert any(level == "warn" and "word pieces" in message for level, message in log.lines)
    await kb.aclose()
