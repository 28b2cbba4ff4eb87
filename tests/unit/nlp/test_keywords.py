"""Keyword extraction: builtin English/Chinese extraction and delegated extraction."""

from __future__ import annotations

import logging
import sys

import pytest

from unified_search.config import SearchConfig
from unified_search.contract.delegates import Delegates
from unified_search.nlp import keywords
from unified_search.nlp.keywords import extract_keywords, keywords_for, parse_keywords


def test_english_query_drops_stop_words_and_keeps_prices() -> None:
    """Filler words go; content words and the price stay, in query order."""
    assert extract_keywords("What are the best wireless headphones under $100?") == [
        "wireless",
        "headphones",
        "$100",
    ]


def test_frequent_pair_becomes_one_phrase_ranked_first() -> None:
    """A word pair seen twice is kept together and outranks single words."""
    text = (
        "Wireless headphones compared. Our wireless headphones test covers battery life; "
        "battery matters for wireless earbuds."
    )
    keywords = extract_keywords(text)
    assert keywords[0] == "wireless headphones"
    assert "battery" in keywords
    assert "headphones" not in keywords  # both uses belong to the phrase


def test_numbers_units_and_percentages_are_kept() -> None:
    keywords = extract_keywords("iPhone 15 with 256GB storage, 20% off, costs 99.5 USD in 2024")
    for kept in ("15", "256gb", "20%", "99.5 usd", "2024"):
        assert kept in keywords


def test_programming_names_keep_their_symbols() -> None:
    keywords = extract_keywords("C++ versus C# and node.js with gpt-4o")
    assert keywords == ["c++", "c#", "node.js", "gpt-4o"]


def test_quoted_phrase_is_kept_whole() -> None:
    assert extract_keywords('"retrieval augmented generation" survey')[0] == (
        "retrieval augmented generation"
    )


def test_chinese_is_segmented_and_particles_dropped() -> None:
    """jieba splits the run; 的/什么/是 are stop words; the yuan price stays whole."""
    keywords = extract_keywords("什么是无线耳机的价格？低于100元的无线耳机")
    assert keywords[0] == "无线耳机"
    assert "100元" in keywords
    assert not {"的", "什么", "是"} & set(keywords)


def test_mixed_chinese_and_english() -> None:
    assert extract_keywords("Kubernetes 教程 和 Docker 区别") == [
        "kubernetes",
        "教程",
        "docker",
        "区别",
    ]


def test_frequency_orders_keywords() -> None:
    keywords = extract_keywords("raft raft raft paxos paxos gossip")
    assert keywords == ["raft", "paxos", "gossip"]


def test_max_keywords_cuts_the_list() -> None:
    assert len(extract_keywords("alpha beta gamma delta epsilon", 2)) == 2


def test_extra_stop_words_are_dropped() -> None:
    assert extract_keywords("acme router setup", stop_words=["ACME"]) == ["router", "setup"]


@pytest.mark.parametrize("text", ["", "   ", "the of and is", "?!,.", "的 了 吗"])
def test_nothing_to_extract_gives_empty_list(text: str) -> None:
    assert extract_keywords(text) == []


def test_unsupported_script_is_best_effort() -> None:
    """Cyrillic and Arabic are split on letters without crashing."""
    assert extract_keywords("кластер Kubernetes مرحبا") == ["кластер", "kubernetes", "مرحبا"]


def test_max_keywords_below_one_is_refused() -> None:
    with pytest.raises(ValueError, match="max_keywords"):
        extract_keywords("anything", 0)


async def test_builtin_when_uses_keyword_is_unset() -> None:
    config = SearchConfig.load(profile={"keyword": {"max_keywords": 2}})
    assert await keywords_for("rust async runtime tokio", config, Delegates()) == [
        "rust",
        "async",
    ]


@pytest.mark.parametrize(
    "answer", [["tokio", "runtime"], {"keywords": ["tokio", "runtime"]}, [" tokio ", "runtime", ""]]
)
async def test_agent_answers_are_accepted(answer: object) -> None:
    seen: list[dict[str, object]] = []

    def agent(payload: dict[str, object]) -> object:
        seen.append(payload)
        return answer

    config = SearchConfig.load(profile={"uses": {"keyword": "kw"}, "keyword": {"max_keywords": 3}})
    keywords = await keywords_for("rust async runtime", config, Delegates({"kw": agent}))
    assert keywords == ["tokio", "runtime"]
    assert seen == [{"query": "rust async runtime", "max_keywords": 3}]


@pytest.mark.parametrize("answer", [None, "tokio runtime", {"words": ["x"]}, [1, 2], []])
async def test_bad_agent_answer_falls_back_to_builtin(
    answer: object, caplog: pytest.LogCaptureFixture
) -> None:
    config = SearchConfig.load(profile={"uses": {"keyword": "kw"}})
    with caplog.at_level(logging.WARNING):
        keywords = await keywords_for(
            "rust async runtime", config, Delegates({"kw": lambda p: answer})
        )
    assert keywords == ["rust", "async", "runtime"]
    assert "keyword extractor 'kw' failed" in caplog.text


async def test_failing_or_unknown_agent_falls_back(caplog: pytest.LogCaptureFixture) -> None:
    def broken(payload: object) -> object:
        raise RuntimeError("model offline")

    config = SearchConfig.load(profile={"uses": {"keyword": "kw"}})
    with caplog.at_level(logging.WARNING):
        assert await keywords_for("rust", config, Delegates({"kw": broken})) == ["rust"]
        assert await keywords_for("rust", config, Delegates()) == ["rust"]
    assert "model offline" in caplog.text
    assert "unknown agent 'kw'" in caplog.text


async def test_mcp_uses_goes_through_delegates() -> None:
    class RecordingDelegates(Delegates):
        async def call(self, uses: str, payload: object, config: SearchConfig) -> object:
            self.called = (uses, payload)
            return {"keywords": ["from-mcp"]}

    delegates = RecordingDelegates()
    config = SearchConfig.load(profile={"uses": {"keyword": "mcp:nlp.keywords"}})
    assert await keywords_for("query text", config, delegates) == ["from-mcp"]
    assert delegates.called == ("mcp:nlp.keywords", {"query": "query text", "max_keywords": 10})


def test_parse_keywords_rejects_non_lists() -> None:
    with pytest.raises(ValueError, match="list of keyword strings"):
        parse_keywords({"keywords": "a b"})


def test_without_jieba_chinese_falls_back_to_character_pairs(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The documented fallback: overlapping character pairs, with a warning saying why."""
    monkeypatch.setitem(sys.modules, "jieba", None)
    monkeypatch.setattr(keywords, "_segmenter", None)
    with caplog.at_level(logging.WARNING):
        assert keywords.segment_chinese("无线耳机") == ["无线", "线耳", "耳机"]
    assert "jieba is not installed" in caplog.text
