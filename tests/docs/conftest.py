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
    """The bodies of the fenced blocks of ``language`` in ``text`` (``python``, ``bash`` ...).

    A block's info string may carry a title after the language (```python title="x.py").
    """
    return re.findall(rf"^```{language}(?: [^\n]*)?\n(.*?)^```", text, flags=re.S | re.M)


def examples(text: str) -> list[tuple[str, str | None]]:
    """Each Python block of ``text``, with the ```text block that follows it (what it prints)."""
    found = re.finditer(
        r"^```python(?: [^\n]*)?\n(.*?)^```\n(?:\n```text\n(.*?)^```)?", text, flags=re.S | re.M
    )
    return [(match.group(1), match.group(2)) for match in found]


def page_name(page: Path) -> str:
    """A page as test IDs name it: ``README.md``, or its path under ``docs/``."""
    return page.name if page == README else page.relative_to(DOCS).as_posix()


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "python_example" in metafunc.fixturenames:
        found = [
            pytest.param(example, id=f"{page_name(page)}#{number}")
            for page in pages()
            for number, example in enumerate(examples(page.read_text(encoding="utf-8")), 1)
        ]
        if len(found) < 8:  # a renamed folder or a changed fence would empty the set silently
            raise pytest.UsageError(f"only {len(found)} Python examples found in the docs")
        metafunc.parametrize("python_example", found)
