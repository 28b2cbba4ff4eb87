"""The pages in ``docs/`` stay true: every Python example runs and prints what the page shows."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs"
EXAMPLES = [
    (page, block)
    for page in sorted(DOCS.glob("*.md"))
    for block in re.findall(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), flags=re.S)
]


@pytest.mark.parametrize(
    ("page", "code"), EXAMPLES, ids=[f"{p.stem}-{i}" for i, (p, _) in enumerate(EXAMPLES)]
)
def test_python_examples_run_and_print_what_they_say(page: Path, code: str, tmp_path: Path) -> None:
    script = tmp_path / "example.py"
    script.write_text(code, encoding="utf-8")
    env = {
        "UNIFIED_SEARCH_HOME": str(tmp_path / "home"),
        "PATH": "/usr/bin:/bin",
        "HOME": str(tmp_path),
    }
    if "PYTHONPATH" in os.environ:  # a checkout run without installing it
        env["PYTHONPATH"] = os.environ["PYTHONPATH"]
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    shown = [line[2:] for line in code.splitlines() if line.startswith("# ")]
    assert done.stdout.splitlines() == shown


def test_the_deviations_page_exists_and_names_every_section() -> None:
    text = (DOCS / "deviations.md").read_text(encoding="utf-8")
    for section in (
        "Configuration",
        "Sources, references and records",
        "The search-layer skill",
        "The web cache and Tavily",
        "Automatic search and the HTTP API",
    ):
        assert f"## {section}" in text
