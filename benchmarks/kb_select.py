"""Choose the knowledge-base default on some queries and confirm it on others.

Usage: python benchmarks/kb_select.py --scifact PATH --nfcorpus PATH [--cache DIR] [--json OUT]

The procedure, fixed before looking at the confirming queries:

1. Choosing sets: SciFact ``train`` and the half of nfcorpus ``dev`` whose query IDs
   hash even (sha256, last hex digit). Confirming sets: SciFact ``test`` and the other
   nfcorpus half. Nothing else is tuned on the confirming sets.
2. Every candidate setting in ``CANDIDATES`` (one grid, the same constants for every
   dataset) and every peer of ``benchmarks/kb.py`` run on all sets in one run.
3. On each set the best peer is the one with the highest nDCG@10. A candidate's
   score is its mean nDCG@10 lead over the best peer across the choosing sets; a
   candidate whose recall@100 falls more than 0.005 below the best peer's on any
   choosing set is out.
4. The highest-scoring candidate is the default; its confirming figures are
   reported beside the old default's, whatever they are.

The current default (``unified-search (default)``, no settings given) runs beside the
candidates on every set, so the JSON shows whether it is still the one chosen.
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from kb import DEFAULT, PEERS, Run, evaluate
from report import ABSENT, absent, write_json

RECALL_SLACK = 0.005
#: The default before this selection (dense weight 0.6, no feedback), given explicitly.
OLD_DEFAULT = {"min_similarity": 0.0, "hybrid": {"dense_weight": 0.6, "feedback_docs": 0}}


def _grid() -> dict[str, dict[str, Any]]:
    """Dense feedback: chunks and weight (one pass on 2 shared cores takes a minute or more)."""
    grid: dict[str, dict[str, Any]] = {"old default": OLD_DEFAULT}
    settings = [(3, weight, 0.6, 0) for weight in (0.3, 0.5, 0.8)]
    settings += [(docs, 0.5, 0.6, 0) for docs in (5, 10)]
    for docs, weight, dense, prf in settings:
        name = f"fb{docs} fbw{weight} w{dense} prf{prf}"
        grid[name] = {
            "min_similarity": 0.0,
            "hybrid": {
                "feedback_docs": docs,
                "feedback_weight": weight,
                "dense_weight": dense,
                "prf_docs": prf,
                "prf_weight": 0.3,
            },
        }
    return grid


CANDIDATES = _grid()


def half(qid: str) -> int:
    return int(hashlib.sha256(qid.encode()).hexdigest()[-1], 16) % 2


def fold(run: Run, keep: set[str]) -> dict[str, float]:
    ids = [q for q in run.ndcg if q in keep]
    return {
        "ndcg@10": statistics.fmean(run.ndcg[q] for q in ids),
        "recall@100": statistics.fmean(run.recall[q] for q in ids),
    }


def sets(
    scifact: Path, nfcorpus: Path, cache: Path | None
) -> tuple[dict[str, dict[str, Any]], dict[str, str]]:
    """Per set (choose/…, confirm/…): every system's nDCG@10 and recall@100; and the systems
    that could not run, with why."""
    out: dict[str, dict[str, Any]] = {}
    pipelines = {DEFAULT: {}, **CANDIDATES}
    tables, runs, _ = evaluate(
        scifact, ["train", "test"], pipelines, cache=cache, reuse_queries=True
    )
    missing = not_run(tables)
    for split, role in (("train", "choose"), ("test", "confirm")):
        out[f"{role}/scifact-{split}"] = {n: fold(r, set(r.ndcg)) for n, r in runs[split].items()}
    tables, runs, _ = evaluate(nfcorpus, ["dev"], pipelines, cache=cache, reuse_queries=True)
    missing |= not_run(tables)
    for part, role in ((0, "choose"), (1, "confirm")):
        keep = {q for q in next(iter(runs["dev"].values())).ndcg if half(q) == part}
        out[f"{role}/nfcorpus-dev-half{part}"] = {n: fold(r, keep) for n, r in runs["dev"].items()}
    return out, missing


def not_run(tables: dict[str, dict[str, Any]]) -> dict[str, str]:
    return {
        n: row[ABSENT] for table in tables.values() for n, row in table.items() if ABSENT in row
    }


def lead(found: dict[str, Any], name: str) -> tuple[float, float]:
    peer = max((p for p in PEERS if p in found), key=lambda p: found[p]["ndcg@10"])
    return (
        found[name]["ndcg@10"] - found[peer]["ndcg@10"],
        found[name]["recall@100"] - found[peer]["recall@100"],
    )


def choose(results: dict[str, dict[str, Any]]) -> tuple[str, dict[str, float]]:
    scores: dict[str, float] = {}
    for name in CANDIDATES:
        gaps = [lead(found, name) for key, found in results.items() if key.startswith("choose")]
        if all(recall >= -RECALL_SLACK for _, recall in gaps):
            scores[name] = statistics.fmean(ndcg for ndcg, _ in gaps)
    best = max(scores, key=lambda n: scores[n])
    return best, scores


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scifact", type=Path, required=True)
    parser.add_argument("--nfcorpus", type=Path, required=True)
    parser.add_argument("--cache", type=Path)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    results, missing = sets(args.scifact, args.nfcorpus, args.cache)
    best, scores = choose(results)
    print("candidate (mean nDCG@10 lead over the best peer on the choosing sets):")
    for name, score in sorted(scores.items(), key=lambda kv: -kv[1])[:15]:
        print(f"  {name:32} {score:+.4f}")
    print(f"\nchosen: {best} = {CANDIDATES[best]}")
    for name in (best, "old default"):
        print(f"\n{name}: lead over the best peer (nDCG@10, recall@100)")
        for key, found in results.items():
            ndcg, recall = lead(found, name)
            print(f"  {key:34} {found[name]['ndcg@10']:.4f} {ndcg:+.4f} {recall:+.4f}")
    if args.json:
        rows = json_rows(results, scores) | {name: absent(why) for name, why in missing.items()}
        write_json(args.json, rows, chosen=best, candidates=CANDIDATES)
    return 0


def json_rows(
    results: dict[str, dict[str, Any]], scores: dict[str, float]
) -> dict[str, dict[str, float]]:
    """Every system's figures on every set; candidates as ``unified-search (<candidate>)``."""
    rows: dict[str, dict[str, float]] = {}
    for key, found in results.items():
        for name, figures in found.items():
            row = rows.setdefault(f"unified-search ({name})" if name in CANDIDATES else name, {})
            row.update({f"{key} {metric}": value for metric, value in figures.items()})
    for name, score in scores.items():
        rows[f"unified-search ({name})"]["score"] = score
    return rows


if __name__ == "__main__":
    raise SystemExit(main())
