"""Every figure a page shows is read from the results the benchmarks wrote, never typed by hand."""

from __future__ import annotations

import importlib.util
import itertools
import json
import re
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _figures() -> ModuleType:
    spec = importlib.util.spec_from_file_location("figures", ROOT / "benchmarks" / "figures.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


figures = _figures()


def test_every_page_shows_the_figures_of_the_results() -> None:
    assert figures.stale(figures.pages()) == []


def test_pages_hold_figure_blocks() -> None:
    text = "".join(page.read_text(encoding="utf-8") for page in figures.pages())
    assert text.count("<!-- figures ") >= 1


@pytest.mark.parametrize("path", sorted((ROOT / "benchmarks" / "results").glob("*.json")), ids=str)
def test_every_results_file_has_the_standard_shape(path: Path) -> None:
    systems = figures.load(path.stem, path.parent)
    assert systems and any(name.startswith("unified-search") for name in systems)


@pytest.fixture
def results(tmp_path: Path) -> Path:
    data = {
        "systems": {
            "peer": {"ndcg": 0.61, "ms": 9.0},
            "unified-search (default)": {"ndcg": 0.7403, "ms": 8.7},
            "unified-search-dense": {"ndcg": 0.58},
        }
    }
    (tmp_path / "kb.json").write_text(json.dumps(data))
    return tmp_path


def test_a_table_is_sorted_best_first_with_the_default_in_bold(results: Path) -> None:
    spec = {
        "results": "kb",
        "columns": [["nDCG@10", "ndcg", ".3f"], ["ms", "ms", ".1f"]],
        "sort": "nDCG@10",
    }
    assert figures.table(spec, results).splitlines() == [
        "| system | nDCG@10 | ms |",
        "|---|---|---|",
        "| **unified-search (default)** | 0.740 | 8.7 |",
        "| peer | 0.610 | 9.0 |",
        "| unified-search-dense | 0.580 | – |",
    ]


def test_ascending_columns_and_chosen_systems(results: Path) -> None:
    spec = {
        "results": "kb",
        "columns": [["ms", "ms", ".1f"]],
        "systems": "^unified",
        "sort": "ms",
        "ascending": ["ms"],
    }
    rows = figures.table(spec, results).splitlines()[2:]
    assert rows == ["| **unified-search (default)** | 8.7 |", "| unified-search-dense | – |"]
    with pytest.raises(KeyError, match="nobody"):
        figures.table({"results": "kb", "columns": [], "systems": ["nobody"]}, results)


def test_blocks_are_rewritten_from_the_results_and_stale_ones_found(
    results: Path, tmp_path: Path
) -> None:
    spec = '{"results": "kb", "system": "peer", "metric": "ms", "format": ".1f"}'
    page = tmp_path / "page.md"
    page.write_text(f"took <!-- figure {spec} -->1.0<!-- /figure --> ms\n")
    assert figures.stale([page], results) == [str(page)]
    assert (
        figures.render(page.read_text(), results)
        == f"took <!-- figure {spec} -->9.0<!-- /figure --> ms\n"
    )


def test_a_results_file_of_another_shape_is_refused(tmp_path: Path) -> None:
    (tmp_path / "bad.json").write_text(json.dumps({"rows": [1, 2]}))
    with pytest.raises(ValueError, match="shape"):
        figures.load("bad", tmp_path)


#: A figure typed into a table: a number standing alone in a cell, not part of a name.
_TYPED = re.compile(r"(?<![\w.-])\d[\d,.]*%?(?![\w-])")


def _typed_figures(text: str) -> list[str]:
    """Table rows of ``text`` showing a number that no figure block wrote."""
    outside = figures.VALUE.sub("", figures.TABLE.sub("", text))
    lines = outside.splitlines()
    rows = [line for line in lines if line.startswith("|") and not line.startswith("|---")]
    headers = {above for above, below in itertools.pairwise(lines) if below.startswith("|---")}
    return [row for row in rows if row not in headers and _TYPED.search(row)]


def test_no_figure_of_the_benchmarks_page_is_typed_by_hand() -> None:
    page = ROOT / "docs" / "benchmarks.md"
    assert _typed_figures(page.read_text(encoding="utf-8")) == []


def test_a_figure_typed_by_hand_is_found() -> None:
    value = '<!-- figure {"results": "kb"} -->0.74<!-- /figure -->'
    text = (
        "<!-- figures {} -->\n| a |\n|---|\n| 0.1 |\n<!-- /figures -->\n\n"
        f"| system | p50 ms |\n|---|---|\n| ours | {value} |\n| spider-unseen2 | 12.5 |\n"
    )
    assert _typed_figures(text) == ["| spider-unseen2 | 12.5 |"]
