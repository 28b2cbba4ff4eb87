"""URL hygiene for deduplication, and the web configuration section."""

from __future__ import annotations

import pytest

from unified_search.config import SearchConfig
from unified_search.errors import ConfigurationError
from unified_search.urls import canonical_url, clean_url


@pytest.mark.parametrize(
    "variant",
    [
        "https://example.com/docs/page",
        "http://example.com/docs/page",
        "https://EXAMPLE.com/docs/page/",
        "https://www.example.com/docs/page",
        "https://example.com:443/docs/page",
        "http://example.com:80/docs/page#section",
        "https://example.com/docs/page?utm_source=news&utm_medium=email",
        "https://example.com/docs/page?fbclid=abc&gclid=def&mc_cid=1&ref_src=twsrc",
    ],
)
def test_variants_of_one_page_share_a_canonical_form(variant: str) -> None:
    assert canonical_url(variant) == "example.com/docs/page"


def test_meaningful_differences_survive() -> None:
    assert canonical_url("https://example.com/a?id=1") != canonical_url(
        "https://example.com/a?id=2"
    )
    assert canonical_url("https://example.com:8443/a") == "example.com:8443/a"
    assert canonical_url("https://example.com/a?b=2&a=1") == canonical_url(
        "https://example.com/a?a=1&b=2"
    )


def test_displayed_url_is_cleaned_but_keeps_its_scheme() -> None:
    assert clean_url("HTTP://Example.com:80/a?utm_campaign=x&q=1#top") == "http://example.com/a?q=1"


def test_web_defaults_and_provider_settings() -> None:
    web = SearchConfig().web
    assert (
        web.tavily.api_key_env.env == "TAVILY_API_KEY"
        and web.serper.api_key_env.env == "SERPER_API_KEY"
    )
    assert web.serpapi.engine == "google" and web.searxng.base_url_env == "SEARXNG_URL"
    assert web.cache.ttl == 3600 and web.reader.max_chars == 10_000
    assert (
        web.reader.allow_private_hosts is False
        and web.reader.jina.api_key_env.env == "JINA_API_KEY"
    )
    assert web.provider_settings("nope").api_key_env is None


def test_web_config_layers_merge_and_reject_unknown_keys() -> None:
    config = SearchConfig.load(
        profile={"web": {"serpapi": {"engine": "bing"}, "providers": ["serpapi"]}}
    )
    assert (
        config.web.serpapi.engine == "bing"
        and config.web.serpapi.api_key_env.env == "SERPAPI_API_KEY"
    )
    with pytest.raises(ConfigurationError, match=r"web\.tavily\.api_key"):
        SearchConfig.load(profile={"web": {"tavily": {"api_key": "tvly-raw"}}})
    with pytest.raises(ConfigurationError, match=r"web\.retries"):
        SearchConfig.load(profile={"web": {"retries": -1}})
