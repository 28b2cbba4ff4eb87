"""Every example of the README and the documentation runs as a user would paste it.

A Python example runs in a fresh interpreter, offline; when a ```text block follows it, that
block is exactly what it prints.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def test_example_runs(python_example: tuple[str, str | None], tmp_path: Path) -> None:
    code, printed = python_example
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
    if printed is not None:
        assert done.stdout == printed
