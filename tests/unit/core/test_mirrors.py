"""One reference per document: mirrors merge, look-alike documents never do."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from unified_search.config.search import Weights
from unified_search.engine.identifiers import document_identity, unwrap
from unified_search.engine.merge import merge
from unified_search.engine.mirrors import merge_mirrors
from unified_search.types import ResultItem, SearchResult, SearchType, Source

ROOT = Path(__file__).resolve().parents[3]
FIXTURE = json.loads((ROOT / "tests/fixtures/mirrors/mirror_sets.json").read_text())
SCHOLARLY = [
    s for s in FIXTURE["sets"] if s["id"].split(":")[0] in {"arxiv", "doi", "pmid", "pmcid"}
]


def web(url: str, score: float = 0.5, **fields: Any) -> ResultItem:
    return ResultItem(type=SearchType.WEB, url=url, score=score, **fields)


@pytest.mark.parametrize("entry", SCHOLARLY, ids=[s["id"] for s in SCHOLARLY])
def test_every_address_of_a_paper_names_its_identifier(entry: dict[str, Any]) -> None:
    assert {document_identity(url) for url in entry["urls"]} == {entry["id"]}


@pytest.mark.parametrize("entry", FIXTURE["sets"], ids=[s["id"] for s in FIXTURE["sets"]])
def test_each_mirror_set_collapses_without_losing_an_address(entry: dict[str, Any]) -> None:
    items = [web(**fields) for fields in entry.get("items", [])] or [web(u) for u in entry["urls"]]
    merged = merge_mirrors(items)
    listed = {u for item in merged for u in [item.url, *item.metadata.get("mirrors", [])]}
    assert listed == {item.url for item in items}
    if entry["id"].split(":")[0] in {"arxiv", "doi", "pmid", "pmcid"} or "items" in entry:
        assert len(merged) == 1


@pytest.mark.parametrize("urls", FIXTURE["distinct_urls"], ids=lambda urls: urls[0])
def test_look_alike_documents_stay_apart(urls: list[str]) -> None:
    assert len(merge_mirrors([web(u) for u in urls])) == len(urls)
    assert len({document_identity(u) for u in urls}) == len(urls)


def test_distinct_sets_never_merge_with_each_other() -> None:
    items = [
        web(**fields) if "items" in entry else web(fields)
        for entry in FIXTURE["sets"]
        for fields in entry.get("items", entry.get("urls"))
    ]
    merged = merge_mirrors(items)
    owners = [
        {
            n
            for n, entry in enumerate(FIXTURE["sets"])
            for f in entry.get("items", entry.get("urls"))
            if (f["url"] if isinstance(f, dict) else f) in [m.url, *m.metadata.get("mirrors", [])]
        }
        for m in merged
    ]
    assert all(len(found) == 1 for found in owners)


def test_the_kept_result_is_the_best_at_the_first_place_and_https_is_shown() -> None:
    items = [
        web("http://arxiv.org/abs/1706.03762", score=0.2),
        web("https://example.org/other", score=0.9),
        web("https://arxiv.org/pdf/1706.03762v2", score=0.8, weight=1.0),
        web("https://arxiv.org/abs/1706.03762", score=0.1),
    ]
    merged = merge_mirrors(items)
    assert [i.url for i in merged] == [
        "https://arxiv.org/pdf/1706.03762v2",
        "https://example.org/other",
    ]
    assert merged[0].metadata["mirrors"] == [
        "http://arxiv.org/abs/1706.03762",
        "https://arxiv.org/abs/1706.03762",
    ]


def test_near_identical_text_merges_only_when_long_enough() -> None:
    story = " ".join(f"word{n}" for n in range(60))
    assert (
        len(
            merge_mirrors(
                [
                    web("https://a.example/x", content=story),
                    web("https://b.example/y", content="(AP) " + story),
                ]
            )
        )
        == 1
    )
    short = "Tram fares rise by ten cents from June."
    assert (
        len(
            merge_mirrors(
                [
                    web("https://a.example/x", content=short),
                    web("https://b.example/y", content=short),
                ]
            )
        )
        == 2
    )


def test_only_web_results_are_mirrors() -> None:
    text = " ".join(f"word{n}" for n in range(60))
    url = "https://arxiv.org/abs/1706.03762"
    items = [
        ResultItem(type=SearchType.KB, content=text, document_id="a", collection="c", url=url),
        ResultItem(type=SearchType.KB, content=text, document_id="b", collection="c", url=url),
        ResultItem(type=SearchType.DB, content=text, record_id="1", model="papers", url=url),
        web(url, content=text),
    ]
    assert merge_mirrors(items) == items


def test_the_engine_merges_mirrors_found_by_two_requests() -> None:
    results = [
        SearchResult(
            type=SearchType.WEB,
            query="q",
            source=Source.USER,
            items=[web("https://doi.org/10.1038/s41586-020-2649-2", 0.4)],
        ),
        SearchResult(
            type=SearchType.WEB,
            query="q",
            source=Source.AUTO,
            items=[web("https://www.nature.com/articles/s41586-020-2649-2", 0.9)],
        ),
    ]
    [item] = merge(results, Weights())
    assert item.url == "https://doi.org/10.1038/s41586-020-2649-2" and item.source is Source.USER
    assert item.metadata["mirrors"] == ["https://www.nature.com/articles/s41586-020-2649-2"]


@pytest.mark.parametrize(
    ("url", "page"),
    [
        ("https://www.google.com/amp/s/example.com/a/b", "https://example.com/a/b"),
        ("https://example-com.cdn.ampproject.org/v/s/example.com/a?amp=1", "https://example.com/a"),
        ("http://m.example.com:8080/a/amp/", "http://example.com:8080/a/"),
        ("https://mobile.de/a", "https://mobile.de/a"),
        (
            "https://example.com/campus/amplify.html?x=1",
            "https://example.com/campus/amplify.html?x=1",
        ),
    ],
)
def test_unwrap(url: str, page: str) -> None:
    assert unwrap(url) == page


def test_mirror_benchmark_smoke_run(tmp_path: Path) -> None:
    out = tmp_path / "mirrors.json"
    env = {"PYTHONPATH": f"{ROOT / 'shared'}:{ROOT}", "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "mirrors.py"), "--json", str(out)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    ours = json.loads(out.read_text())["systems"]["unified-search (default)"]
    assert ours["distinct_pairs_merged"] == 0 and ours["mirror_pairs_merged"] > 0.9


@pytest.mark.parametrize(
    ("url", "identity"),
    [
        ("https://europepmc.org/search?query=x", "url:europepmc.org/search?query=x"),
        ("https://www.ncbi.nlm.nih.gov/books/NBK1234/", "url:ncbi.nlm.nih.gov/books/NBK1234"),
        ("https://doi.org/not-a-doi", "url:doi.org/not-a-doi"),
        ("https://arxiv.org/list/cs.CL/recent", "url:arxiv.org/list/cs.CL/recent"),
        ("http://example.com:99999/a", "url:example.com/a"),
        ("https://example.org/paper?doi=10.1000%2Fxyz.123", "doi:10.1000/xyz.123"),
    ],
)
def test_identities_of_other_shapes(url: str, identity: str) -> None:
    assert document_identity(url) == identity


def _pairwise_groups(items: list[ResultItem]) -> set[frozenset[str]]:
    """The groups every pair compared by brute force would make (the definition itself)."""
    from unified_search.engine.mirrors import COMPARED_CHARS, SAME_TEXT, _jaccard, _triples

    texts = {i: t for i, item in enumerate(items) if (t := _triples(item.content[:COMPARED_CHARS]))}
    group = {i: {i} for i in range(len(items))}
    for a in texts:
        for b in texts:
            if a < b and _jaccard(texts[a], texts[b]) >= SAME_TEXT and group[a] is not group[b]:
                joined = group[a] | group[b]
                for member in joined:
                    group[member] = joined
    return {frozenset(str(items[i].url) for i in g) for g in map(frozenset, group.values())}


@pytest.mark.parametrize("seed", range(6))
def test_text_merging_finds_exactly_the_pairs_a_full_comparison_finds(seed: int) -> None:
    import random

    rng = random.Random(seed)
    vocabulary = [f"w{n}" for n in range(60)]
    bases = [[rng.choice(vocabulary) for _ in range(rng.randint(45, 90))] for _ in range(8)]
    items = []
    for n in range(60):
        words = list(rng.choice(bases))
        for _ in range(rng.choice([0, 0, 1, 2, 4, 12])):  # a few edits, or many
            words[rng.randrange(len(words))] = rng.choice(vocabulary)
        items.append(web(f"https://site{n}.example/a", content=" ".join(words)))
    found = {frozenset([str(i.url), *i.metadata.get("mirrors", [])]) for i in merge_mirrors(items)}
    assert found == _pairwise_groups(items)


def test_many_copies_of_one_text_become_one_reference() -> None:
    text = "the same syndicated story about batteries and their care " * 8
    items = [web(f"https://paper{n}.example/story", content=text) for n in range(3000)]
    (kept,) = merge_mirrors(items)
    assert len(kept.metadata["mirrors"]) == 2999
