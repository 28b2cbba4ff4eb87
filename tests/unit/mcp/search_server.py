"""A tiny MCP server over stdio with web-search-like tools, started by the tests."""

from __future__ import annotations

import sys
from typing import Any

import anyio
from mcp.server.mcpserver import MCPServer

server = MCPServer("fake-web-search")


@server.tool()
def web_search(
    query: str, limit: int = 3, sites: list[str] | None = None, time_range: str | None = None
) -> list[dict[str, Any]]:
    """Return ``limit`` made-up pages about ``query``."""
    return [
        {
            "title": f"{query} result {n}",
            "url": f"https://example.org/{n}?utm_source=mcp",
            "content": f"page {n} about {query}",
        }
        for n in range(1, limit + 1)
    ]


@server.tool()
def search_everything(query: str, sources: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Answer a whole automatic search: two items for each source asked for."""
    return [
        {"type": source["type"], "title": f"{source['type']} {n} on {query}", "content": "text"}
        | ({"url": f"https://example.org/{source['type']}/{n}"} if source["type"] == "web" else {})
        for source in sources
        for n in (1, 2)
    ]


@server.resource("notes://{name}")
def note(name: str) -> str:
    """A short note the user can attach to a question."""
    return f"Note {name}: the office closes at 6 pm on Fridays."


@server.tool()
def explode(reason: str) -> str:
    """Fail with ``reason``."""
    raise ValueError(reason)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--http":  # streamable HTTP on 127.0.0.1:<port>
        anyio.run(lambda: server.run_streamable_http_async(port=int(sys.argv[2])))
    else:
        server.run("stdio")
