"""The package's imports flow down its floors, sources never import each other, nothing loops.

The floors are those of docs/architecture.md. Every import is read, also those inside
functions and under ``TYPE_CHECKING``: a lazy import is still a dependency.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[3] / "shared" / "unified_search"
#: The floor of each folder; modules at the package root are the ground (0).
FLOORS = {
    "config": 1,
    "contract": 2,
    "http": 2,
    "nlp": 3,
    "citations": 3,
    "records": 3,
    "models": 3,
    "samples": 3,
    "web": 4,
    "kb": 4,
    "db": 4,
    "rerank": 4,
    "engine": 5,
    "policy": 6,
    "server": 7,
    "cli": 8,
}
SOURCES = {"web", "kb", "db"}
#: The package's face sits above everything it re-exports; the old-path table imports nothing.
FACE = ("unified_search", 7)


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def floor(module: str) -> tuple[str, int]:
    """The folder (``""`` for the ground) and floor of a module of the package."""
    if module == FACE[0]:
        return FACE
    parts = module.split(".")
    if len(parts) > 2 or (len(parts) == 2 and parts[1] in FLOORS):
        return parts[1], FLOORS[parts[1]]
    return "", 0


def imports(path: Path) -> Iterator[tuple[str, int]]:
    """Every module of the package that ``path`` imports, with the line."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module_name(path)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module.split(".")[0] != "unified_search":
                continue
            for alias in node.names:
                if alias.name.startswith("__"):  # the package's own metadata, not a dependency
                    continue
                candidate = f"{node.module}.{alias.name}"
                known = (PACKAGE.parent / candidate.replace(".", "/")).with_suffix(".py").exists()
                yield (candidate if known else node.module), node.lineno
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "unified_search" and alias.name != package:
                    yield alias.name, node.lineno


MODULES = {
    module_name(path): path
    for path in sorted(PACKAGE.rglob("*.py"))
    if "samples/docs" not in path.as_posix()
}


def edges() -> Iterator[tuple[str, str, int]]:
    for name, path in MODULES.items():
        for target, line in imports(path):
            if target != name and not name.endswith("._moved"):
                yield name, target, line


def test_imports_never_run_up_a_floor() -> None:
    upward = [
        f"{source}:{line} -> {target}"
        for source, target, line in edges()
        if floor(target)[1] > floor(source)[1]
    ]
    assert upward == []


def test_sources_never_import_each_other() -> None:
    crossing = [
        f"{source}:{line} -> {target}"
        for source, target, line in edges()
        if {floor(source)[0], floor(target)[0]} <= SOURCES and floor(source)[0] != floor(target)[0]
    ]
    assert crossing == []


def test_no_import_cycles() -> None:
    graph: dict[str, set[str]] = {name: set() for name in MODULES}
    for source, target, _ in edges():
        if target in graph:
            graph[source].add(target)
    cycles = []
    state: dict[str, int] = {}

    def visit(node: str, trail: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycles.append(" -> ".join([*trail[trail.index(nxt) :], nxt]))
            elif nxt not in state:
                visit(nxt, [*trail, nxt])
        state[node] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
    assert cycles == []


@pytest.mark.parametrize(
    ("module", "expected"),
    [
        ("unified_search.types", ("", 0)),
        ("unified_search.config.web", ("config", 1)),
        ("unified_search.db.nl.planner", ("db", 4)),
        ("unified_search", FACE),
    ],
)
def test_floors_are_read_from_the_path(module: str, expected: tuple[str, int]) -> None:
    assert floor(module) == expected
