"""``unified-search index`` and ``kb``: every file read or reported, a mirrored folder, then search."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

Cli = Callable[..., Any]


def make_corpus(root: Path) -> Path:
    docs = root / "docs"
    (docs / "nested").mkdir(parents=True)
    (docs / "returns.md").write_text(
        "---\ntitle: Returns policy\n---\n# Returns\n\nOpened earbuds can only be returned if faulty.\n"
    )
    (docs / "nested" / "shipping.txt").write_text("Standard shipping takes three to five days.\n")
    (docs / "nested" / "bulb.html").write_text(
        "<html><head><title>Bulb reset</title><script>alert('x')</script></head>"
        "<body><p>Switch the bulb off and on five times to reset it.</p></body></html>"
    )
    (docs / "warranty.rst").write_text("Warranty\n========\n\nTwo years on every product.\n")
    (docs / "CHANGELOG").write_text("Version 2 adds gift wrapping.\n")
    (docs / "faq.jsonl").write_text(
        json.dumps({"id": "faq-1", "title": "Gift cards", "text": "Gift cards last three years."})
        + "\nnot json at all\n"
    )
    (docs / "latin1.txt").write_bytes("caf\xe9 cr\xe8me".encode("latin-1"))
    (docs / "image.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    (docs / "core").write_bytes(b"\x7fELF\x00\x00binary")
    return docs


def summary(out: str) -> dict[str, int]:
    found = re.search(
        r"(\d+) files \((\d+) new or changed, (\d+) unchanged, (\d+) removed\), (\d+) skipped", out
    )
    assert found, out
    keys = ("files", "changed", "unchanged", "removed", "skipped")
    return dict(zip(keys, map(int, found.groups()), strict=True))


def test_index_reports_every_file_mirrors_the_folder_and_searches_relative_names(
    cli: Cli, tmp_path: Path
) -> None:
    docs = make_corpus(tmp_path)
    first = cli("index", str(docs), "--collection", "help")
    assert first.code == 1, first.err  # two files could not be read: partial
    assert summary(first.out) == {
        "files": 9, "changed": 6, "unchanged": 0, "removed": 0, "skipped": 4
    }  # fmt: skip
    for line in (
        "passed over 2 file(s): 1 binary content (no file type to read it as), "
        "1 unsupported file type .png",
        "not indexed (2):",
        "latin1.txt: not UTF-8 text (byte 0xe9 at offset 3)",
        "faq.jsonl#2: not JSON",
    ):
        assert line in first.out, first.out
    assert "image.png" not in first.out and "core:" not in first.out
    assert str(docs) not in first.out  # files are named relative to the indexed folder

    again = cli("index", str(docs), "--collection", "help")
    # faq.jsonl had a bad line: it is read (and reported) again, its good record not re-embedded
    assert summary(again.out) == {
        "files": 9, "changed": 1, "unchanged": 5, "removed": 0, "skipped": 4
    }  # fmt: skip
    assert "0 chunks embedded" in again.out
    quiet = cli("index", str(docs), "--collection", "help", "--quiet")
    assert quiet.code == 1 and quiet.out == ""  # only the files not indexed, on stderr
    assert quiet.err.splitlines() == [
        "not indexed (2):",
        "  faq.jsonl#2: not JSON (Expecting value)",
        "  latin1.txt: not UTF-8 text (byte 0xe9 at offset 3)",
    ]

    (docs / "nested" / "shipping.txt").unlink()
    (docs / "returns.md").write_text("# Returns\n\nReturns are accepted within 30 days.\n")
    mirrored = cli("index", str(docs), "--collection", "help")
    assert summary(mirrored.out)["removed"] == 1
    listed = cli("kb", "list", "help")
    assert "nested/shipping.txt" not in listed.out and "returns.md" in listed.out
    assert "warranty.rst" in listed.out and "CHANGELOG" in listed.out and "faq-1" in listed.out

    found = cli("search", "how do I reset the bulb", "--type", "kb", "--collection", "help",
                "--format", "json")  # fmt: skip
    assert found.code == 0, found.err
    references = json.loads(found.out)["references"]
    assert references[0]["title"] == "Bulb reset"
    assert references[0]["document_id"] == "nested/bulb.html"
    assert "alert" not in references[0]["content"]  # script text is not indexed
    assert str(tmp_path) not in found.out
    table = cli("search", "reset the bulb", "--type", "kb", "--collection", "help")
    assert "nested/bulb.html (help)" in table.out

    unknown = cli("search", "bulb", "--type", "kb", "--collection", "halp")
    assert unknown.code == 2
    assert "unknown collection 'halp'; existing collections: help" in unknown.err


def test_kb_remove_check_and_drop(cli: Cli, tmp_path: Path) -> None:
    docs = make_corpus(tmp_path)
    cli("index", str(docs), "--collection", "help", "-q")
    removed = cli("kb", "remove", "nested", str(docs / "warranty.rst"), "nowhere.md",
                  "--collection", "help")  # fmt: skip
    assert removed.code == 1, removed.err  # one path matched nothing
    assert "removed 3 documents (3 chunks) from help" in removed.out
    assert "nothing indexed matches nowhere.md" in removed.err
    listed = cli("kb", "list", "help").out
    assert "bulb.html" not in listed and "warranty" not in listed and "returns.md" in listed
    check = cli("kb", "check", "help")
    assert check.code == 0 and "help: 3 chunks, consistent" in check.out
    refused = cli("kb", "drop", "help")
    assert refused.code == 2 and "--yes" in refused.err
    dropped = cli("kb", "drop", "help", "--yes")
    assert dropped.code == 0, dropped.err
    assert "help" not in cli("kb", "list").out


def test_index_with_nothing_readable_is_bad_input(cli: Cli, tmp_path: Path) -> None:
    (tmp_path / "pictures").mkdir()
    (tmp_path / "pictures" / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00")
    run = cli("index", str(tmp_path / "pictures"), "--collection", "help")
    assert run.code == 2
    assert run.err.strip().splitlines()[-1] == (
        "unified-search: error: nothing to index: 1 path(s) skipped, 0 files read"
    )


def test_index_refuses_a_bad_collection_name(cli: Cli, tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("# A\n\ntext\n")
    run = cli("index", str(tmp_path / "a.md"), "--collection", "no spaces allowed")
    assert run.code == 2
    assert "is not a collection name" in run.err
    assert len(run.err.strip().splitlines()) == 1


def test_a_deep_jsonl_and_a_wide_csv_cost_only_themselves(cli: Cli, tmp_path: Path) -> None:
    """Beside 41 documents, each file past a ``kb.limits`` bound is skipped with it: exit 1."""
    docs = tmp_path / "docs"
    docs.mkdir()
    for i in range(41):
        (docs / f"doc{i:02}.md").write_text(f"# Doc {i}\n\nPassage {i} about batteries.\n")
    (docs / "deep.jsonl").write_text("[" * 100_000 + "\n")
    (docs / "wide.csv").write_text("title,text\nbig," + "x" * 200_000 + "\nok,fine\n")
    done = cli("index", str(docs), "--collection", "hostile")
    assert done.code == 1, done.err
    # deep.jsonl is read (its one line refused); wide.csv is not
    assert summary(done.out) == {
        "files": 43, "changed": 42, "unchanged": 0, "removed": 0, "skipped": 2
    }  # fmt: skip
    assert "41 chunks embedded" in done.out
    assert "deep.jsonl#1: nested deeper than 64 levels (kb.limits.max_depth)" in done.out
    assert "wide.csv: row 1: a field longer than 131,072 characters" in done.out
    assert "unexpected" not in done.err
