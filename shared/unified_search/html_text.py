"""Readable text out of an HTML page, with the standard library's parser only (web pages and indexed files)."""

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
_PARTS = re.compile(r"[-_]")


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


#: Containers that hold a site's furniture rather than the page's own text.
FURNITURE_TAGS = frozenset({"nav", "footer", "aside", "form", "dialog", "menu", "button"})
#: ARIA roles of the same furniture.
FURNITURE_ROLES = frozenset(
    {
        "navigation",
        "banner",
        "contentinfo",
        "complementary",
        "dialog",
        "alertdialog",
        "search",
        "menu",
    }
)
#: Parts of an id or class name (split at ``-`` and ``_``) that mark furniture: cookie banners,
#: menus, share bars, widgets ...
FURNITURE_PARTS = frozenset(
    {
        "cookie", "cookies", "consent", "gdpr", "banner", "navbar", "nav", "menu", "breadcrumb",
        "breadcrumbs", "sidebar", "footer", "masthead", "newsletter", "subscribe", "signup",
        "share", "sharing", "social", "related", "recommended", "promo", "advert", "ad", "ads",
        "sponsored", "popup", "modal", "skip", "toolbar", "pagination", "widget", "widgets",
        "edit", "author", "leftnav", "rightnav", "topbar",
    }
)  # fmt: skip
#: Whole id or class names that mark furniture only on their own (``entry-header`` is content).
FURNITURE_NAMES = frozenset({"header", "top", "top-bar", "bottom", "right-col", "left-col"})
#: Elements that never contain anything, so are never closed.
VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
     "track", "wbr", "param"}
)  # fmt: skip
#: A ``<main>`` or ``<article>`` with less text than this is not trusted to be the page.
MIN_MAIN_CHARS = 200


class _MainParser(HTMLParser):
    """Visible text in three streams (inside ``<main>``, inside ``<article>``, anywhere), furniture left out."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.title_parts: list[str] = []
        self.streams: dict[str, list[str]] = {"main": [], "article": [], "body": [], "loose": []}
        # Every open element: (tag, hidden by its structure, hidden by its id or class names).
        self._open: list[tuple[str, bool, bool]] = []
        self._hidden = 0
        self._named = 0
        self._zones = {"main": 0, "article": 0, "pre": 0}
        self._in_title = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "title":
            self._in_title = True
            return
        if tag in BLOCKS:
            self._emit("\n")
        if tag in VOID:
            return
        values = dict(attrs)
        hidden = tag in SKIPPED or self._is_furniture(tag, values)
        named = not hidden and _furniture_name(values)
        self._open.append((tag, hidden, named))
        self._hidden += hidden
        self._named += named
        if tag in self._zones:
            self._zones[tag] += 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self._in_title = False
            return
        if any(name == tag for name, _, _ in self._open):
            while self._open:  # also closes what the page left open inside this element
                name, hidden, named = self._open.pop()
                self._hidden -= hidden
                self._named -= named
                if name in self._zones:
                    self._zones[name] -= 1
                if name == tag:
                    break
        if tag in BLOCKS:
            self._emit("\n")

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title_parts.append(data)
        else:
            self._emit(data if self._zones["pre"] else _ANY_SPACE.sub(" ", data))

    def _emit(self, text: str) -> None:
        if self._hidden:
            return
        self.streams["loose"].append(text)
        if self._named:
            return
        self.streams["body"].append(text)
        for zone in ("main", "article"):
            if self._zones[zone]:
                self.streams[zone].append(text)

    def _is_furniture(self, tag: str, attrs: dict[str, str | None]) -> bool:
        if tag == "header":  # a page's header is furniture; an article's holds its headline
            return not (self._zones["main"] or self._zones["article"])
        if tag in FURNITURE_TAGS:
            return True
        return (attrs.get("role") or "").lower() in FURNITURE_ROLES or "hidden" in attrs


def _furniture_name(attrs: dict[str, str | None]) -> bool:
    """Tell whether an element's id or class names it furniture (``cookie-banner``, ``sidebar`` ...)."""
    names = " ".join(filter(None, (attrs.get("id"), attrs.get("class")))).lower().split()
    return any(
        name in FURNITURE_NAMES or not FURNITURE_PARTS.isdisjoint(_PARTS.split(name))
        for name in names
    )


def main_text(markup: str) -> tuple[str, str]:
    """Return the title and the main text of a page: navigation, banners and footers left out.

    The text of ``<main>`` is preferred, then that of the ``<article>`` elements,
    then the whole page, each without the site's furniture (``nav``, ``footer``,
    ``aside``, cookie and newsletter boxes, share bars ...). Furniture known only
    by its id or class name is kept when leaving it out would leave almost
    nothing: such names guess, and losing the page is worse than keeping a menu.

    Example:
        >>> page = "<nav>Home</nav><main><p>" + "Real text. " * 30 + "</p></main><footer>(c)</footer>"
        >>> main_text(page)[1].startswith("Real text.") and "Home" not in main_text(page)[1]
        True
    """
    parser = _MainParser()
    parser.feed(markup)
    parser.close()
    title = " ".join("".join(parser.title_parts).split())
    for zone in ("main", "article"):
        text = tidy("".join(parser.streams[zone]))
        if len(text) >= MIN_MAIN_CHARS:
            return title, text
    body = tidy("".join(parser.streams["body"]))
    loose = tidy("".join(parser.streams["loose"]))
    if len(body) < MIN_MAIN_CHARS <= len(loose) - len(body):
        return title, loose  # a name guessed wrong hid the page itself (``content-sidebar-wrap``)
    return title, body
