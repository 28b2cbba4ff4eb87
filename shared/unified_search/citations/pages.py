"""Where a passage sits in its document: the page of an offset in a knowledge-base chunk.

A chunk of a PDF carries, in its metadata, the page it starts on (``page``), the
page it ends on (``page_end``) and, when it crosses a page break, where in its
text each later page begins (``page_breaks``, offsets joined by commas: Chroma
metadata holds scalars only).
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping
from typing import Any


def breaks_of(metadata: Mapping[str, Any]) -> list[int]:
    """The offsets in a chunk's text where a new page begins, in order."""
    raw = metadata.get("page_breaks")
    if not isinstance(raw, str) or not raw:
        return []
    return sorted(int(part) for part in raw.split(",") if part.strip().isdigit())


def page_at(metadata: Mapping[str, Any], offset: int) -> int | None:
    """The page of the character at ``offset`` of a chunk's text, when its pages are known.

    Example:
        >>> page_at({"page": 3, "page_end": 4, "page_breaks": "120"}, 150)
        4
    """
    first = metadata.get("page")
    if not isinstance(first, int) or isinstance(first, bool):
        return None
    return first + bisect.bisect_right(breaks_of(metadata), offset)


def page_label(metadata: Mapping[str, Any]) -> str | None:
    """The page or page range of a chunk as people write it: ``"3"`` or ``"3-4"``.

    Example:
        >>> page_label({"page": 3, "page_end": 4}), page_label({})
        ('3-4', None)
    """
    first = metadata.get("page")
    if not isinstance(first, int) or isinstance(first, bool):
        return None
    last = metadata.get("page_end")
    return f"{first}-{last}" if isinstance(last, int) and last > first else str(first)
