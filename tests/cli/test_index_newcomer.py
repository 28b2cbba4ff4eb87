"""A newcomer's first index: an ordinary docs folder succeeds quietly, a typo creates nothing."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from unified_search.config import SearchConfig
from unified_search.kb.handler import KBHandler

Cli = Callable[..., Any]


def ordinary_docs(root: Path) -> Path:
    """What a system documentation folder holds: documents, pictures, a binary, empty files."""
    docs = root / "docs"
    (docs / "img").mkdir(parents=True)
    for n in range(4):
        (docs / f"page-{n}.md").write_text(f"# Page {n}\n\nHow to configure part {n}.\n")
    (docs / "README").write_text("Read the pages in order.\n")
    for n in range(5):
        (docs / "img" / f"figure-{n}.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    (docs / "img" / "diagram.svgz").write_bytes(b"\x1f\x8b\x08\x00")
    (docs / "tool").write_bytes(b"\x7fELF\x02\x01\x01\x00binary")
    (docs / "EMPTY.txt").write_text("")
    (docs / ".hidden.md").write_text("# Hidden\n\nnot read\n")
    return docs


def test_an_ordinary_docs_folder_exits_0_with_one_line_for_what_was_passed_over(
    cli: Cli, tmp_path: Path
) -> None:
    run = cli("index", str(ordinary_docs(tmp_path)), "--collection", "manual")
    assert run.code == 0, run.out + run.err
    passed = [line for line in run.out.splitlines() if line.startswith("passed over")]
    assert len(passed) == 1, run.out
    assert "passed over 9 file(s): 5 unsupported file type .png" in passed[0]
    assert "1 binary content" in passed[0] and "1 empty file" in passed[0]
    assert "figure-" not in run.out and "not indexed" not in run.out
    assert len(run.out.strip().splitlines()) == 2


def test_quiet_is_quiet(cli: Cli, tmp_path: Path) -> None:
    run = cli("index", str(ordinary_docs(tmp_path)), "--collection", "manual", "--quiet")
    assert run.code == 0 and run.out == "" and run.err == ""


@pytest.mark.parametrize("problem", ["too large", "broken link"])
def test_a_file_that_cannot_be_read_still_exits_1_and_is_named(
    cli: Cli, tmp_path: Path, problem: str
) -> None:
    docs = ordinary_docs(tmp_path)
    if problem == "too large":
        (docs / "huge.md").write_text("# Huge\n\n" + "word " * 300_000)
        reason = "huge.md: larger than 1 MB"
    else:
        (docs / "gone.md").symlink_to(docs / "deleted.md")
        reason = "gone.md: broken symbolic link"
    run = cli("index", str(docs), "--collection", "manual", "--max-file-mb", "1")
    assert run.code == 1, run.out + run.err
    assert "not indexed (1):" in run.out and reason in run.out, run.out
    quiet = cli("index", str(docs), "--collection", "manual", "--max-file-mb", "1", "-q")
    assert quiet.code == 1 and quiet.out == "" and reason in quiet.err


def test_a_missing_path_is_bad_input_and_creates_nothing(cli: Cli, tmp_path: Path) -> None:
    run = cli("index", "/nope", "--collection", "notes")
    assert run.code == 2
    assert run.err.strip() == (
        "unified-search: error: no such file or folder: /nope (nothing was indexed)"
    )
    assert not (tmp_path / "home").exists()  # no data folder, no collection
    assert "notes" not in cli("kb", "list").out


class Flat:
    """A stand-in embedding: every text the same vector (nothing is searched here)."""

    name = "flat-8"

    def __call__(self, texts: list[str]) -> list[list[float]]:
        return [[1.0] + [0.0] * 7 for _ in texts]


async def test_a_missing_path_raises_from_python_and_creates_no_collection(
    tmp_path: Path,
) -> None:
    docs = ordinary_docs(tmp_path)
    config = SearchConfig.load(profile={"kb": {"data_dir": str(tmp_path / "kb")}})
    kb = KBHandler.from_config(config, embedding=Flat())
    try:
        with pytest.raises(FileNotFoundError) as missing:
            await kb.aindex_paths("typo", [docs, tmp_path / "nope"])
        assert missing.value.filename == str(tmp_path / "nope")
        assert "typo" not in await kb.alist_collections()
        report = await kb.aindex_paths("manual", [docs])
        assert report.changed == 5
    finally:
        await kb.aclose()


def test_piped_progress_says_what_each_stage_did(cli: Cli, tmp_path: Path) -> None:
    run = cli("index", str(ordinary_docs(tmp_path)), "--collection", "manual")
    lines = [line for line in run.err.splitlines() if line.strip()]
    # A short run used to show only "0/N (0%)" lines: each stage now says when it is done.
    assert any(
        re.fullmatch(r"reading files: 13/13 \(100%\), .* done in [\d.]+ s", line) for line in lines
    ), lines
    assert any(re.match(r"embedding chunks: 5/5 \(100%\), .* done in", line) for line in lines), (
        lines
    )
