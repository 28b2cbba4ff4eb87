"""The nl2dsl benchmark runs end to end on tiny inputs and judges Spider answers by execution."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[3]
BENCH = ROOT / "benchmarks"
TINY = ROOT / "tests" / "fixtures" / "spider-tiny"
sys.path.insert(0, str(BENCH))

import nl2dsl_spider as spider  # noqa: E402
from nl2dsl_systems import OURS, PEER, Answer  # noqa: E402


def _bench(tmp_path: Path, *args: str) -> tuple[str, dict[str, Any]]:
    out = tmp_path / "figures.json"
    paths = [str(ROOT / "shared"), str(ROOT), os.environ.get("PYTHONPATH", "")]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in paths if p)}
    done = subprocess.run(
        [sys.executable, str(BENCH / "nl2dsl.py"), *args, "--json", str(out)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    figures: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return done.stdout, figures


def test_spider_folder_smoke_run(tmp_path: Path) -> None:
    """A Spider folder given as schema.sql runs; the question with an empty gold result is skipped."""
    shown, figures = _bench(tmp_path, "--spider", str(TINY))
    systems = figures["systems"]
    assert set(systems) == {OURS, PEER}
    for metrics in systems.values():
        assert metrics["questions"] == 4
        assert metrics["right"] + metrics["wrong"] + metrics["refused"] == pytest.approx(1)
    assert systems[OURS]["right"] > systems[PEER]["right"]
    assert "| spider-tiny | held-out | tiny_zoo |" in shown
    assert figures["absent"] == {}
    for metrics in systems.values():  # each database's figures, for tables per database
        assert metrics["questions[spider-tiny/tiny_zoo]"] == 4
        shares = [metrics[f"{k}[spider-tiny/tiny_zoo]"] for k in ("right", "wrong", "refused")]
        assert sum(shares) == pytest.approx(1)
        assert metrics["right[spider-tiny/tiny_zoo]"] == metrics["right"]


def test_spider_folder_with_built_databases(tmp_path: Path) -> None:
    """A folder that already holds ``<db>.sqlite`` files is read as it is."""
    folder = tmp_path / "spider"
    shutil.copytree(TINY, folder)
    home = folder / "database" / "tiny_zoo"
    with sqlite3.connect(home / "tiny_zoo.sqlite") as conn:
        conn.executescript((home / "schema.sql").read_text(encoding="utf-8"))
    conn.close()
    (home / "schema.sql").unlink()
    _, figures = _bench(tmp_path, "--spider", str(folder), "--show-misses")
    assert figures["systems"][OURS]["questions"] == 4


def test_owner_style_smoke_run(tmp_path: Path) -> None:
    """One owner-style file runs on SQLite beside the peer."""
    shown, figures = _bench(tmp_path, "--part", "heldout", "--schema", "hr", "--postgres", "")
    assert figures["systems"][OURS]["questions"] > 0
    assert "| held-out | hr | sqlite |" in shown


def _question(gold: list[tuple[Any, ...]], *, ordered: bool = False, figures: bool = False) -> Any:
    return spider.Question("db", "q", gold, ordered, figures)


@pytest.mark.parametrize(
    ("gold", "answer", "outcome"),
    [
        ([("ann",), ("bo",)], [[1, "ann", 30], [2, "bo", 41]], "right"),
        ([("ann",), ("bo",)], [[1, "ann", 30]], "wrong"),  # a gold row missing
        ([("ann",)], [[1, "ann", 30], [2, "bo", 41]], "wrong"),  # a row too many
        ([("ann",), ("ann",)], [[1, "ann", 30], [7, "ann", 52]], "right"),  # repeated rows
        ([(3.0,)], [[3.0]], "right"),
    ],
)
def test_spider_answers_hold_the_gold_rows(
    gold: list[tuple[Any, ...]], answer: list[list[Any]], outcome: str
) -> None:
    assert spider.grade(_question(gold), Answer("values", answer)) == outcome


def test_spider_order_counts_when_the_gold_orders() -> None:
    gold = [("bo",), ("ann",)]
    backwards = Answer("values", [["ann"], ["bo"]])
    assert spider.grade(_question(gold, ordered=True), backwards) == "wrong"
    assert spider.grade(_question(gold), backwards) == "right"


def test_spider_figures_are_not_read_from_table_rows() -> None:
    """A row that happens to hold the count is no answer to "how many"."""
    row = Answer("rows", {("animal", "4")}, values=[[4, "pip"]])
    assert spider.grade(_question([(4.0,)], figures=True), row) == "wrong"
    assert spider.grade(_question([(4.0,)], figures=True), Answer("refused")) == "refused"


TIED = [(("ann",), 0), (("bo",), 0), (("cy",), 2)]


@pytest.mark.parametrize(
    ("limit", "answer", "outcome"),
    [
        (1, [["bo"]], "right"),  # tied with the gold's first row
        (1, [["ann"]], "right"),
        (1, [["cy"]], "wrong"),
        (1, [["ann"], ["bo"]], "wrong"),  # one row was asked for
        (2, [["bo"], ["ann"]], "right"),
        (None, [["bo"], ["ann"], ["cy"]], "right"),
        (None, [["cy"], ["ann"], ["bo"]], "wrong"),
        (None, [["ann"], ["bo"]], "wrong"),
    ],
)
def test_spider_rows_of_equal_sort_keys_are_interchangeable(
    limit: int | None, answer: list[list[Any]], outcome: str
) -> None:
    gold = [row for row, _ in TIED][: limit or len(TIED)]
    question = spider.Question("db", "q", gold, True, False, TIED, limit)
    assert spider.grade(question, Answer("values", answer)) == outcome


def test_spider_gold_sort_keys_are_read_from_the_query(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    with sqlite3.connect(path) as conn:
        conn.executescript(
            "CREATE TABLE t (name TEXT, age INT);"
            "INSERT INTO t VALUES ('ann', 30), ('bo', 30), ('cy', 20);"
        )
        ranked = spider._ranked(conn, "SELECT name FROM t ORDER BY age DESC LIMIT 1")
        plain = spider._ranked(conn, "SELECT name FROM t UNION SELECT name FROM t ORDER BY name")
    conn.close()
    assert ranked is not None
    assert sorted(ranked)[:2] == [(("ann",), 0), (("bo",), 0)]
    assert ranked[-1] == (("cy",), 2)
    assert plain is None
