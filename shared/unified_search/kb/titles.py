"""Titles and front matter of text documents: Markdown, reStructuredText and plain text.

Front matter (YAML between ``---`` lines, TOML between ``+++`` lines) is metadata:
its ``title`` names the document and its other scalar fields become metadata,
and none of it is indexed as content. A title is otherwise the first heading
that is not inside a code block (a ``#`` comment in a fenced shell snippet is
not a heading), the highest level first, and the file name as the last resort.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import yaml

_FRONT = {"---": "yaml", "+++": "toml"}
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_ATX = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.+?)[ \t]*#*[ \t]*$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
#: reStructuredText section adornments: a line of one repeated punctuation character.
_ADORNMENT = re.compile(r"^([!-/:-@\[-`{-~])\1{2,}[ \t]*$")
#: The longest front matter parsed by default (characters); a longer block stays content.
FRONT_MATTER_CHARS = 131_072
#: The most values a nested front-matter field may hold to be kept as metadata text.
NESTED_VALUES = 1_000


@dataclass(frozen=True)
class Titled:
    """A document's title, its content without front matter, and the front matter's fields."""

    title: str
    text: str
    metadata: dict[str, Any] = field(default_factory=dict)


def split_front_matter(
    content: str, max_chars: int = FRONT_MATTER_CHARS
) -> tuple[dict[str, Any], str]:
    """The front matter's fields and the rest of ``content`` (``{}`` and all of it when none).

    A block longer than ``max_chars``, or one its parser cannot read, is not front matter.

    Example:
        >>> split_front_matter(chr(10).join(["---", "title: Install", "---", "Body"]))
        ({'title': 'Install'}, 'Body')
    """
    text = content.removeprefix("\ufeff")
    first, _, rest = text.partition("\n")
    kind = _FRONT.get(first.strip())
    if kind is None:
        return {}, content
    closing = re.search(rf"^{re.escape(first.strip())}[ \t]*$", rest, re.MULTILINE)
    if closing is None or closing.start() > max_chars:
        return {}, content
    fields = _parse(rest[: closing.start()], kind)
    if fields is None:
        return {}, content
    return fields, rest[closing.end() :].lstrip("\n")


def _parse(block: str, kind: str) -> dict[str, Any] | None:
    """The fields of a front-matter block; ``None`` when it is not a mapping in that syntax."""
    try:
        data = tomllib.loads(block) if kind == "toml" else yaml.safe_load(block)
    except (yaml.YAMLError, tomllib.TOMLDecodeError, RecursionError):
        return None
    if data is None:
        return {}
    return dict(data) if isinstance(data, Mapping) else None


def scalar_fields(fields: Mapping[str, Any]) -> dict[str, str | int | float | bool]:
    """Fields a metadata filter can use: scalars as they are, lists of scalars joined by commas."""
    kept: dict[str, str | int | float | bool] = {}
    for key, value in fields.items():
        if isinstance(value, str | int | float | bool):
            kept[str(key)] = value
        elif isinstance(value, list) and all(isinstance(v, str | int | float) for v in value):
            kept[str(key)] = ", ".join(map(str, value))
        elif value is not None and _small(value):
            kept[str(key)] = str(value)  # dates and the like: their ISO text
    return kept


def _small(value: Any, budget: int = NESTED_VALUES) -> bool:
    """Whether ``value`` holds at most ``budget`` values once written out.

    YAML aliases let a few lines name the same list a billion times over: such a
    value is left out rather than printed.
    """
    todo = [value]
    while todo:
        budget -= len(todo)
        if budget < 0:
            return False
        todo = [
            child
            for item in todo
            if isinstance(item, list | tuple | dict)
            for child in (item.values() if isinstance(item, dict) else item)
        ]
    return True


def markdown(content: str, fallback: str, front_matter_chars: int = FRONT_MATTER_CHARS) -> Titled:
    """Title and content of a Markdown (or plain text) file."""
    fields, body = split_front_matter(content, front_matter_chars)
    title = str(fields.pop("title", "") or "").strip()
    return Titled(title or _first_heading(body) or fallback, body, scalar_fields(fields))


def restructured(
    content: str, fallback: str, front_matter_chars: int = FRONT_MATTER_CHARS
) -> Titled:
    """Title and content of a reStructuredText file: its first section title."""
    fields, body = split_front_matter(content, front_matter_chars)
    title = str(fields.pop("title", "") or "").strip()
    return Titled(title or _rst_title(body) or fallback, body, scalar_fields(fields))


def _outside_code(lines: list[str]) -> Iterator[tuple[int, str]]:
    """``(index, line)`` of the lines not inside a fenced code block."""
    fence = ""
    for index, line in enumerate(lines):
        opened = _FENCE.match(line)
        if fence:
            if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence):
                fence = ""
            continue
        if opened:
            fence = opened.group(1)
            continue
        yield index, line


def _first_heading(body: str) -> str:
    """The first heading of the highest level present (ATX ``#`` or setext underlines)."""
    lines = body.splitlines()
    found: list[tuple[int, str]] = []
    previous = ""
    for index, line in _outside_code(lines):
        if match := _ATX.match(line):
            found.append((len(match.group(1)), match.group(2).strip()))
        elif (match := _SETEXT.match(line)) and previous.strip() and index > 0:
            found.append((1 if match.group(1)[0] == "=" else 2, previous.strip()))
        previous = line
    if not found:
        return ""
    best = min(level for level, _ in found)
    return next(text for level, text in found if level == best)


def _rst_title(body: str) -> str:
    """The first text line underlined by a section adornment at least as long as it."""
    lines = body.splitlines()
    for index in range(len(lines) - 1):
        text, under = lines[index].rstrip(), lines[index + 1]
        if (
            text
            and not text.startswith((" ", "\t", ".. "))
            and not _ADORNMENT.match(text)
            and _ADORNMENT.match(under)
            and len(under.rstrip()) >= len(text)
        ):
            return text.strip()
    return ""


def file_title(stem: str) -> str:
    """A readable title made of a file name: ``getting-started`` → ``getting started``."""
    return " ".join(stem.replace("-", " ").replace("_", " ").split()) or stem
