"""``benchmarks/hostile.py`` on small attacks: it runs, writes the standard JSON, and says what happened."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "hostile.py"


def test_the_hostile_benchmark_smoke_run(tmp_path: Path) -> None:
    out = tmp_path / "hostile.json"
    env = {k: v for k, v in os.environ.items() if not k.startswith("UNIFIED_SEARCH_")}
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--smoke", "--stall-seconds", "2", "--json", str(out)],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    systems = json.loads(out.read_text())["systems"]
    ours = systems["unified-search (default)"]
    peer = systems["uvicorn (httptools, no deadlines)"]
    assert ours["files_raised"] == 0
    assert {ours[f"{f}_skipped"] for f in ("deep_jsonl", "wide_csv", "bomb_docx")} <= {0, 1}
    assert ours["wide_csv_skipped"] == ours["bomb_docx_skipped"] == 1
    assert (ours["index_exit_code"], ours["index_documents"]) == (1, ours["index_of_documents"])
    assert ours["stalled_connections_closed"] == ours["stalled_connections"] == 20
    assert peer["stalled_connections_closed"] == 0 and ours["stall_searches"] > 0
    assert ours["unicode_digit_indices_answered_4xx"] == 4
    assert ours["invisible_query_status"] == 422
    assert ours["planted_record_view_exit_code"] == 0
    assert ours["planted_record_raw_controls_printed"] == 0
    assert ours["full_disk_storage_full_reported"] == 1
    assert ours["full_disk_network_error_reported"] == 0
    assert ours["full_disk_records_dropped_and_logged"] > 0
    assert ours["dropped_collection_not_found"] == 1
