"""The MCP client against a real stdio MCP server, and web search in ``mcp:`` mode."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from unified_search.config import SearchConfig
from unified_search.contract.mcp_client import call_mcp_tool, tool_output
from unified_search.engine.searcher import Searcher
from unified_search.errors import ErrorCode, SearchError
from unified_search.web.handler import WebHandler

SERVER = Path(__file__).with_name("search_server.py")


def config(**overrides: Any) -> SearchConfig:
    server = {"command": sys.executable, "args": [str(SERVER)], "timeout": 60}
    server.update(overrides)
    return SearchConfig.load(profile={"mcp": {"fake": server}})


async def test_tool_answers_map_to_plain_data() -> None:
    cfg = config()
    structured, failed = await asyncio.gather(
        call_mcp_tool(cfg, "fake", "web_search", {"query": "rag", "limit": 2}),
        call_mcp_tool(cfg, "fake", "explode", {"reason": "boom"}),
        return_exceptions=True,
    )
    assert structured == {
        "result": [
            {
                "title": "rag result 1",
                "url": "https://example.org/1?utm_source=mcp",
                "content": "page 1 about rag",
            },
            {
                "title": "rag result 2",
                "url": "https://example.org/2?utm_source=mcp",
                "content": "page 2 about rag",
            },
        ]
    }
    assert isinstance(failed, SearchError) and failed.code is ErrorCode.PROVIDER_ERROR
    assert failed.provider == "mcp:fake.explode"


async def test_web_search_through_an_mcp_tool_end_to_end() -> None:
    cfg = config().merged({"uses": {"web": "mcp:fake.web_search"}})
    async with Searcher(cfg, handlers={"web": WebHandler(cfg, cache=None)}) as searcher:
        response = await searcher.asearch({"query": "vector databases", "limit": 3})
    (result,) = response.results
    assert result is not None and result.ok, result
    assert [item.url for item in response.items] == [f"https://example.org/{n}" for n in (1, 2, 3)]
    assert response.items[0].metadata["providers"] == ["mcp:fake.web_search"]
    assert [item.citation_id for item in response.items] == ["ref_001", "ref_002", "ref_003"]


@pytest.fixture
def http_server() -> Iterator[str]:
    """The same server over streamable HTTP on a free loopback port; stopped after the test."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen(
        [sys.executable, str(SERVER), "--http", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        _wait_for_port(port, process)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)


def _wait_for_port(port: int, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and process.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("the MCP HTTP test server did not start")


async def test_streamable_http_server(http_server: str) -> None:
    cfg = SearchConfig.load(profile={"mcp": {"remote": {"url": http_server, "timeout": 30}}})
    answer = await call_mcp_tool(cfg, "remote", "web_search", {"query": "http", "limit": 1})
    assert answer == {
        "result": [
            {
                "title": "http result 1",
                "url": "https://example.org/1?utm_source=mcp",
                "content": "page 1 about http",
            }
        ]
    }


async def test_slow_server_times_out() -> None:
    with pytest.raises(SearchError) as caught:
        await call_mcp_tool(config(timeout=0.2), "fake", "web_search", {"query": "q"})
    assert caught.value.code is ErrorCode.TIMEOUT


async def test_unknown_server_lists_the_configured_ones() -> None:
    with pytest.raises(SearchError, match="configured servers: fake") as caught:
        await call_mcp_tool(config(), "other", "web_search", {"query": "q"})
    assert caught.value.code is ErrorCode.UNSUPPORTED


async def test_missing_command_is_a_network_error(tmp_path: Path) -> None:
    cfg = config(command=str(tmp_path / "no-such-server"), args=[])
    with pytest.raises(SearchError) as caught:
        await call_mcp_tool(cfg, "fake", "web_search", {"query": "q"})
    assert caught.value.code is ErrorCode.NETWORK_ERROR


def test_server_config_needs_exactly_one_transport() -> None:
    from unified_search.errors import ConfigurationError

    with pytest.raises(ConfigurationError, match="exactly one of command or url"):
        SearchConfig.load(
            profile={"mcp": {"bad": {"command": "x", "url": "http://127.0.0.1:1/mcp"}}}
        )


def _result(*texts: str, structured: Any = None, error: bool = False) -> Any:
    from types import SimpleNamespace

    blocks = [SimpleNamespace(type="text", text=text) for text in texts]
    return SimpleNamespace(content=blocks, structured_content=structured, is_error=error)


def test_text_content_is_parsed_as_json_when_it_is_json() -> None:
    """Without structured content, text blocks become JSON values (or stay text)."""
    assert tool_output(_result('{"keywords": ["a", "b"]}'), provider="p") == {
        "keywords": ["a", "b"]
    }
    assert tool_output(_result("plain words"), provider="p") == "plain words"
    assert tool_output(_result("1", "[2]"), provider="p") == [1, [2]]
    assert tool_output(_result(), provider="p") is None
    assert tool_output(_result("ignored", structured={"a": 1}), provider="p") == {"a": 1}
    with pytest.raises(SearchError, match="quota gone"):
        tool_output(_result("quota gone", error=True), provider="p")
