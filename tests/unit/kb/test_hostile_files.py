"""Hostile files: each one costs only itself, within the ``kb.limits``; the files beside it are indexed."""

from __future__ import annotations

import io
import json
import os
import struct
import tracemalloc
import zipfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from unified_search.config import SearchConfig
from unified_search.config.kb import LimitsConfig
from unified_search.kb import readers
from unified_search.kb.files import DirectoryReader, SourceFile, parse_file
from unified_search.kb.handler import KBHandler
from unified_search.kb.readers import Unreadable

#: Small limits, so every bound is crossed by files of a few kilobytes.
SMALL = LimitsConfig(
    max_depth=16,
    max_line_bytes=4096,
    max_field_chars=2048,
    max_records=20,
    max_unpacked_bytes=1024 * 1024,
)
FIXTURES = Path(__file__).parents[2] / "fixtures" / "kb"
GOOD = {
    "battery.md": "# Battery\n\nThe Aurora battery lasts thirty hours.",
    "returns.txt": "Returns are accepted within thirty days of delivery.",
    "faq.jsonl": json.dumps({"id": "gift", "text": "Gift cards last three years."}) + "\n",
    "shop.csv": "name,price\nAurora,99\nStudio,149\n",
    "reset.html": "<title>Reset</title><p>Hold the button for ten seconds to reset.</p>",
    "warranty.rst": "Warranty\n========\n\nTwo years on every product.\n",
}
#: Document IDs the good files give.
GOOD_DOCUMENTS = {
    "battery.md",
    "returns.txt",
    "faq.jsonl#gift",
    "shop.csv#1",
    "shop.csv#2",
    "reset.html",
    "warranty.rst",
}


def docx_bytes(text: str = "Paragraph text.") -> bytes:
    docx = pytest.importorskip("docx", reason="the docx extra is not installed")
    document = docx.Document()
    document.add_paragraph(text)
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def zip_bomb(unpacked: int) -> bytes:
    """A .docx-named archive whose one member inflates to ``unpacked`` bytes of zeros."""
    out = io.BytesIO()
    with (
        zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive,
        archive.open("word/document.xml", "w", force_zip64=True) as member,
    ):
        block = b"\0" * 1024 * 1024
        for _ in range(unpacked // len(block)):
            member.write(block)
        member.write(b"\0" * (unpacked % len(block)))
    return out.getvalue()


def lying_sizes(data: bytes) -> bytes:
    """``data`` (a zip) with every member declaring 100 bytes: unzipping must stop there."""
    patched = bytearray(data)
    at = 0
    while (at := patched.find(b"PK\x01\x02", at)) >= 0:  # central directory entries
        struct.pack_into("<I", patched, at + 24, 100)
        at += 4
    return bytes(patched)


def nested(levels: int) -> Any:
    value: Any = "leaf"
    for _ in range(levels):
        value = [value]
    return value


def hostile_files(limits: LimitsConfig) -> dict[str, bytes]:
    """One file per attack, sized from ``limits`` so that each crosses its bound."""
    line, field, records = limits.max_line_bytes, limits.max_field_chars, limits.max_records
    good_line = json.dumps({"text": "fine"}).encode()
    report = (FIXTURES / "report.pdf").read_bytes()
    docx = docx_bytes()
    laughs = "---\na: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join([f'*{chr(97 + i)}'] * 9)}]\n" for i in range(8)
    )
    return {
        "deep.jsonl": b"[" * 100_000 + b"\n" + good_line,
        "deeper.jsonl": json.dumps({"text": "t", "x": nested(limits.max_depth + 1)}).encode(),
        "long-line.jsonl": b'{"text": "' + b"x" * line + b'"}\n' + good_line,
        "late-nul.jsonl": b'{"text": "' + b"a" * 9000 + b'\x00"}\n' + good_line,
        "latin1.jsonl": '{"text": "café"}\n'.encode("latin-1") + good_line,
        "surrogates.jsonl": b'{"text": "bad \\ud800 text", "title": "\\udfff", "id": "\\ud83d"}',
        "truncated.jsonl": b'{"text": "cut off',
        "nul.jsonl": b"\x00" * 16,
        "wide.csv": b"title,text\nbig," + b"x" * (field + 1) + b"\nok,fine\n",
        "long-line.csv": b"a,b\n" + b"x," * line + b"\n",
        "open-quote.csv": b'a,b\n"never closed,' + b"y\n" * (field // 2 + 1),
        "latin1.csv": "a,b\ncafé,crème\n".encode("latin-1"),
        "laughs.md": (laughs + "---\n# Laughs\n\nBody.").encode(),
        "deep-yaml.md": ("---\nx: " + "[" * 5000 + "]" * 5000 + "\n---\n# Deep\n\nBody.").encode(),
        "deep-toml.md": ("+++\nx = " + "[" * 5000 + "]" * 5000 + "\n+++\nBody.").encode(),
        "huge-front.md": ("---\nx: " + "y" * (field + 1) + "\n---\n# Huge\n\nBody.").encode(),
        "late-nul.txt": b"a" * 9000 + b"\x00 hidden",
        "invalid.txt": b"caf\xe9 \xff\xfe",
        "deep.html": b"<div>" * 100_000 + b"deep text",
        "open-comment.html": b"<p>x</p><!--" + b"a" * 100_000,
        "truncated.pdf": report[: len(report) // 2],
        "deep.pdf": b"%PDF-1.4\n1 0 obj\n" + b"[" * 50_000 + b"]" * 50_000 + b"\nendobj\n"
        b"trailer<</Root 1 0 R>>\n%%EOF",
        "garbage.pdf": b"%PDF-1.7\n" + bytes(range(256)) * 40,
        "bomb.docx": zip_bomb(limits.max_unpacked_bytes + 1),
        "lying.docx": lying_sizes(docx),
        "truncated.docx": docx[: len(docx) // 2],
        "not-zip.docx": b"PK\x03\x04 not a zip at all",
    } | (
        {  # past the default limit, these are 100,000 good records: a load, not an attack
            "many.jsonl": b"\n".join([good_line] * (records + 5)),
            "many-rows.csv": b"a,b\n" + b"x,y\n" * (records + 5),
        }
        if records <= 1000
        else {}
    )


def write(folder: Path, files: dict[str, bytes] | dict[str, str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, content in files.items():
        path = folder / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content)
    return folder


def kb_config(tmp_path: Path, limits: LimitsConfig) -> SearchConfig:
    profile = {"kb": {"data_dir": str(tmp_path / "kb"), "limits": limits.model_dump()}}
    return SearchConfig.load(profile=profile)


@pytest.mark.parametrize("limits", [SMALL, LimitsConfig()], ids=["small", "default"])
async def test_every_hostile_file_costs_only_itself(
    tmp_path: Path, make_embedding: Any, limits: LimitsConfig
) -> None:
    hostile = hostile_files(limits)
    folder = write(write(tmp_path / "docs", GOOD), hostile)
    kb = KBHandler.from_config(kb_config(tmp_path, limits), embedding=make_embedding())
    try:
        report = await kb.aindex_paths("mixed", [folder])
        listed = {d.id for d in await kb.alist_documents("mixed")}
    finally:
        await kb.aclose()
    assert listed >= GOOD_DOCUMENTS
    reasons = {s.path: s.reason for s in report.skipped}
    for name in hostile:  # each attack is reported, or read as far as it was fine
        assert any(p.partition("#")[0] == name for p in reasons) or any(
            d.partition("#")[0] == name for d in listed
        ), name
    expected = {
        "deep.jsonl#1": "max_line_bytes" if limits is SMALL else "max_depth",
        "deeper.jsonl#1": "kb.limits.max_depth",
        "long-line.jsonl#1": "kb.limits.max_line_bytes",
        "many.jsonl#21": "kb.limits.max_records",
        "latin1.jsonl#1": "not UTF-8 text (byte 0xe9)",
        "wide.csv": "kb.limits.max_field_chars",
        "long-line.csv": "kb.limits.max_line_bytes",
        "many-rows.csv#21": "kb.limits.max_records",
        "bomb.docx": "kb.limits.max_unpacked_bytes",
        "lying.docx": "not a readable .docx",
        "deep.pdf": "not a readable PDF",
        "truncated.pdf": "not a readable PDF",
    }
    for path, reason in expected.items():
        if path.startswith("many") and limits is not SMALL:
            continue
        assert reason in reasons.get(path, ""), (path, reasons.get(path))
    assert {"surrogates.jsonl#\ufffd", "laughs.md", "deep-yaml.md", "deep.html"} <= listed


async def test_one_deep_jsonl_and_one_wide_csv_beside_41_documents(
    tmp_path: Path, make_embedding: Any
) -> None:
    """The reported case: both files skipped with their reason, the 41 documents indexed."""
    docs = {f"doc{i:02}.md": f"# Doc {i}\n\nPassage number {i} about batteries." for i in range(41)}
    folder = write(tmp_path / "docs", docs)
    write(folder, {"deep.jsonl": b"[" * 100_000, "wide.csv": b"a,b\nx," + b"y" * 200_000})
    kb = KBHandler.from_config(kb_config(tmp_path, LimitsConfig()), embedding=make_embedding())
    try:
        report = await kb.aindex_paths("mixed", [folder])
        listed = await kb.alist_documents("mixed")
    finally:
        await kb.aclose()
    assert len(listed) == report.documents == 41
    assert {s.path for s in report.skipped} == {"deep.jsonl#1", "wide.csv"}


def test_a_20_mb_line_is_refused_without_being_decoded() -> None:
    """Reading it allocates a small fraction of the line: memory follows the limits, not the file."""
    data = b'{"text": "' + b"x" * 20_000_000 + b'"}\n' + json.dumps({"text": "ok"}).encode()
    tracemalloc.start()
    try:
        parsed = readers.read_jsonl(data, "big", LimitsConfig())
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert [p.text for p in parsed] == ["", "ok"]
    assert "kb.limits.max_line_bytes" in parsed[0].metadata["error"]
    assert peak < LimitsConfig().max_line_bytes


def test_a_csv_field_limit_is_set_only_while_reading() -> None:
    import csv

    before = csv.field_size_limit()
    rows = readers.read_csv(
        b"a,b\nx," + b"y" * 150_000 + b"\n", "wide", LimitsConfig(max_field_chars=200_000)
    )
    assert len(rows[0].text) > 150_000
    assert csv.field_size_limit() == before


#: Fragments hostile files are made of, mixed by hypothesis with random bytes.
FRAGMENTS = [
    b"[",
    b"{",
    b'{"text": "',
    b"\x00",
    b"\xff\xfe",
    b"\\ud800",
    b'"',
    b",",
    b"\n",
    b"---\n",
    b"+++\n",
    b"&a [*a, *a]",
    b"<div>",
    b"<!--",
    b"%PDF-1.4\n",
    b"obj <<",
    b"PK\x03\x04",
    b"\xed\xa0\x80",
]


@st.composite
def hostile_bytes(draw: st.DrawFn, sample: bytes) -> bytes:
    """A good ``sample`` cut, spliced with repeated fragments and random bytes."""
    cut = draw(st.integers(0, len(sample)))
    pieces = draw(
        st.lists(
            st.tuples(st.sampled_from(FRAGMENTS) | st.binary(max_size=16), st.integers(1, 3000)),
            max_size=4,
        )
    )
    middle = b"".join(fragment * times for fragment, times in pieces)
    return sample[:cut] + middle + sample[cut : cut + draw(st.integers(0, len(sample)))]


SAMPLES = {
    ".md": GOOD["battery.md"].encode(),
    ".rst": GOOD["warranty.rst"].encode(),
    ".jsonl": GOOD["faq.jsonl"].encode(),
    ".csv": GOOD["shop.csv"].encode(),
    ".html": GOOD["reset.html"].encode(),
    ".pdf": (FIXTURES / "report.pdf").read_bytes(),
    ".docx": b"",  # built when first needed (python-docx)
}


@pytest.mark.parametrize("suffix", sorted(SAMPLES))
def test_fuzzed_files_are_read_or_refused_never_raise(suffix: str) -> None:
    sample = SAMPLES[suffix] or docx_bytes()

    @settings(
        max_examples=40,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        database=None,
    )
    @given(data=hostile_bytes(sample))
    def check(data: bytes) -> None:
        file = SourceFile(Path(f"/fuzz/file{suffix}"), f"file{suffix}")
        try:
            read = parse_file(file, data, SMALL)
        except Unreadable as exc:
            assert str(exc)
            return
        docs, skipped = read.documents()
        assert len(docs) + len(skipped) <= SMALL.max_records + 1
        for doc in docs:  # every text can be hashed and stored
            doc.text.encode()
            doc.title.encode()
            doc.id.encode()

    check()


async def test_a_file_whose_name_is_not_utf8_is_skipped_the_rest_indexed(
    tmp_path: Path, make_embedding: Any
) -> None:
    folder = write(tmp_path / "docs", GOOD)
    (folder / os.fsdecode(b"caf\xe9.md")).write_text("# Cafe\n\nCoffee.")
    (folder / os.fsdecode(b"dir\xff")).mkdir()
    kb = KBHandler.from_config(kb_config(tmp_path, LimitsConfig()), embedding=make_embedding())
    try:
        report = await kb.aindex_paths("names", [folder])
        listed = {d.id for d in await kb.alist_documents("names")}
    finally:
        await kb.aclose()
    assert listed == GOOD_DOCUMENTS
    assert {(s.path, s.reason) for s in report.skipped} == {
        ("caf\ufffd.md", "its name is not UTF-8 text"),
        ("dir\ufffd/", "its name is not UTF-8 text"),
    }


@pytest.mark.parametrize(
    "error", [RecursionError("maximum recursion depth"), MemoryError(), KeyError("x"), ValueError()]
)
def test_whatever_a_parser_raises_costs_only_its_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, error: Exception
) -> None:
    """A parser's own failure on a file (a bug of its own included) skips that file with the error."""

    def broken(data: bytes, fallback: str, limits: LimitsConfig) -> list[readers.Parsed]:
        if b"trigger" in data:
            raise error
        return readers.read_markdown(data, fallback, limits)

    monkeypatch.setitem(readers.READERS, ".md", ("markdown", broken))
    folder = write(tmp_path / "docs", {"a.md": "# A\n\nfine", "b.md": "trigger", "c.md": "fine"})
    reader = DirectoryReader(folder)
    assert sorted(d.id for d in reader.load()) == ["a.md", "c.md"]
    [skipped] = reader.skipped
    assert skipped.path == "b.md"
    assert skipped.reason.startswith(f"its markdown parser failed: {type(error).__name__}")
