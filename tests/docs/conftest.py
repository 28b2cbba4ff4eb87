"""The documentation's pages and their fenced code blocks, handed to the tests that ask for them.

A test taking ``python_example`` runs once per ```python block of the README and of every page
of the documentation site.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCS = ROOT / "docs"


def pages() -> list[Path]:
    """Every Markdown page a reader sees: the README and the documentation site's pages."""
    return [README, *sorted(DOCS.rglob("*.md"))]


def fenced(text: str, language: str) -> list[str]:
    """The bodies of the fenced blocks of ``language`` in ``text`` (``python``, ``bash`` ...)."""
    return re.findall(rf"^```{language}\n(.*?)^```", text, flags=re.S | re.M)


def page_name(page: Path) -> str:
    """A page as test IDs name it: ``README.md``, or its path under ``docs/``."""
    return page.name if page == README else page.relative_to(DOCS).as_posix()


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "python_example" in metafunc.fixturenames:
        examples = [
            pytest.param(code, id=f"{page_name(page)}#{number}")
            for page in pages()
            for number, code in enumerate(fenced(page.read_text(encoding="utf-8"), "python"), 1)
        ]
        if len(examples) < 8:  # a renamed folder or a changed fence would empty the set silently
            raise pytest.UsageError(f"only {len(examples)} Python examples found in the docs")
        metafunc.parametrize("python_example", examples)
