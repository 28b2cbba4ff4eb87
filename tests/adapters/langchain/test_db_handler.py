"""The DB tool over the real database handler, on a small SQLite file."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from langchain_unified_search import DBSearchTool
from unified_search.engine.searcher import Searcher

ROWS = [(1, "ann", 120.0, "shipped"), (2, "bob", 40.0, "pending"), (3, "cy", 300.0, "shipped")]


@pytest.fixture
def tool(tmp_path: Path) -> DBSearchTool:
    path = tmp_path / "shop.db"
    with sqlite3.connect(path) as db:
        db.execute(
            "create table orders (id integer primary key, customer text, total real, status text)"
        )
        db.executemany("insert into orders values (?, ?, ?, ?)", ROWS)
    return DBSearchTool(searcher=Searcher({"db": {"url": f"sqlite:///{path}"}}))


def call(tool: DBSearchTool, args: dict) -> object:
    return tool.invoke({"name": tool.name, "args": args, "id": "1", "type": "tool_call"})


def test_db_search_returns_cited_rows(tool):
    message = call(tool, {"query": "shipped orders", "models": ["orders"]})
    assert message.status == "success"
    assert sorted(ref.record_id for ref in message.artifact) == ["1", "3"]
    assert all(
        ref.model == "orders" and ref.data["status"] == "shipped" for ref in message.artifact
    )
    assert "status: shipped" in message.content and '<ref id="ref_002"' in message.content


def test_unknown_model_lists_the_available_ones(tool):
    message = call(tool, {"query": "anything", "models": ["users"]})
    assert message.status == "error"
    assert (
        message.content
        == "Search failed (INVALID_QUERY): unknown model 'users'; available models: orders"
    )
