"""Reading files: every format, titles and front matter, and every file left out with its reason."""

from __future__ import annotations

import io
import json
import os
import re
import sys
from pathlib import Path

import pytest

from unified_search.config.kb import LimitsConfig
from unified_search.kb import readers, titles
from unified_search.kb.files import DirectoryReader, SourceFile, walk
from unified_search.kb.readers import Unreadable

LIMITS = LimitsConfig()
FENCED = "```sh\n# install it\npip install x\n```\n"


@pytest.mark.parametrize(
    ("content", "title", "body_starts"),
    [
        ("---\ntitle: From YAML\ntags: [a, b]\n---\n# Heading\n\nText", "From YAML", "# Heading"),
        ('+++\ntitle = "From TOML"\n+++\nText', "From TOML", "Text"),
        (FENCED + "\n# Real title\n\nText", "Real title", "```sh"),
        ("~~~\n# not me\n~~~\n## Second level\n\nText", "Second level", "~~~"),
        ("Intro\n\n## Sub\n\n# Top\n", "Top", "Intro"),
        ("Setext title\n============\n\nText", "Setext title", "Setext"),
        ("---\n\nA rule, not front matter\n\n---\n\nText", "fallback name", "---"),
        ("---\n: [broken yaml\n\n---\nText", "fallback name", "---"),
        ("---\n- a list\n\n---\nText", "fallback name", "---"),
        ("\ufeff---\ntitle: With BOM\n---\nText", "With BOM", "Text"),
        ("no heading at all", "fallback name", "no heading"),
    ],
)
def test_markdown_titles_and_front_matter(content: str, title: str, body_starts: str) -> None:
    found = titles.markdown(content, "fallback name")
    assert found.title == title
    assert found.text.startswith(body_starts)
    assert "title:" not in found.text and "title =" not in found.text


def test_front_matter_fields_become_filterable_metadata() -> None:
    found = titles.markdown(
        "---\ntitle: T\ntags: [setup, cli]\ndraft: false\nweight: 3\ndate: 2024-05-01\n"
        "nested: {a: 1}\nempty:\n---\nBody",
        "x",
    )
    assert found.metadata == {
        "tags": "setup, cli",
        "draft": False,
        "weight": 3,
        "date": "2024-05-01",
        "nested": "{'a': 1}",
    }
    assert found.text == "Body"


@pytest.mark.parametrize(
    ("content", "title"),
    [
        ("==============\nOver and under\n==============\n\nText", "Over and under"),
        (".. note:: directive\n\nSection\n-------\n\nText", "Section"),
        ("Intro text::\n\n    code\n    ----\n\nReal\n~~~~\n", "Real"),
        ("Too long a title\n===\n\nText", "fallback"),
    ],
)
def test_rst_titles(content: str, title: str) -> None:
    assert titles.restructured(content, "fallback").title == title


def test_html_title_then_first_h1_and_main_text_only() -> None:
    page = b"<html><body><nav>Home | Docs</nav><h1>Getting <b>started</b></h1><p>Run it.</p></body></html>"
    [parsed] = readers.read_html(page, "fallback", LIMITS)
    assert parsed.title == "Getting started"
    assert "Run it." in parsed.text and "Home | Docs" not in parsed.text
    [titled] = readers.read_html(b"<title>T &amp; C</title><h1>H</h1><p>x</p>", "f", LIMITS)
    assert titled.title == "T & C"


FIXTURES = Path(__file__).parents[2] / "fixtures" / "kb"


def test_pdf_text_and_metadata_title() -> None:
    [parsed] = readers.read_pdf((FIXTURES / "report.pdf").read_bytes(), "fallback", LIMITS)
    assert parsed.title == "Annual report" and "Revenue grew" in parsed.text
    [untitled] = readers.read_pdf((FIXTURES / "untitled.pdf").read_bytes(), "file name", LIMITS)
    assert untitled.title == "file name"
    with pytest.raises(Unreadable, match="not a readable PDF"):
        readers.read_pdf(b"%PDF-1.4 broken", "x", LIMITS)


def docx_bytes(core_title: str, heading: str) -> bytes:
    docx = pytest.importorskip("docx", reason="the docx extra is not installed")
    document = docx.Document()
    document.core_properties.title = core_title
    document.add_heading(heading, level=1)
    document.add_paragraph("Paragraph text.")
    table = document.add_table(rows=1, cols=2)
    table.rows[0].cells[0].text, table.rows[0].cells[1].text = "Size", "42"
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def test_docx_paragraphs_tables_and_titles() -> None:
    [parsed] = readers.read_docx(docx_bytes("Core title", "Heading one"), "f", LIMITS)
    assert parsed.title == "Core title"
    assert "Paragraph text." in parsed.text and "Size | 42" in parsed.text
    [by_heading] = readers.read_docx(docx_bytes("", "Heading one"), "f", LIMITS)
    assert by_heading.title == "Heading one"
    with pytest.raises(Unreadable, match=r"not a readable \.docx"):
        readers.read_docx(b"PK\x03\x04 not a zip", "x", LIMITS)


def test_optional_parsers_name_their_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "docx", None)
    monkeypatch.setitem(sys.modules, "pypdf", None)
    file_ = SourceFile(Path("/nowhere/a.docx"), "a.docx")
    with pytest.raises(Unreadable, match=r"unified-search\[docx\]"):
        from unified_search.kb.files import parse_file

        parse_file(file_, b"PK")
    with pytest.raises(Unreadable, match=r"unified-search\[pdf\]"):
        parse_file(SourceFile(Path("/nowhere/a.pdf"), "a.pdf"), b"%PDF")


def test_jsonl_records_and_csv_rows() -> None:
    lines = [
        json.dumps({"id": 7, "title": "Seven", "text": "seventh", "lang": "en"}),
        "",
        json.dumps({"text": "no id"}),
        "not json",
        json.dumps({"text": 3}),
    ]
    parsed = readers.read_jsonl("\n".join(lines).encode(), "faq", LIMITS)
    assert [(p.part, p.title) for p in parsed[:2]] == [("7", "Seven"), ("3", "faq #3")]
    assert parsed[0].metadata == {"lang": "en"}
    assert [p.metadata["error"] for p in parsed[2:]] == [
        "not JSON (Expecting value)",
        'needs a "text" string field',
    ]
    rows = readers.read_csv(b"name;price\nAurora;99\nStudio;\n", "products", LIMITS)
    assert [(r.title, r.text) for r in rows] == [
        ("Aurora", "name: Aurora\nprice: 99"),
        ("Studio", "name: Studio"),
    ]


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"caf\xe9", "not UTF-8 text (byte 0xe9 at offset 3)"),
        (b"text\x00with nul", "binary content"),
    ],
)
def test_text_that_is_not_utf8_text_is_refused(data: bytes, reason: str) -> None:
    with pytest.raises(Unreadable, match=re.escape(reason)):
        readers.read_markdown(data, "x", LIMITS)


def test_files_without_suffix_are_text_or_refused_as_binary() -> None:
    assert readers.reader_for("", b"plain words")[0] == "text"
    with pytest.raises(Unreadable, match="binary content"):
        readers.reader_for("", b"\x7fELF\x00\x01")
    with pytest.raises(Unreadable, match=r"unsupported file type \.png"):
        readers.reader_for(".png", b"\x89PNG")


def test_every_common_format_has_a_reader() -> None:
    assert {".md", ".markdown", ".txt", ".rst", ".html", ".pdf", ".docx", ".jsonl", ".csv"} <= set(
        readers.READERS
    )


def make_tree(root: Path) -> Path:
    folder = root / "docs"
    (folder / "guides").mkdir(parents=True)
    (folder / "guides" / "install.md").write_text("# Install\n\npip install it\n")
    (folder / "notes.txt").write_text("notes")
    (folder / "empty.md").write_text("")
    (folder / "big.txt").write_text("x" * 2048)
    (folder / ".git").mkdir()
    (folder / ".git" / "HEAD").write_text("ref")
    (folder / "drafts").mkdir()
    (folder / "drafts" / "wip.md").write_text("wip")
    (root / "secret.txt").write_text("outside")
    (folder / "escape.txt").symlink_to(root / "secret.txt")
    (folder / "again.md").symlink_to(folder / "notes.txt")
    (folder / "up").symlink_to(folder)
    (folder / "loop").symlink_to(folder / "loop")
    (folder / "dangling").symlink_to(folder / "missing")
    return folder


def test_walk_reports_links_loops_hidden_and_excluded_files(tmp_path: Path) -> None:
    folder = make_tree(tmp_path)
    found = walk([folder, tmp_path / "missing"], exclude=["drafts"])
    assert sorted(f.name for f in found.files) == [
        "big.txt",
        "empty.md",
        "guides/install.md",
        "notes.txt",
    ]
    assert all(f.path.is_absolute() for f in found.files)
    assert {(s.path, s.reason) for s in found.skipped} == {
        (".git/", "hidden (name starts with '.')"),
        ("up/", "link to a folder already indexed here"),
        ("again.md", "link to a file indexed at its own place"),
        ("escape.txt", "link to a file outside the indexed folder"),
        ("loop", "symbolic link loop"),
        ("dangling", "broken symbolic link"),
        (str(tmp_path / "missing"), "no such file or folder"),
    }


def test_directory_reader_loads_documents_and_lists_what_it_left_out(tmp_path: Path) -> None:
    folder = make_tree(tmp_path)
    reader = DirectoryReader(folder, max_file_bytes=1024, exclude=["drafts/*"])
    docs = {d.id: d for d in reader.load()}
    assert set(docs) == {"guides/install.md", "notes.txt"}
    assert docs["guides/install.md"].title == "Install"
    assert docs["guides/install.md"].source == "guides/install.md"
    assert docs["notes.txt"].metadata == {"file_type": "text"}
    reasons = {s.path: s.reason for s in reader.skipped}
    assert reasons["empty.md"] == "empty file"
    assert reasons["big.txt"] == "larger than 1 kB (2 kB)"
    assert "drafts/wip.md" not in reasons  # excluded on purpose: not a problem to report


async def test_aload_matches_load(tmp_path: Path) -> None:
    folder = make_tree(tmp_path)
    assert await DirectoryReader(folder).aload() == DirectoryReader(folder).load()


def test_unreadable_and_special_files_are_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    locked = tmp_path / "locked.md"
    locked.write_text("secret")
    os.mkfifo(tmp_path / "pipe")  # reading it would block forever
    real = Path.read_bytes

    def read_bytes(self: Path) -> bytes:  # root reads whatever the mode bits say
        if self.name == "locked.md":
            raise PermissionError(13, "Permission denied", str(self))
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    reader = DirectoryReader(tmp_path)
    assert reader.load() == []
    assert {(s.path, s.reason) for s in reader.skipped} == {
        ("locked.md", "permission denied"),
        ("pipe", "not a regular file (a pipe, socket or device)"),
    }


def test_a_file_named_alone_is_named_by_its_file_name(tmp_path: Path) -> None:
    folder = make_tree(tmp_path)
    [doc] = DirectoryReader(folder / "guides" / "install.md").load()
    assert doc.id == "install.md"
    longer = list(SourceFile(folder / "guides" / "install.md", "install.md").names())
    assert longer[:3] == ["install.md", "guides/install.md", "docs/guides/install.md"]


def test_a_file_under_two_given_paths_is_read_once(tmp_path: Path) -> None:
    folder = make_tree(tmp_path)
    found = walk([folder, folder / "guides", folder / "guides" / "install.md"])
    assert [f.name for f in found.files].count("guides/install.md") == 1
    assert "install.md" not in [f.name for f in found.files]


def test_the_kb_package_exports_its_ingestion_api() -> None:
    import unified_search.kb as kb

    assert kb.__all__ == sorted(kb.__all__)
    assert all(getattr(kb, name).__name__ == name for name in kb.__all__)
    with pytest.raises(AttributeError):
        kb.nothing  # noqa: B018
