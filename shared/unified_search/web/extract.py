"""The main text of an HTML page: trafilatura when installed, the standard-library extractor otherwise.

trafilatura (``pip install "unified-search[extract]"``) is the better
extractor on most page shapes (see ``benchmarks/extraction.py``); the builtin
one (``unified_search.html_text.main_text``) needs nothing and keeps
navigation, cookie banners and footers out by structure and class names.

trafilatura's time grows faster than the page (about 4 s for a megabyte of
short paragraphs, 12 s for two), so ``auto`` hands pages beyond
``TRAFILATURA_MAX_CHARS`` to the builtin extractor, which reads any page in
one linear pass: a huge page then costs a second, not the reader's deadline.
"""

from __future__ import annotations

import importlib.util
from typing import Any

from unified_search.config.web import Extractor
from unified_search.errors import ErrorCode, SearchError
from unified_search.html_text import main_text

EXTRA = 'pip install "unified-search[extract]"'
#: Largest page ``auto`` gives to trafilatura (real articles are a few hundred kilobytes).
TRAFILATURA_MAX_CHARS = 1_000_000


def has_trafilatura() -> bool:
    """Tell whether the optional extractor is installed."""
    return importlib.util.find_spec("trafilatura") is not None


def extract(markup: str, extractor: Extractor = "auto", url: str | None = None) -> tuple[str, str]:
    """Return the title and main text of ``markup`` with the chosen extractor.

    ``auto`` uses trafilatura when it is installed and the page is not huge, and
    falls back to the builtin extractor when trafilatura finds nothing;
    ``trafilatura`` without the package fails with UNSUPPORTED naming the extra.

    Example:
        >>> extract("<title>T</title><main><p>" + "Some text. " * 30 + "</p></main>", "builtin")[0]
        'T'
    """
    huge = len(markup) > TRAFILATURA_MAX_CHARS
    if extractor == "builtin" or (extractor == "auto" and (huge or not has_trafilatura())):
        return main_text(markup)
    if not has_trafilatura():
        raise SearchError(
            ErrorCode.UNSUPPORTED, f"the trafilatura extractor needs: {EXTRA}", provider="reader"
        )
    found = _trafilatura(markup, url)
    return found if found[1] else main_text(markup)


def _trafilatura(markup: str, url: str | None) -> tuple[str, str]:
    import trafilatura  # optional: the extract extra

    document: Any = trafilatura.bare_extraction(
        markup, url=url, with_metadata=True, include_comments=False, include_tables=True
    )
    if document is None:
        return "", ""
    title = document.title or main_text(markup)[0]
    return str(title or ""), str(document.text or "")
