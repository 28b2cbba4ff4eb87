"""The default model reads a text's first word pieces without tokenising the whole text."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tokenizers import Tokenizer

from unified_search.models.minilm import (
    _WINDOW_CHARS,
    MAX_TOKENS,
    _load_tokenizer,
    default_embedding,
    window_text,
)

PLAIN = _load_tokenizer(Tokenizer, window=None)

words = st.one_of(
    st.from_regex(r"[a-z]{1,12}", fullmatch=True),
    st.from_regex(r"[A-Za-z0-9'().,;:!?-]{1,30}", fullmatch=True),
    st.text(min_size=1, max_size=8),  # any unicode, control characters included
)
separators = st.sampled_from([" ", "\n", "\t", "  \n\n ", "\u3000"])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(words, separators), min_size=1, max_size=300))
def test_the_window_keeps_every_word_piece_the_model_reads(parts: list[tuple[str, str]]) -> None:
    text = "".join(word + gap for word, gap in parts)
    head = window_text(text)
    assert text.startswith(head) and len(head) <= _WINDOW_CHARS
    full = PLAIN.encode(text).ids[: MAX_TOKENS - 1]
    assert PLAIN.encode(head).ids[: MAX_TOKENS - 1] == full


@pytest.mark.parametrize(
    "huge",
    [
        "protein folding " * 700_000,  # ~10 MB of words
        "x" * 10_000_000,  # no space at all
        "\n" * 5_000_000 + "late words",  # whitespace first
    ],
    ids=["words", "one-word", "blank-start"],
)
def test_a_ten_megabyte_text_is_cut_before_tokenising(huge: str) -> None:
    head = window_text(huge)
    assert len(head) <= _WINDOW_CHARS
    embed = default_embedding()
    assert embed.token_count(huge) > MAX_TOKENS or len(huge.split()) < MAX_TOKENS
    assert np.array_equal(np.array(embed([huge])), np.array(embed([head])))


def test_counts_are_exact_inside_the_window_and_only_say_more_past_it() -> None:
    embed = default_embedding()
    assert embed.token_count("hello world") == 4  # [CLS] hello world [SEP]
    assert embed.token_count("word " * 126) == 128
    assert MAX_TOKENS < embed.token_count("word " * 2_000_000) < 2 * MAX_TOKENS
