"""Call a tool, or read a resource, on an MCP server configured by name (official ``mcp`` SDK).

A server is a stdio command or a streamable HTTP URL (``config.mcp[name]``).
Each call opens a session, initialises it, calls the tool (or reads the
resource) and closes it: such calls are rare next to their own latency, and no
process or connection outlives the call. A tool's answer is its structured
content when it gives one, otherwise its text content (parsed as JSON when it
is JSON); a resource's is its text.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any

from unified_search._optional import MissingDependencyError, require
from unified_search.config.search import MCPServerConfig, SearchConfig
from unified_search.errors import ErrorCode, SearchError, provider_failure


async def call_mcp_tool(
    config: SearchConfig, server: str, tool: str, arguments: dict[str, Any]
) -> Any:
    """Call ``tool`` on the MCP server named ``server`` and return its answer as plain data.

    Raises:
        SearchError: UNSUPPORTED for an unknown server or a missing SDK, TIMEOUT past the
            server's ``timeout``, PROVIDER_ERROR when the tool reports an error or the
            session fails, NETWORK_ERROR when the server cannot be started or reached.

    Example:
        Not run here: it starts an MCP server process.

        >>> cfg = SearchConfig.load(profile={"mcp": {"search": {"command": "my-mcp-server"}}})
        >>> asyncio.run(call_mcp_tool(cfg, "search", "web_search", {"query": "rag"}))  # doctest: +SKIP
    """
    where = f"mcp:{server}.{tool}"
    result = await _guarded(
        config, server, where, lambda session: session.call_tool(tool, arguments)
    )
    return tool_output(result, provider=where)


async def read_mcp_resource(config: SearchConfig, server: str, uri: str) -> str:
    """Read the text of resource ``uri`` on the MCP server named ``server``.

    Raises:
        SearchError: as ``call_mcp_tool``; UNSUPPORTED for a resource without text.
    """
    where = f"mcp:{server}"
    result = await _guarded(config, server, where, lambda session: session.read_resource(uri))
    texts = [
        text for block in result.contents if isinstance(text := getattr(block, "text", None), str)
    ]
    if not texts:
        raise SearchError(
            ErrorCode.UNSUPPORTED, f"resource {uri!r} has no text content", provider=where
        )
    return "\n".join(texts)


async def _guarded(
    config: SearchConfig, server: str, where: str, use: Callable[[Any], Awaitable[Any]]
) -> Any:
    """Open a session on ``server``, run ``use(session)`` within its timeout, map the failures."""
    settings = server_config(config, server)
    try:
        async with asyncio.timeout(settings.timeout):
            return await _session_call(settings, use)
    except TimeoutError:
        raise SearchError(
            ErrorCode.TIMEOUT, f"no answer within {settings.timeout:g} s", provider=where
        ) from None
    except SearchError:
        raise
    except OSError as exc:
        raise SearchError(
            ErrorCode.NETWORK_ERROR, f"cannot start or reach the server: {exc}", provider=where
        ) from exc
    except Exception as exc:  # the SDK raises its own types (McpError, anyio errors, ...)
        raise provider_failure(exc, where) from exc


def server_config(config: SearchConfig, server: str) -> MCPServerConfig:
    """Return the configuration of ``server``; the error lists the configured names."""
    try:
        return config.mcp[server]
    except KeyError:
        known = ", ".join(sorted(config.mcp)) or "none configured"
        raise SearchError(
            ErrorCode.UNSUPPORTED, f"unknown MCP server {server!r}; configured servers: {known}"
        ) from None


def tool_output(result: Any, *, provider: str) -> Any:
    """Map a ``CallToolResult`` to plain data: structured content, else parsed text content."""
    texts = [block.text for block in result.content if getattr(block, "type", "") == "text"]
    if getattr(result, "is_error", None) or getattr(result, "isError", None):
        message = " ".join(texts) or "the tool reported an error"
        raise SearchError(ErrorCode.PROVIDER_ERROR, message, provider=provider, retryable=False)
    structured = getattr(result, "structured_content", getattr(result, "structuredContent", None))
    if structured is not None:
        return structured
    values = [_parsed(text) for text in texts]
    if not values:
        return None
    return values[0] if len(values) == 1 else values


def _parsed(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


async def _session_call(settings: MCPServerConfig, use: Callable[[Any], Awaitable[Any]]) -> Any:
    try:
        ClientSession = require("mcp", extra="mcp", purpose="the MCP client").ClientSession
    except MissingDependencyError as exc:
        raise SearchError(ErrorCode.UNSUPPORTED, str(exc)) from exc
    async with AsyncExitStack() as stack:
        read, write = await stack.enter_async_context(_transport(settings))
        session = await stack.enter_async_context(ClientSession(read, write))
        await session.initialize()
        return await use(session)


@asynccontextmanager
async def _transport(settings: MCPServerConfig) -> AsyncIterator[tuple[Any, Any]]:
    """Open the stdio or streamable HTTP streams of one session."""
    if settings.command is not None:
        from mcp import StdioServerParameters, stdio_client

        params = StdioServerParameters(
            command=settings.command, args=list(settings.args), env=dict(settings.env) or None
        )
        async with stdio_client(params, errlog=sys.stderr) as streams:
            yield streams[0], streams[1]
        return
    from mcp.client.streamable_http import streamable_http_client

    async with streamable_http_client(settings.url or "") as streams:
        yield streams[0], streams[1]
