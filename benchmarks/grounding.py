"""Claim-level citation checks against what LangChain and LlamaIndex check (the cited ID exists).

Usage: python benchmarks/grounding.py --data PATH [--data PATH ...] [--queries N]
       [--json OUT] [--fit] [--mirrors PATH]

Each PATH is a BEIR folder (corpus.jsonl, queries.jsonl, qrels/). Answers are built
from its real references (``grounding_cases.py``): a sentence of a relevant
document, taken or reworded, cited correctly, cited to a random document, cited to
a document on the same topic, or not cited. Each dataset is split in two by a hash
of the query ID: the ``tune`` half chose the evidence weights and the threshold
(``--fit`` prints them, from the tune halves of every dataset given, so no default
comes from one dataset), the ``report`` half is what the tables show.

Figures, per dataset (report half):

- ``unsupported_precision``: of the cited sentences flagged unsupported, the share
  that was cited to a wrong reference;
- ``caught``, ``caught_hard``: the share of misattributions flagged (random wrong
  reference; wrong reference on the same topic); ``unsupported_recall`` both together;
- ``false_flags``: the share of correct citations flagged;
- ``uncited_found``: uncited claims flagged ``uncited``; ``openers_flagged``: sentences
  stating nothing (one opens every answer) flagged as anything but ``no_claim``;
- ``ms_per_sentence``: wall time of the checks over the sentences checked (half of them
  openers, which cost next to nothing); ``ms_per_claim`` over the claims alone.

``unified-search lexical only`` is the same check without the embedding model
(``embedding=None``), to show what the model adds. The peer (``id-existence``) flags a citation only when its ID matches no reference,
which is all ``CitationOutputParser`` in LangChain or ``CitationQueryEngine``'s
citations in LlamaIndex can say: every ID here exists, so it flags nothing.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from grounding_cases import KINDS, Case, cases, load, stable
from report import write_json

from unified_search.citations import parse_citations
from unified_search.citations.verify import CitationVerifier
from unified_search.contract.checks import Verdict

Checker = Callable[[Case], str]
WRONG = ("wrong", "wrong_hard")


def half(qid: str) -> str:
    return "tune" if stable("half", qid) % 2 == 0 else "report"


def dataset_cases(path: Path, limit: int) -> dict[str, list[Case]]:
    """The cases of every split of ``path``, by half (``tune`` / ``report``)."""
    found: dict[str, list[Case]] = defaultdict(list)
    for split in sorted(f.stem for f in (path / "qrels").glob("*.tsv")):
        corpus, queries, relevant = load(path, split)
        for case in cases(corpus, queries, relevant, limit):
            found[half(case.query)].append(case)
    return found


def peer(case: Case) -> str:
    found = parse_citations(case.answer, references=case.references)
    if found.unknown:
        return Verdict.UNKNOWN_ID.value
    return Verdict.SUPPORTED.value if found.ids else Verdict.NO_CLAIM.value


def run(checker: CitationVerifier, batch: Sequence[Case]) -> tuple[list[list[str]], float]:
    """Every answer's verdicts and the seconds taken."""
    verdicts = []
    started = time.perf_counter()
    for case in batch:
        report = checker.check(case.answer, case.references)
        verdicts.append([s.verdict.value for s in report.sentences])
    return verdicts, time.perf_counter() - started


def figures(batch: Sequence[Case], verdicts: Sequence[Sequence[str]]) -> dict[str, float]:
    said = [
        v[c.sentence] if len(v) > c.sentence else "missing"
        for c, v in zip(batch, verdicts, strict=False)
    ]
    openers = [v[0] if v else "missing" for v in verdicts]

    def share(label: str | tuple[str, ...], verdict: str) -> float:
        labels = (label,) if isinstance(label, str) else label
        picked = [s for c, s in zip(batch, said, strict=False) if c.label in labels]
        return round(sum(s == verdict for s in picked) / len(picked), 4) if picked else math.nan

    flagged = [
        c for c, s in zip(batch, said, strict=False) if c.label != "uncited" and s == "unsupported"
    ]
    precision = sum(c.label in WRONG for c in flagged) / len(flagged) if flagged else math.nan
    return {
        "unsupported_precision": round(precision, 4),
        "unsupported_recall": share(WRONG, "unsupported"),
        "caught": share("wrong", "unsupported"),
        "caught_hard": share("wrong_hard", "unsupported"),
        "false_flags": share("correct", "unsupported"),
        "uncited_found": share("uncited", "uncited"),
        "openers_flagged": round(sum(o != "no_claim" for o in openers) / len(openers), 4),
        "cases": len(batch),
    }


def measure(name: str, batch: list[Case], checker: CitationVerifier) -> dict[str, dict[str, float]]:
    checker.check(batch[0].answer, batch[0].references)  # load the model before timing
    verdicts, seconds = run(checker, batch)
    sentences = sum(len(v) for v in verdicts)
    claims = sum(v != Verdict.NO_CLAIM.value for found in verdicts for v in found)
    ours = figures(batch, verdicts) | {
        "ms_per_sentence": round(seconds * 1000 / sentences, 3),
        "ms_per_claim": round(seconds * 1000 / claims, 3),
    }
    theirs = figures(batch, [[Verdict.NO_CLAIM.value, peer(c)] for c in batch])
    lexical, lexical_seconds = run(CitationVerifier(embedding=None), batch)
    alone = figures(batch, lexical) | {
        "ms_per_sentence": round(lexical_seconds * 1000 / sentences, 3),
        "ms_per_claim": round(lexical_seconds * 1000 / claims, 3),
    }
    systems = {
        f"unified-search (default) {name}": ours,
        f"unified-search lexical only {name}": alone,
        f"id-existence (LangChain/LlamaIndex) {name}": theirs,
    }
    for kind in KINDS:
        picked = [i for i, c in enumerate(batch) if c.kind == kind]
        if picked:
            part = figures([batch[i] for i in picked], [verdicts[i] for i in picked])
            systems[f"unified-search (default) {name} [{kind}]"] = part
    return systems


def table(systems: dict[str, dict[str, float]]) -> str:
    columns = [
        "unsupported_precision",
        "unsupported_recall",
        "caught",
        "caught_hard",
        "false_flags",
        "uncited_found",
        "openers_flagged",
        "ms_per_sentence",
        "ms_per_claim",
        "cases",
    ]
    lines = ["| system | " + " | ".join(columns) + " |", "|---|" + "---:|" * len(columns)]
    for name, row in systems.items():
        cells = [f"{row[c]:g}" if c in row else "" for c in columns]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(paths: Sequence[Path], limit: int, fit: bool) -> dict[str, dict[str, float]]:
    by_path = {path: dataset_cases(path, limit) for path in paths}
    checker = CitationVerifier()
    if fit:
        from grounding_fit import fit_weights

        print(fit_weights(checker, {path.name: found["tune"] for path, found in by_path.items()}))
    systems: dict[str, dict[str, float]] = {}
    for path, found in by_path.items():
        if found["report"]:
            systems |= measure(path.name, found["report"], checker)
    return systems


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, action="append", required=True)
    parser.add_argument("--queries", type=int, default=10_000, help="queries per split at most")
    parser.add_argument("--fit", action="store_true", help="fit the weights on the tune halves")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    result = main(args.data, args.queries, args.fit)
    print(table(result))
    if args.json:
        write_json(args.json, result)
