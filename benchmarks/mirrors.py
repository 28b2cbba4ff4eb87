"""One source across mirrors: how many mirror pairs merge, and how many distinct documents do.

Usage: python benchmarks/mirrors.py [--fixture PATH] [--json OUT]

The fixture (tests/fixtures/mirrors/mirror_sets.json) holds sets of addresses of one
document each, in the shapes the sites use (arXiv abstract, PDF and versions, DOI
resolvers and publishers, PubMed, PMC and Europe PMC, AMP wrappers and hosts, mobile
hosts, tracking parameters) and wire copy on two sites, plus groups of look-alike
addresses of different documents. Every address becomes a web result; the results
of all sets are merged at once, then each group of look-alikes on its own.

- ``mirror_pairs_merged``: pairs of addresses of one document that end in one reference;
- ``distinct_pairs_merged``: pairs of different documents merged into one (goal 0);
- ``references_per_document``: references left per document (1 is ideal).

Peers: ``exact URL`` is what LangChain's and LlamaIndex's retrievers do (an item is a
duplicate only with the very same address or text); ``canonical URL`` is unified-search's
deduplication alone (scheme, ``www.``, slashes, tracking parameters).
"""

from __future__ import annotations

import argparse
import itertools
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from report import write_json

from unified_search.dedup import dedup
from unified_search.engine.mirrors import merge_mirrors
from unified_search.types import ResultItem, SearchType

FIXTURE = (
    Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "mirrors" / "mirror_sets.json"
)
Merge = Callable[[Sequence[ResultItem]], list[ResultItem]]


def exact(items: Sequence[ResultItem]) -> list[ResultItem]:
    return list({(item.url, item.content): item for item in items}.values())


SYSTEMS: dict[str, Merge] = {
    "unified-search (default)": lambda items: merge_mirrors(dedup(items)),
    "unified-search canonical URL only": dedup,
    "exact URL (LangChain/LlamaIndex)": exact,
}


def set_items(entry: dict[str, Any], group: int) -> list[ResultItem]:
    found = entry.get("items") or [{"url": url} for url in entry["urls"]]
    return [
        ResultItem(type=SearchType.WEB, score=1.0 - 0.01 * n, metadata={"group": group}, **fields)
        for n, fields in enumerate(found)
    ]


def groups_of(merged: list[ResultItem], inputs: list[ResultItem]) -> list[list[int]]:
    """For each merged reference, the groups of the inputs it stands for.

    An input belongs to the reference that lists its address (as its own or a mirror),
    else to the one with its identity (``ResultItem.key``: deduplication keeps one).
    """
    owner: dict[str | None, int] = {}
    for n, item in enumerate(merged):
        for url in [item.url, *item.metadata.get("mirrors", [])]:
            owner.setdefault(url, n)
    by_key = {item.key: n for n, item in enumerate(merged)}
    found: list[list[int]] = [[] for _ in merged]
    for item in inputs:
        n = owner.get(item.url, by_key.get(item.key))
        if n is not None:
            found[n].append(item.metadata["group"])
    return found


def pairs(groups: list[int]) -> tuple[int, int]:
    """Pairs of one document and pairs of two documents among ``groups``."""
    same = sum(a == b for a, b in itertools.combinations(groups, 2))
    return same, len(groups) * (len(groups) - 1) // 2 - same


def evaluate(merge: Merge, fixture: dict[str, Any]) -> dict[str, float]:
    everything = [i for n, entry in enumerate(fixture["sets"]) for i in set_items(entry, n)]
    counts = [len(set_items(entry, 0)) for entry in fixture["sets"]]
    wanted = sum(n * (n - 1) // 2 for n in counts)
    merged = merge(everything)
    same = wrong = 0
    for members in groups_of(merged, everything):
        s, w = pairs(members)
        same, wrong = same + s, wrong + w
    for offset, urls in enumerate(fixture["distinct_urls"]):
        look_alikes = [
            ResultItem(type=SearchType.WEB, url=u, metadata={"group": 1000 + offset * 100 + k})
            for k, u in enumerate(urls)
        ]
        wrong += sum(pairs(g)[1] for g in groups_of(merge(look_alikes), look_alikes))
    return {
        "mirror_pairs_merged": round(same / wanted, 4),
        "distinct_pairs_merged": wrong,
        "references_per_document": round(len(merged) / len(fixture["sets"]), 3),
        "addresses": len(everything),
        "documents": len(fixture["sets"]),
    }


def main(path: Path) -> dict[str, dict[str, float]]:
    fixture = json.loads(path.read_text(encoding="utf-8"))
    return {name: evaluate(merge, fixture) for name, merge in SYSTEMS.items()}


def table(systems: dict[str, dict[str, float]]) -> str:
    columns = [
        "mirror_pairs_merged",
        "distinct_pairs_merged",
        "references_per_document",
        "addresses",
        "documents",
    ]
    lines = ["| system | " + " | ".join(columns) + " |", "|---|" + "---:|" * len(columns)]
    for name, row in systems.items():
        lines.append(f"| {name} | " + " | ".join(f"{row[c]:g}" for c in columns) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fixture", type=Path, default=FIXTURE)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    result = main(args.fixture)
    print(table(result))
    if args.json:
        write_json(args.json, result)
