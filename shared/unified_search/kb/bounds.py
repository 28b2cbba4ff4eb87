"""Bounded parsing: what keeps one hostile file within the ``kb.limits`` it is read under.

The readers of record formats (JSON Lines, CSV) and archives (``.docx``) go
through these helpers, so a file cannot make them take memory or time out of
proportion to the limits: a line is measured before it is decoded, an archive's
unzipped size is checked before it is unzipped, and nesting is refused before
anything recurses over it. Each refusal names the limit (``kb.limits.…``) so the
person reading the report knows which setting to change.
"""

from __future__ import annotations

import csv
import io
import threading
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TypeVar, cast

from unified_search.config.kb import LimitsConfig

T = TypeVar("T")
_CSV_LIMIT = threading.Lock()


def lines(data: bytes, max_bytes: int) -> Iterator[tuple[int, bytes | None]]:
    """``(number, line)`` of every line, ``None`` for one longer than ``max_bytes``.

    A long line is skipped without being copied, so it costs nothing beyond the file's
    own bytes. Lines end at a line feed; a carriage return before it and a UTF-8
    byte-order mark are dropped.
    """
    start = 3 if data.startswith(b"\xef\xbb\xbf") else 0
    number = 0
    while start < len(data):
        end = data.find(b"\n", start)
        end = len(data) if end < 0 else end
        number += 1
        if end - start > max_bytes:
            yield number, None
        else:
            yield number, data[start:end].removesuffix(b"\r")
        start = end + 1


def too_long(limits: LimitsConfig) -> str:
    """The reason a line past ``max_line_bytes`` is refused."""
    return f"line longer than {limits.max_line_bytes:,} bytes (kb.limits.max_line_bytes)"


def too_many(limits: LimitsConfig, kind: str) -> str:
    """The reason records past ``max_records`` are not read."""
    return f"more than {limits.max_records:,} {kind}: the rest is not read (kb.limits.max_records)"


def depth(value: Any, limit: int) -> int:
    """How deep ``value`` nests lists and mappings (a scalar is 0), counted to ``limit + 1`` at most."""
    deepest, level = 0, [value]
    while deepest <= limit:
        containers = [item for item in level if isinstance(item, list | dict)]
        if not containers:
            break
        deepest += 1
        level = [
            child
            for container in containers
            for child in (container.values() if isinstance(container, dict) else container)
        ]
    return deepest


def too_deep(limits: LimitsConfig) -> str:
    """The reason a record nested past ``max_depth`` is refused."""
    return f"nested deeper than {limits.max_depth} levels (kb.limits.max_depth)"


def archive_problem(data: bytes, limits: LimitsConfig) -> str | None:
    """Why a zip archive is refused: it would unzip past ``max_unpacked_bytes`` (a zip bomb).

    The sizes the archive declares are what Python's ``zipfile`` then enforces while
    unzipping (it stops at the declared size and fails the member's checksum), so
    checking them bounds what reading the archive can take. ``None``: it may be read.
    """
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            unpacked = sum(member.file_size for member in archive.infolist())
    except (zipfile.BadZipFile, ValueError, EOFError) as exc:
        return f"not a zip archive: {exc}"
    if unpacked > limits.max_unpacked_bytes:
        return (
            f"unzips to {unpacked:,} bytes, more than {limits.max_unpacked_bytes:,} "
            "(kb.limits.max_unpacked_bytes)"
        )
    return None


@contextmanager
def csv_field_limit(chars: int) -> Iterator[None]:
    """Let the ``csv`` module read fields of up to ``chars`` characters meanwhile.

    Its limit is one setting for the whole process: it is set under a lock and put back
    after, so CSV files read by this module at the same time take turns.
    """
    with _CSV_LIMIT:
        before = csv.field_size_limit(chars)
        try:
            yield
        finally:
            csv.field_size_limit(before)


def encodable(value: T) -> T:
    """``value`` with lone surrogates (JSON may escape one alone) replaced by U+FFFD, if a string.

    Such a string cannot be written as UTF-8: hashed into a chunk ID or stored, it would
    fail the write of every document beside it.
    """
    if not isinstance(value, str):
        return value
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return cast(T, value.encode("utf-16", "surrogatepass").decode("utf-16", "replace"))
    return value


def failure(exc: BaseException) -> str:
    """``Type: first line of the message``, short enough for one line of a report."""
    message = str(exc).strip().splitlines()
    text = f"{type(exc).__name__}: {message[0]}" if message else type(exc).__name__
    return text if len(text) <= 200 else text[:199] + "…"
