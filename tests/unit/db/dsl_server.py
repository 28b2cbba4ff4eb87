"""A tiny MCP server over stdio whose tool writes query DSL, started by the tests."""

from __future__ import annotations

from typing import Any

from mcp.server.mcpserver import MCPServer

server = MCPServer("fake-dsl-writer")


@server.tool()
def write_dsl(question: str, schema: dict[str, Any], models: list[str]) -> dict[str, Any]:
    """Filter the first model by the brand named as the question's last word."""
    columns = [c["name"] for c in schema[models[0]]["columns"]]
    field = "brand" if "brand" in columns else columns[0]
    return {"model": models[0], "wheres": [{"field": field, "value": question.split()[-1]}]}


if __name__ == "__main__":
    server.run("stdio")
