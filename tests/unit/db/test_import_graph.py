"""The modules of database search import each other one way only: no circle, type-only imports too."""

from __future__ import annotations

import ast
from pathlib import Path

import unified_search.db

DB = Path(unified_search.db.__file__).parent
PACKAGE = "unified_search.db"


def _module_name(path: Path) -> str:
    parts = path.relative_to(DB).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join([PACKAGE, *parts])


def _modules() -> dict[str, Path]:
    return {_module_name(path): path for path in sorted(DB.rglob("*.py"))}


def _imports(path: Path, known: dict[str, Path]) -> set[str]:
    """Every module of the package that ``path`` imports, wherever the import statement sits."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                whole = f"{node.module}.{alias.name}"
                found.add(whole if whole in known else node.module)
    return {name for name in found if name in known}


def _graph() -> dict[str, set[str]]:
    known = _modules()
    return {name: _imports(path, known) - {name} for name, path in known.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Return one circle through each strongly connected group of modules (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return groups


def test_the_walk_sees_the_imports_of_the_planner() -> None:
    """The graph is real: the planner's own imports are found, type-only ones included."""
    graph = _graph()
    assert {
        f"{PACKAGE}.nl.measures",
        f"{PACKAGE}.nl.quantities",
        f"{PACKAGE}.nl.mentions",
        f"{PACKAGE}.nl.state",
    } <= graph[f"{PACKAGE}.nl.planner"]
    assert f"{PACKAGE}.nl.state" in graph[f"{PACKAGE}.nl.measures"]


def test_a_circle_would_be_found() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(graph) == [["a", "b", "c"]]


def test_no_module_of_database_search_imports_itself_in_a_circle() -> None:
    assert _cycles(_graph()) == []
