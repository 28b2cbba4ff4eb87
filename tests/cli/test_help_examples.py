"""Every example in ``--help`` runs, in order, against what ``unified-search demo`` makes.

The examples run as a user pastes them into a shell: a fresh home folder (so the data
folder is the default ``~/.local/share/unified-search``), no API keys, and a local
SearXNG stand-in for the few examples that search the web.
"""

from __future__ import annotations

import os
import re
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from unified_search.cli.app import COMMANDS

#: A line of a help text that is a command to run (an example, or the start-up hints).
EXAMPLE = re.compile(r"^\s+(?:Start with:|Then:)?\s*(unified-search\s.+?)\s*$")
#: Groups whose subcommands have help texts of their own.
GROUPS = {"kb": ("list", "remove", "drop", "check"), "cache": ("stats", "clear")}
_PRIVATE = ("UNIFIED_SEARCH_", "TAVILY_", "SERPER_", "SERPAPI_", "BRAVE_", "EXA_", "SEARXNG_")


def shell(home: Path, searx_url: str, command: str) -> subprocess.CompletedProcess[str]:
    bin_dir = home / "bin"
    environ = {k: v for k, v in os.environ.items() if not k.startswith(_PRIVATE)}
    environ |= {
        "HOME": str(home),
        "PATH": f"{bin_dir}{os.pathsep}{environ.get('PATH', '')}",
        "SEARXNG_URL": searx_url,
        "COLUMNS": "200",
    }
    return subprocess.run(
        ["bash", "-c", command], capture_output=True, text=True, env=environ, timeout=600
    )


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A home folder whose ``unified-search`` runs this checkout's code."""
    folder = tmp_path_factory.mktemp("newcomer")
    script = folder / "bin" / "unified-search"
    script.parent.mkdir()
    script.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m unified_search.cli "$@"\n')
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    yield folder


def examples(home: Path, searx_url: str) -> list[str]:
    """Every example, in the order of ``unified-search --help`` and then of its commands."""
    names = [[], *([name] for name in COMMANDS)]
    names += [[group, sub] for group, subs in GROUPS.items() for sub in subs]
    found: list[str] = []
    for words in names:
        shown = shell(home, searx_url, " ".join(["unified-search", *words, "--help"]))
        assert shown.returncode == 0, shown.stderr
        found += [m.group(1) for line in shown.stdout.splitlines() if (m := EXAMPLE.match(line))]
    return found


def test_every_help_example_runs_against_the_demos_data(home: Path, searx: Any) -> None:
    found = examples(home, searx.url)
    assert len(found) >= 20 and found[0] == "unified-search demo"
    data = home / ".local" / "share" / "unified-search"
    failures = []
    for command in found:
        done = shell(home, searx.url, command)
        if done.returncode != 0:
            failures.append(f"{command}\n  exit {done.returncode}: {done.stderr.strip()[-600:]}")
    assert not failures, "\n".join(failures)
    assert (data / "demo" / "shop.db").is_file() and (data / "demo" / "docs").is_dir()
