"""The grounding benchmark runs end to end on a tiny BEIR folder and writes the standard JSON."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TINY = ROOT / "tests" / "fixtures" / "scifact-tiny"


def test_grounding_benchmark_smoke_run(tmp_path: Path) -> None:
    out = tmp_path / "grounding.json"
    env = {"PYTHONPATH": f"{ROOT / 'shared'}:{ROOT}", "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "grounding.py"),
            "--data",
            str(TINY),
            "--fit",
            "--json",
            str(out),
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    systems = json.loads(out.read_text())["systems"]
    ours = systems["unified-search (default) scifact-tiny"]
    peer = systems["id-existence (LangChain/LlamaIndex) scifact-tiny"]
    assert ours["cases"] > 0 and ours["caught"] >= 0.5 and peer["caught"] == 0
    assert "BIAS, LEXICAL_WEIGHT, EMBEDDING_WEIGHT" in done.stdout
