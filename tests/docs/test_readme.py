"""The README stays true: its snippets run, its quickstart has two commands, its config table is current."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from unified_search.config.reference import reference_markdown

README = Path(__file__).resolve().parents[2] / "README.md"
TEXT = README.read_text(encoding="utf-8")
PYTHON_BLOCKS = re.findall(r"```python\n(.*?)```", TEXT, flags=re.S)


def _section(name: str) -> str:
    match = re.search(rf"<!-- {name}:start -->\n(.*?)<!-- {name}:end -->", TEXT, flags=re.S)
    assert match, f"README has no {name} markers"
    return match.group(1)


def test_quickstart_has_one_run_command_and_one_test_command() -> None:
    quickstart = TEXT.split("## Quickstart", 1)[1].split("\n## ", 1)[0]
    commands = re.findall(r"```bash\n(.*?)```", quickstart, flags=re.S)
    assert [c.strip().count("\n") for c in commands] == [0, 0]
    assert commands[0].strip().endswith("unified-search demo")
    assert commands[1].strip().endswith("pytest --cov")
    ci = (README.parent / ".ci" / "run").read_text(encoding="utf-8")
    assert commands[1].strip().replace('-e ".[dev]"', '-q -e ".[dev]"') in ci


def test_configuration_reference_matches_the_code() -> None:
    assert _section("config-reference").strip() == reference_markdown().strip()


@pytest.mark.parametrize(
    "code", PYTHON_BLOCKS, ids=[f"snippet{i}" for i in range(len(PYTHON_BLOCKS))]
)
def test_python_snippets_run(code: str, tmp_path: Path) -> None:
    """Each snippet runs as a user would paste it, in a fresh interpreter, offline."""
    script = tmp_path / "snippet.py"
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
    assert "ref_001" in done.stdout
