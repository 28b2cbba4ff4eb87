"""Reading files into documents, in process (the subprocess tests cover the command)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from unified_search.cli import loaders
from unified_search.cli.loaders import load_paths
from unified_search.samples.knowledge import SAMPLE_COLLECTION, sample_documents


def test_markdown_title_is_its_first_heading_and_ids_are_resolved_paths(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("intro line\n# The Title\n\nbody\n")
    (tmp_path / "plain-notes.txt").write_text("no heading here")
    loaded = load_paths([tmp_path])
    by_title = {doc["title"]: doc for doc in loaded.documents}
    assert set(by_title) == {"The Title", "plain notes"}
    assert by_title["The Title"]["id"] == str((tmp_path / "a.md").resolve())
    assert loaded.files == 2 and loaded.skipped == []


def test_html_keeps_visible_text_only(tmp_path: Path) -> None:
    page = tmp_path / "p.html"
    page.write_text(
        "<title>T &amp; C</title><style>p{}</style><p>Hello <b>there</b></p><script>x()</script>"
    )
    [doc] = load_paths([page]).documents
    assert doc["title"] == "T & C"
    assert doc["text"] == "Hello there"


def test_jsonl_ids_default_to_path_and_line(tmp_path: Path) -> None:
    file = tmp_path / "d.jsonl"
    file.write_text("\n".join([json.dumps({"text": "one"}), "", json.dumps({"text": 2})]))
    loaded = load_paths([file])
    assert [d["id"] for d in loaded.documents] == [f"{file.resolve()}#1"]
    assert loaded.skipped == [(f"{file}#3", 'needs a "text" string field')]


def test_explicit_unknown_types_are_skipped_but_ignored_inside_folders(tmp_path: Path) -> None:
    (tmp_path / "x.csv").write_text("a,b")
    assert load_paths([tmp_path]).skipped == []
    assert load_paths([tmp_path / "x.csv"]).skipped == [
        (str(tmp_path / "x.csv"), "unsupported file type .csv")
    ]


def test_pdf_without_pypdf_is_skipped_with_the_package_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "pypdf", None)  # import pypdf now fails
    pdf = tmp_path / "a.pdf"
    pdf.write_bytes(b"%PDF-1.4")
    assert load_paths([pdf]).skipped == [
        (str(pdf), 'reading PDF files needs pypdf: pip install "unified-search[pdf]"')
    ]


class FakePage:
    def __init__(self, text: str) -> None:
        self.text = text

    def extract_text(self) -> str:
        return self.text


class FakeReader:
    def __init__(self, path: Path) -> None:
        if path.read_bytes() != b"%PDF ok":
            raise KeyError("/Root")
        self.pages = [FakePage("page one"), FakePage("page two")]


def test_pdf_pages_are_read_with_pypdf_and_broken_pdfs_are_skipped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "pypdf", SimpleNamespace(PdfReader=FakeReader))
    (tmp_path / "good.pdf").write_bytes(b"%PDF ok")
    (tmp_path / "broken.pdf").write_bytes(b"%PDF broken")
    loaded = load_paths([tmp_path])
    assert [(d["title"], d["text"]) for d in loaded.documents] == [("good", "page one\n\npage two")]
    assert loaded.skipped == [(str(tmp_path / "broken.pdf"), "not a readable PDF: '/Root'")]


def test_every_reader_is_registered_by_suffix() -> None:
    assert set(loaders.READERS) == {".md", ".markdown", ".txt", ".html", ".htm", ".jsonl", ".pdf"}


def test_the_sample_knowledge_base_is_a_few_dozen_real_documents() -> None:
    docs = sample_documents()
    assert 30 <= len(docs) <= 60
    assert len({doc["id"] for doc in docs}) == len(docs)
    for doc in docs:
        words = len(doc["text"].split())
        assert 150 <= words <= 400, (doc["id"], words)
        assert doc["title"] and not doc["title"].startswith("#")
    assert SAMPLE_COLLECTION == "kestrel-help"
