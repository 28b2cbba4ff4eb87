"""docs/security.md stays true: its first example prints what it says, its tables match the code."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from unified_search.config.kb import LimitsConfig
from unified_search.config.server import ServerConfig

PAGE = Path(__file__).resolve().parents[2] / "docs" / "security.md"
TEXT = PAGE.read_text(encoding="utf-8")
BLOCKS = re.findall(r"```python\n(.*?)```", TEXT, flags=re.S)


def test_the_first_example_prints_what_its_comments_say(tmp_path: Path) -> None:
    code = BLOCKS[0]
    script = tmp_path / "example.py"
    script.write_text(code, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=300
    )
    promised = [line.removeprefix("# ") for line in code.splitlines() if line.startswith("# ")]
    assert done.stdout.splitlines() == promised


def test_the_limit_tables_show_the_defaults() -> None:
    for name, field in LimitsConfig.model_fields.items():
        assert f"| `kb.limits.{name}` | `{field.default}` |" in TEXT, name
    for name in ("header_timeout", "body_timeout", "max_connections"):
        default = ServerConfig.model_fields[name].default
        shown = f"{default:g}" if isinstance(default, float) else str(default)
        assert f"| `server.{name}` | `{shown}` |" in TEXT, name
