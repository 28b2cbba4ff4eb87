"""The adapters use the core's public face only, so the core's modules can move freely."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ADAPTERS = ("langchain_unified_search", "llama_index_unified_search")
#: The package and the subpackages whose ``__init__`` is a documented public face.
PUBLIC = (
    "unified_search",
    "unified_search.citations",
    "unified_search.config",
    "unified_search.contract",
    "unified_search.engine",
    "unified_search.policy",
)


def core_imports(path: Path) -> list[tuple[str, str, int]]:
    """Every (module, name, line) an adapter file imports from the core."""
    found: list[tuple[str, str, int]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (
            isinstance(node, ast.ImportFrom)
            and (node.module or "").split(".")[0] == "unified_search"
        ):
            found += [(node.module or "", alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.Import):
            found += [
                (alias.name, "", node.lineno)
                for alias in node.names
                if alias.name.split(".")[0] == "unified_search"
            ]
    return found


ADAPTER_FILES = sorted(p for name in ADAPTERS for p in (ROOT / name).glob("*.py"))


@pytest.mark.parametrize("path", ADAPTER_FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_adapters_import_only_public_names(path: Path) -> None:
    """Each core name an adapter imports comes from a public face that lists it in ``__all__``."""
    for module, name, line in core_imports(path):
        where = f"{path.name}:{line}"
        assert module in PUBLIC, f"{where} imports the private path {module}"
        if name and not name.startswith("__"):
            assert name in importlib.import_module(module).__all__, f"{where}: {module}.{name}"


def test_a_private_import_is_caught(tmp_path: Path) -> None:
    """The check itself fails on an import of a module file inside the core."""
    file = tmp_path / "adapter.py"
    file.write_text(
        "from unified_search.engine.searcher import Searcher\nimport unified_search.types\n"
    )
    assert [m for m, _, _ in core_imports(file)] == [
        "unified_search.engine.searcher",
        "unified_search.types",
    ]
    with pytest.raises(AssertionError, match=r"private path unified_search\.engine\.searcher"):
        test_adapters_import_only_public_names(file)


def test_every_public_face_imports() -> None:
    """Every name a public face lists can be imported from it."""
    for module in PUBLIC:
        face = importlib.import_module(module)
        missing = [name for name in face.__all__ if not hasattr(face, name)]
        assert missing == [], f"{module}: {missing}"
