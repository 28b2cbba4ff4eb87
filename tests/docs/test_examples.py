"""Every Python example of the README and the documentation runs as a user would paste it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def test_example_runs(python_example: str, tmp_path: Path) -> None:
    """The example runs in a fresh interpreter, offline, with nothing of the caller's setup."""
    script = tmp_path / "example.py"
    script.write_text(python_example, encoding="utf-8")
    env = {
        "UNIFIED_SEARCH_HOME": str(tmp_path / "home"),
        "PATH": "/usr/bin:/bin",
        "HOME": str(tmp_path),
    }
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
