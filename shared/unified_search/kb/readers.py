"""One reader per file format: the bytes of a file in, titled texts with metadata out.

Readers are pure (bytes in, ``Parsed`` out) so they run the same on a file, an
upload or a test string. A file that cannot be read raises ``Unreadable`` with
the reason a person should see; a format whose parser is an optional package
names the extra to install. Formats are chosen by suffix; a file without one
is read as plain text when its content is text, and refused when it is binary.
Every reader works within the ``kb.limits`` it is given (see ``kb.bounds``).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

from unified_search._optional import require
from unified_search.config.kb import LimitsConfig
from unified_search.html_text import main_text
from unified_search.kb import bounds, titles
from unified_search.kb.chunking import PAGE_STARTS


class Unreadable(Exception):
    """A file that is not indexed; the message is the reason shown to the user."""


@dataclass(frozen=True)
class Parsed:
    """A text read from a file, with its title and metadata."""

    title: str
    text: str
    metadata: dict[str, Any] = field(default_factory=dict)
    part: str | None = None
    """Which record of a multi-record file: the ID a record names itself (a JSON Lines
    ``id``), else its line or row number; ``None`` for the whole file. Document IDs are
    ``<file>#<part>``, so two files with the same record IDs never replace each other."""


Reader = Callable[[bytes, str, LimitsConfig], list[Parsed]]
"""``(content, fallback title, limits) -> documents``."""

#: How far into a file its content is looked at to tell text from binary.
SNIFF_BYTES = 8192


def decode(data: bytes) -> str:
    """UTF-8 text (a byte-order mark dropped); binary or other encodings are ``Unreadable``."""
    if looks_binary(data):
        raise Unreadable("binary content")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise Unreadable(
            f"not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start})"
        ) from exc


def looks_binary(data: bytes) -> bool:
    """Whether content is binary: a NUL byte near the start, as git and grep decide."""
    return b"\x00" in data[:SNIFF_BYTES]


def read_markdown(data: bytes, fallback: str, limits: LimitsConfig) -> list[Parsed]:
    """Markdown or plain text: front matter as metadata, the first heading as title."""
    found = titles.markdown(decode(data), fallback, limits.max_field_chars)
    return [Parsed(found.title, found.text, found.metadata)]


def read_rst(data: bytes, fallback: str, limits: LimitsConfig) -> list[Parsed]:
    """reStructuredText: the first section title."""
    found = titles.restructured(decode(data), fallback, limits.max_field_chars)
    return [Parsed(found.title, found.text, found.metadata)]


def read_html(data: bytes, fallback: str, limits: LimitsConfig) -> list[Parsed]:
    """An HTML page's main text, titled by its ``<title>``, else its first ``<h1>``."""
    markup = decode(data)
    title, text = main_text(markup)
    return [Parsed(title or _first_h1(markup) or fallback, text)]


class _H1(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.depth = 0
        self.parts: list[str] = []
        self.done = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.depth += tag == "h1" and not self.done

    def handle_endtag(self, tag: str) -> None:
        if tag == "h1" and self.depth:
            self.depth, self.done = 0, True

    def handle_data(self, data: str) -> None:
        if self.depth:
            self.parts.append(data)


def _first_h1(markup: str) -> str:
    parser = _H1()
    parser.feed(markup)
    return " ".join("".join(parser.parts).split())


def read_pdf(data: bytes, fallback: str, limits: LimitsConfig) -> list[Parsed]:
    """A PDF's text, page after page, titled by its metadata title (``pdf`` extra).

    Where each page starts in the text is kept (``PAGE_STARTS``), so every chunk
    knows its page, and its page range when it crosses a page break.
    """
    pypdf = require("pypdf", extra="pdf", purpose="reading PDF files")
    try:
        reader = pypdf.PdfReader(io.BytesIO(data))
        if len(reader.pages) > limits.max_records:
            raise Unreadable(f"more than {limits.max_records:,} pages (kb.limits.max_records)")
        pages = [page.extract_text() or "" for page in reader.pages]
        title = str((reader.metadata or {}).get("/Title") or "").strip()
    except Unreadable:
        raise
    except Exception as exc:  # pypdf raises many types on broken files; each is one skipped file
        raise Unreadable(f"not a readable PDF ({type(exc).__name__}: {exc})") from exc
    text, starts = "", [0] * len(pages)
    for number, page in enumerate(p.strip() for p in pages):
        if page:
            text += "\n\n" if text else ""
            starts[number] = len(text)
            text += page
        else:  # an empty page starts where the next text does (filled in below)
            starts[number] = -1
    for number in reversed(range(len(starts))):
        if starts[number] < 0:
            starts[number] = starts[number + 1] if number + 1 < len(starts) else len(text)
    meta = {"pages": len(pages), PAGE_STARTS: ",".join(map(str, starts))}
    return [Parsed(title or fallback, text, meta)]


def read_docx(data: bytes, fallback: str, limits: LimitsConfig) -> list[Parsed]:
    """A Word document's paragraphs and tables, titled by its core title or first heading."""
    docx = require("docx", extra="docx", purpose="reading .docx files")
    if problem := bounds.archive_problem(data, limits):
        raise Unreadable(f"not a readable .docx ({problem})")
    try:
        document = docx.Document(io.BytesIO(data))
    except Exception as exc:  # python-docx raises zip, XML and key errors on broken files
        raise Unreadable(f"not a readable .docx ({type(exc).__name__}: {exc})") from exc
    paragraphs = [(p.style.name if p.style else "", p.text.strip()) for p in document.paragraphs]
    heading = next(
        (text for style, text in paragraphs if text and style in ("Title", "Heading 1")), ""
    )
    cells = [
        " | ".join(cell.text.strip() for cell in row.cells)
        for table in document.tables
        for row in table.rows
    ]
    text = "\n\n".join([*(t for _, t in paragraphs if t), *cells])
    title = (document.core_properties.title or "").strip()
    return [Parsed(title or heading or fallback, text)]


def read_jsonl(data: bytes, fallback: str, limits: LimitsConfig) -> list[Parsed]:
    """One document per line: ``text`` (required), ``title``, ``id``, other scalars as metadata.

    A line that is not such an object (too long, too deep, not UTF-8, not JSON) raises
    nothing: it becomes a record with the reason, so one bad line costs only itself (see
    ``records``). Lines past ``max_records`` are not read.
    """
    if looks_binary(data):
        raise Unreadable("binary content")
    found: list[Parsed] = []
    for number, line in bounds.lines(data, limits.max_line_bytes):
        if line is not None and not line.strip():
            continue
        if len(found) == limits.max_records:
            found.append(_bad(number, bounds.too_many(limits, "records")))
            break
        found.append(
            _bad(number, bounds.too_long(limits))
            if line is None
            else _record(line, number, fallback, limits)
        )
    return found


def _record(line: bytes, number: int, fallback: str, limits: LimitsConfig) -> Parsed:
    try:
        record = json.loads(line.decode("utf-8"))
    except UnicodeDecodeError as exc:
        return _bad(number, f"not UTF-8 text (byte 0x{line[exc.start]:02x})")
    except json.JSONDecodeError as exc:
        return _bad(number, f"not JSON ({exc.msg})")
    except RecursionError:  # deeper than the interpreter goes: past any max_depth
        return _bad(number, bounds.too_deep(limits))
    if bounds.depth(record, limits.max_depth) > limits.max_depth:
        return _bad(number, bounds.too_deep(limits))
    if not isinstance(record, dict) or not isinstance(record.get("text"), str):
        return _bad(number, 'needs a "text" string field')
    own_id = record.pop("id", None)
    title = str(record.pop("title", "") or "") or f"{fallback} #{number}"
    text = record.pop("text")
    meta = titles.scalar_fields(record)
    return Parsed(title, text, meta, str(number) if own_id is None else str(own_id))


def _bad(number: int, reason: str) -> Parsed:
    """A record that failed: empty text, the reason in its metadata (``records`` sorts them)."""
    return Parsed("", "", {"error": reason}, str(number))


def read_csv(data: bytes, fallback: str, limits: LimitsConfig) -> list[Parsed]:
    """One document per row, written ``column: value`` per line (as LangChain's CSVLoader).

    A line or field past its limit, or text that is not UTF-8, makes the whole file
    unreadable (where its rows end is no longer known); rows past ``max_records`` are not read.
    """
    if looks_binary(data):
        raise Unreadable("binary content")
    head = data[:SNIFF_BYTES].decode("utf-8", errors="ignore")
    try:
        dialect: Any = csv.Sniffer().sniff(head, delimiters=",;\t|")
    except csv.Error:
        dialect = csv.excel
    found: list[Parsed] = []
    with bounds.csv_field_limit(limits.max_field_chars):
        rows = csv.DictReader(_csv_lines(data, limits), dialect=dialect)
        try:
            for number, row in enumerate(rows, start=1):
                if number > limits.max_records:
                    found.append(_bad(number, bounds.too_many(limits, "rows")))
                    break
                found.append(_row(row, number, fallback))
        except csv.Error as exc:
            where = f"row {len(found) + 1}"
            if "field limit" in str(exc):
                raise Unreadable(
                    f"{where}: a field longer than {limits.max_field_chars:,} characters "
                    "(kb.limits.max_field_chars)"
                ) from exc
            raise Unreadable(f"{where}: not CSV ({exc})") from exc
    return found


def _csv_lines(data: bytes, limits: LimitsConfig) -> Iterator[str]:
    """The file's lines as text, line ends kept (quoted fields may span lines)."""
    for number, line in bounds.lines(data, limits.max_line_bytes):
        if line is None:
            raise Unreadable(f"line {number}: {bounds.too_long(limits)}")
        try:
            yield line.decode("utf-8") + "\n"
        except UnicodeDecodeError as exc:
            raise Unreadable(
                f"line {number}: not UTF-8 text (byte 0x{line[exc.start]:02x})"
            ) from exc


def _row(row: dict[str | Any, str | Any], number: int, fallback: str) -> Parsed:
    pairs = [(str(k).strip(), (v or "").strip()) for k, v in row.items() if k is not None]
    title = next((v for k, v in pairs if k.lower() in ("title", "name") and v), "")
    body = "\n".join(f"{k}: {v}" for k, v in pairs if v)
    return Parsed(title or f"{fallback} row {number}", body, {"row": number}, str(number))


#: Readers by file suffix (lower case); the name is what ``file_type`` metadata says.
READERS: dict[str, tuple[str, Reader]] = {
    ".md": ("markdown", read_markdown),
    ".markdown": ("markdown", read_markdown),
    ".txt": ("text", read_markdown),
    ".text": ("text", read_markdown),
    ".rst": ("rst", read_rst),
    ".html": ("html", read_html),
    ".htm": ("html", read_html),
    ".pdf": ("pdf", read_pdf),
    ".docx": ("docx", read_docx),
    ".jsonl": ("jsonl", read_jsonl),
    ".ndjson": ("jsonl", read_jsonl),
    ".csv": ("csv", read_csv),
}


def reader_for(suffix: str, head: bytes) -> tuple[str, Reader]:
    """The reader of a file with ``suffix`` whose content starts with ``head``.

    Raises:
        Unreadable: an unknown suffix, or a file without a suffix that is binary.
    """
    if not suffix:
        if looks_binary(head):
            raise Unreadable("binary content (no file type to read it as)")
        return "text", read_markdown
    found = READERS.get(suffix.lower())
    if found is None:
        raise Unreadable(f"unsupported file type {suffix}")
    return found
