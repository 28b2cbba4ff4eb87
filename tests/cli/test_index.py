"""``unified-search index``: file types, skipped files, idempotent re-indexing, then search."""

from __future__ import annotations

import importlib.util
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

Cli = Callable[..., Any]
HAS_PYPDF = importlib.util.find_spec("pypdf") is not None


def make_corpus(root: Path) -> Path:
    docs = root / "docs"
    (docs / "nested").mkdir(parents=True)
    (docs / "returns.md").write_text(
        "# Returns\n\nOpened earbuds can only be returned if faulty.\n"
    )
    (docs / "nested" / "shipping.txt").write_text("Standard shipping takes three to five days.\n")
    (docs / "nested" / "bulb.html").write_text(
        "<html><head><title>Bulb reset</title><script>alert('x')</script></head>"
        "<body><p>Switch the bulb off and on five times to reset it.</p></body></html>"
    )
    (docs / "faq.jsonl").write_text(
        json.dumps({"id": "faq-1", "title": "Gift cards", "text": "Gift cards last three years."})
        + "\nnot json at all\n"
        + json.dumps({"title": "no text field"})
        + "\n"
    )
    (docs / "latin1.txt").write_bytes("caf\xe9 cr\xe8me".encode("latin-1"))
    (docs / "notes.pdf").write_bytes(b"%PDF-1.4 not really a pdf")
    (docs / "image.png").write_bytes(b"\x89PNG")  # unknown types inside folders are ignored
    return docs


def counts(line: str) -> dict[str, int]:
    found = re.search(r"(\d+) added or changed, (\d+) unchanged, (\d+) skipped", line)
    assert found, line
    added, unchanged, skipped = map(int, found.groups())
    return {"added": added, "unchanged": unchanged, "skipped": skipped}


def test_index_skips_bad_files_counts_them_and_reindexes_idempotently(
    cli: Cli, tmp_path: Path
) -> None:
    docs = make_corpus(tmp_path)
    missing = tmp_path / "missing.md"
    first = cli("index", str(docs), str(missing), "--collection", "help")
    assert first.code == 1, first.err  # something was skipped: partial
    # returns.md, shipping.txt, bulb.html, faq-1 from the JSON Lines file
    assert counts(first.out) == {"added": 4, "unchanged": 0, "skipped": 5}
    warnings = [line for line in first.err.splitlines() if line.startswith("warning: skipped")]
    assert len(warnings) == 5, first.err
    assert any("missing.md: no such file or folder" in w for w in warnings)
    assert any("latin1.txt: not UTF-8 text" in w for w in warnings)
    assert any("faq.jsonl#2: not JSON" in w for w in warnings)
    assert any('faq.jsonl#3: needs a "text" string field' in w for w in warnings)
    pdf = [w for w in warnings if "notes.pdf" in w]
    expected = "PDF needs pypdf" if not HAS_PYPDF else "not a readable PDF"
    assert len(pdf) == 1 and expected in pdf[0]

    again = cli("index", str(docs), "--collection", "help")
    assert counts(again.out) == {"added": 0, "unchanged": 4, "skipped": 4}
    assert "0 chunks embedded" in again.out

    (docs / "returns.md").write_text("# Returns\n\nReturns are accepted within 30 days.\n")
    changed = cli("index", str(docs / "returns.md"), "--collection", "help")
    assert changed.code == 0, changed.err
    assert counts(changed.out) == {"added": 1, "unchanged": 0, "skipped": 0}

    found = cli(
        "search",
        "how do I reset the bulb",
        "--type",
        "kb",
        "--collection",
        "help",
        "--format",
        "json",
    )
    assert found.code == 0, found.err
    references = json.loads(found.out)["references"]
    assert references[0]["title"] == "Bulb reset"
    assert "alert" not in references[0]["content"]  # script text is not indexed
    assert all(ref["collection"] == "help" for ref in references)

    unknown = cli("search", "bulb", "--type", "kb", "--collection", "halp")
    assert unknown.code == 2
    assert "unknown collection 'halp'; existing collections: help" in unknown.err


def test_index_with_nothing_readable_is_bad_input(cli: Cli, tmp_path: Path) -> None:
    run = cli("index", str(tmp_path / "nope"), "--collection", "help")
    assert run.code == 2
    assert run.err.strip().splitlines()[-1] == (
        "unified-search: error: nothing to index: 1 path(s) skipped, 0 documents read"
    )


def test_index_refuses_a_bad_collection_name(cli: Cli, tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("# A\n\ntext\n")
    run = cli("index", str(tmp_path / "a.md"), "--collection", "no spaces allowed")
    assert run.code == 2
    assert "is not a collection name" in run.err
    assert len(run.err.strip().splitlines()) == 1
