"""The design's defaults: result counts, cache size, keyword extraction, provider order."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from unified_search.config import SearchConfig
from unified_search.policy.tools import KBSearchArgs, WebSearchArgs
from unified_search.types import Source
from unified_search.web.registry import KEY_ORDER, keyed_providers, no_provider_error


def test_defaults_follow_the_design() -> None:
    config = SearchConfig()
    assert config.web.max_results == 10 and config.kb.max_results == 10
    assert config.db.max_results == 20 and config.rerank.top_n == 10
    assert config.web.cache.max_entries == 50 and config.web.cache.ttl == 3600
    assert config.uses.keyword == "builtin" and config.keyword.sources == [Source.AUTO]
    assert config.keyword.max_keywords == 10


def test_tool_arguments_default_to_ten_and_cap_at_twenty_and_fifty() -> None:
    assert WebSearchArgs(query="q").max_results == 10 and KBSearchArgs(query="q").max_results == 10
    WebSearchArgs(query="q", max_results=20)
    KBSearchArgs(query="q", max_results=50)
    with pytest.raises(ValidationError, match="max_results"):
        WebSearchArgs(query="q", max_results=21)
    with pytest.raises(ValidationError, match="max_results"):
        KBSearchArgs(query="q", max_results=51)


@pytest.mark.parametrize(
    ("keys", "chosen"),
    [
        ({"SERPER_API_KEY": "s", "TAVILY_API_KEY": "t"}, "tavily"),
        ({"EXA_API_KEY": "e", "BRAVE_API_KEY": "b"}, "brave"),
        ({"SEARXNG_URL": "http://127.0.0.1:8888"}, "searxng"),
        ({"TAVILY_API_KEY": "   "}, None),  # a blank variable is not a key
    ],
)
def test_the_provider_comes_from_the_keys_tavily_first(
    monkeypatch: pytest.MonkeyPatch, keys: dict[str, str], chosen: str | None
) -> None:
    for name, value in keys.items():
        monkeypatch.setenv(name, value)
    found = keyed_providers(SearchConfig().web)
    assert (found[0] if found else None) == chosen
    assert KEY_ORDER[0] == "tavily"


def test_without_keys_the_error_names_each_variable() -> None:
    message = no_provider_error(SearchConfig().web).message
    for variable in (
        "TAVILY_API_KEY",
        "SERPER_API_KEY",
        "BRAVE_API_KEY",
        "EXA_API_KEY",
        "SERPAPI_API_KEY",
        "SEARXNG_URL",
    ):
        assert variable in message
