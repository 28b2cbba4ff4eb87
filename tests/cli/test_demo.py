"""``unified-search demo``: two runs in one data folder; the second reuses the index."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from typing import Any

from unified_search.samples.knowledge import SAMPLE_COLLECTION, sample_documents


def index_line(out: str) -> str:
    [line] = [line for line in out.splitlines() if line.startswith(f"indexed {SAMPLE_COLLECTION}:")]
    return line


def index_seconds(out: str) -> float:
    found = re.search(r"in ([\d.]+) s$", index_line(out))
    assert found, out
    return float(found.group(1))


def test_first_run_indexes_every_sample_and_builds_the_database(demo_runs: Any) -> None:
    run = demo_runs.first
    assert run.code == 0, run.err
    total = len(sample_documents())
    assert f"{total} added or changed, 0 unchanged, 0 skipped" in index_line(run.out)
    assert f"created {demo_runs.home / 'demo' / 'shop.db'}" in run.out
    assert (demo_runs.home / "kb").is_dir() and (demo_runs.home / "search.sqlite3").is_file()


def test_second_run_reuses_the_index_and_the_database(demo_runs: Any) -> None:
    run = demo_runs.second
    assert run.code == 0, run.err
    total = len(sample_documents())
    assert f"0 added or changed, {total} unchanged, 0 skipped (0 chunks embedded" in index_line(
        run.out
    )
    assert f"reusing {demo_runs.home / 'demo' / 'shop.db'}" in run.out


def test_demo_prints_cited_references_from_both_sources_the_trace_and_the_context(
    demo_runs: Any,
) -> None:
    out = demo_runs.second.out
    references, _, rest = out.partition("Trace")
    assert "│ ref_001 │" in references
    assert "│ kb   │" in references and "│ db   │" in references
    assert "Aurora Wireless Headphones" in references  # the catalogue row
    assert "Which headphones should I buy?" in references  # the buying guide
    trace_rows = [
        line for line in rest.splitlines() if line.startswith("│ kb") or line.startswith("│ db")
    ]
    assert len(trace_rows) == 2 and all("completed" in row for row in trace_rows)
    context = out[out.index("<references>") : out.index("</references>")]
    assert context.count("<ref id=") == 6
    assert "<references>" in out and "</references>" in out


def test_demo_search_is_recorded(demo_runs: Any) -> None:
    found = re.search(r"^request id: ([0-9a-f]{32})$", demo_runs.second.out, re.MULTILINE)
    assert found, demo_runs.second.out
    shown = demo_runs.run("records", found.group(1))
    assert shown.code == 0, shown.err
    assert "wireless headphones under $100 with noise cancelling" in shown.out
    assert "Aurora Wireless Headphones" in shown.out


def test_a_search_of_the_sample_collection_is_recorded(demo_runs: Any) -> None:
    script = (
        "import sys; from unified_search.cli.app import run;"
        f"sys.exit(run(['search', 'return opened headphones', '--type', 'kb', '--collection',"
        f" {SAMPLE_COLLECTION!r}, '--format', 'json']))"
    )
    env = {**os.environ, "UNIFIED_SEARCH_HOME": str(demo_runs.home)}
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=300
    )
    assert done.returncode == 0, done.stderr
    response = json.loads(done.stdout)
    assert response["references"] and response["references"][0]["type"] == "kb"
    shown = demo_runs.run("records", response["request_id"])
    assert shown.code == 0, shown.err
    assert "return opened headphones" in shown.out
