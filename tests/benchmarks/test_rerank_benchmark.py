"""``benchmarks/rerank.py`` runs end to end on a tiny BEIR-format set (a smoke run, seconds)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TINY = ROOT / "tests" / "fixtures" / "beir" / "tiny"


def test_the_rerank_benchmark_compares_every_system_in_one_run(tmp_path: Path) -> None:
    out = tmp_path / "rerank.json"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "shared"), str(ROOT)])}
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "rerank.py"), "--data", str(TINY),
         "--latency-queries", "1", "--json", str(out)],
        capture_output=True, text=True, env=env, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    written = json.loads(out.read_text(encoding="utf-8"))
    systems = written["systems"]
    assert "unified-search weighted (default)" in systems
    rewrites = {
        n: r["common_word_rewrites"] for n, r in systems.items() if "common_word_rewrites" in r
    }
    # Only the design's any-case table reads "go" (an unjudged query of the set) as Golang.
    assert rewrites == {
        "design synonyms (names in any case)": 1,
        "unified-search synonyms (names as written)": 0,
    }
    measured = [name for name, row in systems.items() if "ndcg@10" in row]
    # Only the cross-encoder needs a model the run was not given: it is absent, with why.
    assert set(written["absent"]) == {"unified-search cross_encoder"}
    assert "unified-search embedding" in measured
    assert all(0.0 <= systems[name]["ndcg@10"] <= 1.0 for name in measured)
    assert "| system | nDCG@10 |" in done.stdout
