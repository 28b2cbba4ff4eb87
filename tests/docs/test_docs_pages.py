"""The runnable examples of the citation and observability pages run, offline, as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs"
PAGES = ["citations.md", "observability.md"]
#: A fenced Python block; one whose info string says ``no-run`` is shown, not run.
_BLOCK = re.compile(r"^```python([^\n]*)\n(.*?)^```", re.M | re.S)


def blocks(page: str) -> list[str]:
    text = (DOCS / page).read_text(encoding="utf-8")
    return [code for info, code in _BLOCK.findall(text) if "no-run" not in info]


@pytest.mark.parametrize("page", PAGES)
def test_every_example_of_the_page_runs(page: str, capsys: pytest.CaptureFixture[str]) -> None:
    found = blocks(page)
    assert found, f"{page} has no runnable example"
    for number, code in enumerate(found, start=1):
        exec(compile(code, f"{page} example {number}", "exec"), {"__name__": "__docs__"})
    assert capsys.readouterr().out
