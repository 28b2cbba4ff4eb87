"""Read files into knowledge-base documents: Markdown, text, HTML, JSON Lines and (optionally) PDF.

Folders are walked recursively and only files with a known suffix are taken.
A file that is missing, unreadable, not UTF-8, of an unknown type (when named
explicitly) or a PDF without ``pypdf`` installed is skipped and reported with
its reason; every other file is still read. A document's ID is its resolved
path (``path#line`` for JSON Lines records), so indexing the same files again
replaces their previous version instead of duplicating it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from unified_search._optional import MissingDependencyError, require
from unified_search.web.html_text import html_to_text

#: Suffixes read as plain text; the first Markdown ``# heading`` becomes the title.
TEXT_SUFFIXES = (".md", ".markdown", ".txt")


@dataclass
class Loaded:
    """The documents read from some paths, and what was skipped and why."""

    documents: list[dict[str, Any]] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    """(path, reason) pairs."""
    files: int = 0
    """Files read successfully."""


def load_paths(paths: Sequence[str | Path]) -> Loaded:
    """Read every file under ``paths``; nothing raises, problems are listed in ``skipped``."""
    loaded = Loaded()
    for path, explicit in _files(paths, loaded):
        reader = READERS.get(path.suffix.lower())
        if reader is None:
            if explicit:
                loaded.skipped.append((str(path), f"unsupported file type {path.suffix or '?'}"))
            continue
        _read_one(path, reader, loaded)
    return loaded


def _files(paths: Sequence[str | Path], loaded: Loaded) -> Iterator[tuple[Path, bool]]:
    for raw in paths:
        path = Path(raw).expanduser()
        if path.is_dir():
            yield from ((p, False) for p in sorted(path.rglob("*")) if p.is_file())
        elif path.exists():
            yield path, True
        else:
            loaded.skipped.append((str(path), "no such file or folder"))


def _read_one(path: Path, reader: Reader, loaded: Loaded) -> None:
    try:
        documents, problems = reader(path)
    except UnicodeDecodeError:
        loaded.skipped.append((str(path), "not UTF-8 text"))
        return
    except (OSError, MissingParser) as exc:
        loaded.skipped.append((str(path), _reason(exc)))
        return
    loaded.documents.extend(documents)
    loaded.skipped.extend((f"{path}#{line}", reason) for line, reason in problems)
    loaded.files += 1


class MissingParser(Exception):
    """A file type whose parser is an optional package that is not installed."""


Problems = list[tuple[int, str]]
Reader = Callable[[Path], tuple[list[dict[str, Any]], Problems]]


def read_text(path: Path) -> tuple[list[dict[str, Any]], Problems]:
    """A Markdown or text file as one document titled by its first heading (or its name)."""
    content = path.read_text(encoding="utf-8")
    return [_document(path, _heading(content) or _name(path), content)], []


def read_html(path: Path) -> tuple[list[dict[str, Any]], Problems]:
    """An HTML page's visible text (scripts and styles dropped), titled by its ``<title>``."""
    title, text = html_to_text(path.read_text(encoding="utf-8"))
    return [_document(path, title or _name(path), text)], []


def read_pdf(path: Path) -> tuple[list[dict[str, Any]], Problems]:
    """A PDF's text, page after page (needs ``pypdf``)."""
    try:
        pypdf = require("pypdf", extra="pdf", purpose="reading PDF files")
    except MissingDependencyError as exc:
        raise MissingParser(str(exc)) from exc
    try:
        pages = [page.extract_text() or "" for page in pypdf.PdfReader(path).pages]
    except Exception as exc:  # pypdf raises many types on broken files; each is one skipped file
        raise OSError(f"not a readable PDF: {exc}") from exc
    return [_document(path, _name(path), "\n\n".join(pages))], []


def read_jsonl(path: Path) -> tuple[list[dict[str, Any]], Problems]:
    """One document per line: ``text`` (required), ``title`` and ``id`` (optional)."""
    documents: list[dict[str, Any]] = []
    problems: Problems = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        record, problem = _record(line)
        if problem:
            problems.append((number, problem))
            continue
        doc_id = str(record.get("id") or f"{path.resolve()}#{number}")
        documents.append(_document(path, str(record.get("title") or ""), record["text"], doc_id))
    return documents, problems


def _record(line: str) -> tuple[dict[str, Any], str | None]:
    try:
        record = json.loads(line)
    except json.JSONDecodeError as exc:
        return {}, f"not JSON ({exc.msg})"
    if not isinstance(record, dict) or not isinstance(record.get("text"), str):
        return {}, 'needs a "text" string field'
    return record, None


READERS: dict[str, Reader] = {
    **dict.fromkeys(TEXT_SUFFIXES, read_text),
    ".html": read_html,
    ".htm": read_html,
    ".jsonl": read_jsonl,
    ".pdf": read_pdf,
}


def _document(path: Path, title: str, text: str, doc_id: str | None = None) -> dict[str, Any]:
    source = str(path.resolve())
    return {"id": doc_id or source, "title": title, "text": text, "source": source}


def _heading(content: str) -> str:
    for line in content.splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return ""


def _name(path: Path) -> str:
    return path.stem.replace("-", " ").replace("_", " ")


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror.lower()
    return str(exc)


def describe(skipped: Iterable[tuple[str, str]]) -> list[str]:
    """One warning line per skipped path."""
    return [f"skipped {path}: {reason}" for path, reason in skipped]
