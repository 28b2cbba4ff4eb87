"""The databases page stays true: its example runs on the sample shop and prints what it shows."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

PAGE = Path(__file__).resolve().parents[3] / "docs" / "sources" / "databases.md"


def test_the_example_prints_the_output_the_page_shows(tmp_path: Path) -> None:
    text = PAGE.read_text(encoding="utf-8")
    found = re.search(r"```python\n(.*?)```\s*```text\n(.*?)```", text, re.S)
    assert found is not None, "the page shows an example and its output"
    code, shown = found.groups()
    script = tmp_path / "example.py"
    script.write_text(code, encoding="utf-8")
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "PYTHONPATH": ":".join(sys.path)}
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout == shown
    assert "not understood: not, written, mara, quell" in shown
