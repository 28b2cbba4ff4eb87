"""Readable text out of an HTML page, with the standard library's parser only."""

from __future__ import annotations

import re
from html.parser import HTMLParser

#: Elements whose text is never part of what a reader sees.
SKIPPED = frozenset({"script", "style", "noscript", "template", "svg", "canvas", "iframe"})
#: Elements that start a new line of text.
BLOCKS = frozenset(
    {
        "p", "div", "br", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "tr", "table",
        "section", "article", "header", "footer", "nav", "aside", "blockquote", "pre", "hr",
        "main", "figure", "figcaption", "dd", "dt", "dl", "form",
    }
)  # fmt: skip
_ANY_SPACE = re.compile(r"\s+")
_INLINE_SPACE = re.compile(r"[ \t\r\f\v]+")
_BLANK_LINES = re.compile(r"\n{3,}")


class _TextParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.title_parts: list[str] = []
        self._skip_depth = 0
        self._pre_depth = 0
        self._in_title = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "title":
            self._in_title = True
        elif tag in SKIPPED:
            self._skip_depth += 1
        elif tag in BLOCKS:
            self._pre_depth += tag == "pre"
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self._in_title = False
        elif tag in SKIPPED:
            self._skip_depth = max(0, self._skip_depth - 1)
        elif tag in BLOCKS:
            self._pre_depth = max(0, self._pre_depth - (tag == "pre"))
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title_parts.append(data)
        elif not self._skip_depth:
            # Source line breaks are plain spaces in HTML, except inside <pre>.
            self.parts.append(data if self._pre_depth else _ANY_SPACE.sub(" ", data))


def html_to_text(markup: str) -> tuple[str, str]:
    """Return the title and the visible text of ``markup`` (scripts, styles and head dropped).

    Example:
        >>> html_to_text("<title>T</title><p>Hello <b>world</b></p><script>x()</script>")
        ('T', 'Hello world')
    """
    parser = _TextParser()
    parser.feed(markup)
    parser.close()
    title = " ".join("".join(parser.title_parts).split())
    return title, tidy("".join(parser.parts))


def tidy(text: str) -> str:
    """Collapse runs of spaces and blank lines, and trim every line."""
    lines = (_INLINE_SPACE.sub(" ", line).strip() for line in text.splitlines())
    return _BLANK_LINES.sub("\n\n", "\n".join(lines)).strip()
