"""Escape untrusted text: for XML (element content and double-quoted attributes), and for a terminal."""

from __future__ import annotations

import re

# XML 1.0 forbids most control characters even when escaped; they are dropped.
_INVALID_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
# Characters that escaping changes in content and in attributes; text without any is kept as is.
_TEXT_SPECIAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff&<>\r]")
_ATTR_SPECIAL = re.compile('[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff&<>\r"\n\t]')
#: What a terminal acts on instead of showing: C0 and C1 controls (ESC and CSI open the
#: sequences that clear a screen or plant a link), DEL, and the bidirectional controls and
#: separators that reorder or break what is shown. Tab and line feed are left to the caller.
UNSEEN = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]")


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


def visible(text: str) -> str:
    r"""``text`` with every character a terminal would act on written as its escape.

    Example:
        >>> visible("clear\x1b[2J, then \u202eright to left")
        'clear\\x1b[2J, then \\u202eright to left'
    """
    if UNSEEN.search(text) is None:
        return text
    return UNSEEN.sub(_escaped, text)


def _escaped(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
