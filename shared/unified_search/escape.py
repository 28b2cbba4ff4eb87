"""Escape untrusted text for XML: element content and double-quoted attributes."""

from __future__ import annotations

import re

# XML 1.0 forbids most control characters even when escaped; they are dropped.
_INVALID_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
# Characters that escaping changes in content and in attributes; text without any is kept as is.
_TEXT_SPECIAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff&<>\r]")
_ATTR_SPECIAL = re.compile('[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff&<>\r"\n\t]')


def escape_text(text: str) -> str:
    """Escape text for XML element content; no markup in it can close or open an element."""
    if _TEXT_SPECIAL.search(text) is None:
        return text
    text = _INVALID_XML.sub("", text)
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return text.replace("\r", "&#13;")


def escape_attr(text: str) -> str:
    """Escape text for a double-quoted XML attribute."""
    if _ATTR_SPECIAL.search(text) is None:
        return text
    return escape_text(text).replace('"', "&quot;").replace("\n", "&#10;").replace("\t", "&#9;")
