"""Choosing a reranker by name, and falling back to the weighted order when one fails."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from unified_search.config import SearchConfig
from unified_search.contract.delegates import Delegates
from unified_search.errors import ErrorCode, SearchError
from unified_search.rerank.fallback import FallbackReranker
from unified_search.rerank.registry import RERANKERS, get_reranker
from unified_search.rerank.weighted import WeightedReranker
from unified_search.types import ResultItem

ITEMS = [
    ResultItem(type="kb", document_id="low", score=0.2),
    ResultItem(type="kb", document_id="high", score=0.9),
]


@pytest.mark.parametrize("name", sorted(RERANKERS))
def test_every_builtin_builds(name: str) -> None:
    reranker = get_reranker(name, SearchConfig(), Delegates())
    assert reranker.name == ("weighted" if name == "builtin" else name)  # the design's name


def test_weighted_is_not_wrapped_and_others_are() -> None:
    assert isinstance(get_reranker("weighted", SearchConfig(), Delegates()), WeightedReranker)
    assert isinstance(get_reranker("rrf", SearchConfig(), Delegates()), FallbackReranker)


def test_unknown_name_lists_builtins_and_agents() -> None:
    with pytest.raises(SearchError) as info:
        get_reranker("nope", SearchConfig(), Delegates({"my_llm": lambda p: p}))
    assert info.value.code is ErrorCode.UNSUPPORTED
    for name in [*RERANKERS, "my_llm", "mcp:<server>.<tool>"]:
        assert name in info.value.message


@pytest.mark.parametrize("name", ["", "mcp:broken", "mcp:.tool"])
def test_malformed_names_are_unknown(name: str) -> None:
    with pytest.raises(SearchError, match="unknown reranker"):
        get_reranker(name, SearchConfig(), Delegates())


async def test_registered_agent_and_mcp_names_resolve() -> None:
    agents = Delegates({"llm": lambda p: {"order": ["ref_001"]}})
    assert get_reranker("llm", SearchConfig(), agents).name == "llm"
    assert get_reranker("mcp:rank.rerank", SearchConfig(), agents).name == "mcp:rank.rerank"


async def test_failing_reranker_falls_back_with_a_warning(caplog: pytest.LogCaptureFixture) -> None:
    """Cohere without a key fails; the weighted order is returned and the reason logged."""
    reranker = get_reranker("cohere", SearchConfig(), Delegates())
    with caplog.at_level(logging.WARNING):
        ranked = await reranker.arerank("q", ITEMS)
    assert [i.document_id for i in ranked] == ["high", "low"]
    assert "reranker 'cohere' failed" in caplog.text and "NO_API_KEY" in caplog.text


@pytest.mark.parametrize("answer", [None, "garbage", {"order": ["ref_042"]}])
async def test_agent_bad_output_falls_back(answer: Any, caplog: pytest.LogCaptureFixture) -> None:
    reranker = get_reranker("llm", SearchConfig(), Delegates({"llm": lambda p: answer}))
    with caplog.at_level(logging.WARNING):
        ranked = await reranker.arerank("q", ITEMS, top_n=1)
    assert [i.document_id for i in ranked] == ["high"]
    assert "reranker 'llm' failed" in caplog.text


async def test_agent_exception_falls_back(caplog: pytest.LogCaptureFixture) -> None:
    def explode(payload: Any) -> Any:
        raise RuntimeError("context length exceeded")

    reranker = get_reranker("llm", SearchConfig(), Delegates({"llm": explode}))
    with caplog.at_level(logging.WARNING):
        assert [i.document_id for i in await reranker.arerank("q", ITEMS)] == ["high", "low"]
    assert "context length exceeded" in caplog.text


async def test_fallback_still_refuses_bad_top_n() -> None:
    reranker = get_reranker("cross_encoder", SearchConfig(), Delegates())
    with pytest.raises(ValueError, match="top_n"):
        await reranker.arerank("q", ITEMS, top_n=0)
