"""``serve`` argument checks, and the installed ``unified-search`` console script."""

from __future__ import annotations

import importlib.metadata
import shutil
import subprocess
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

Cli = Callable[..., Any]
ROOT = Path(__file__).resolve().parents[2]


def test_serve_rejects_a_bad_port(cli: Cli) -> None:
    run = cli("serve", "--port", "70000")
    assert run.code == 2
    [line] = run.err.strip().splitlines()
    assert "Invalid value for '--port'" in line


def test_serve_help_lists_the_routes(cli: Cli) -> None:
    run = cli("serve", "--help")
    assert run.code == 0
    assert "POST /api/search" in run.out
    assert "/api/chat/{chat_id}/request/{request_id}/reference/{index}" in run.out


def _declared() -> bool:
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"].get("scripts", {})
    return scripts.get("unified-search") == "unified_search.cli.app:main"


@pytest.mark.skipif(not _declared(), reason="pyproject.toml does not declare the script yet")
def test_installed_console_script_runs() -> None:
    points = importlib.metadata.entry_points(group="console_scripts", name="unified-search")
    assert [p.value for p in points] == ["unified_search.cli.app:main"]
    script = shutil.which("unified-search")
    assert script is not None
    done = subprocess.run([script, "--version"], capture_output=True, text=True, check=False)
    assert done.returncode == 0
    assert done.stdout.startswith("unified-search, version ")
