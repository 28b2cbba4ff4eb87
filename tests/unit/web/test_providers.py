"""Each provider's request mapping and response parsing, against recorded API shapes."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest

from unified_search.errors import ErrorCode, SearchError
from unified_search.types import ResultItem, SearchRequest
from unified_search.web.provider import CallSettings, rank_score
from unified_search.web.registry import PROVIDERS, get_provider

SUCCESS = {
    "tavily": "tavily_search_success",
    "serper": "serper_search_success",
    "serpapi": "serpapi_google_success",
    "brave": "brave_search_success",
    "exa": "exa_search_success",
    "searxng": "searxng_search_success",
}


def settings(name: str, **extra: Any) -> CallSettings:
    values: dict[str, Any] = {"limit": 5, "api_key": "KEY-123", "engine": "google"}
    if name == "searxng":
        values["base_url"] = "http://searx.test:8888"
    values.update(extra)
    return CallSettings(**values)


NOW = datetime(2026, 7, 10, 12, tzinfo=UTC)


def parse(
    name: str, response: httpx.Response, request: SearchRequest | None = None
) -> list[ResultItem]:
    """The items a provider reads from ``response`` (relative dates counted from ``NOW``)."""
    answer = PROVIDERS[name].parse_response(
        response, request or SearchRequest(query="q"), settings(name, now=NOW)
    )
    return answer.items


def body_of(request: httpx.Request) -> dict[str, Any]:
    if request.method == "POST":
        return dict(json.loads(request.content))
    return dict(request.url.params)


def test_registry_lists_every_provider_and_rejects_unknown_names() -> None:
    assert sorted(PROVIDERS) == sorted(SUCCESS)
    with pytest.raises(SearchError) as caught:
        get_provider("google")
    assert caught.value.code is ErrorCode.UNSUPPORTED
    assert "brave, exa, searxng, serpapi, serper, tavily" in caught.value.message


@pytest.mark.parametrize("name", sorted(SUCCESS))
def test_request_matches_the_recorded_endpoint_and_method(name: str, kit: Any) -> None:
    recorded = kit.exchange(SUCCESS[name])["request"]
    request = PROVIDERS[name].build_request(SearchRequest(query="heat pumps"), settings(name))
    assert request.method == recorded["method"]
    assert str(request.url.copy_with(query=None)) == recorded["url"].replace(
        "localhost:8888", "searx.test:8888"
    )
    sent = body_of(request)
    query_key = {"tavily": "query", "exa": "query"}.get(name, "q")
    assert sent[query_key] == "heat pumps"
    assert set(sent) <= set(recorded["params_or_json"]) | {
        "include_answer",
        "include_images",
        "include_image_descriptions",
        "include_raw_content",
        "contents",
    }


@pytest.mark.parametrize("name", sorted(SUCCESS))
def test_success_answer_becomes_items(name: str, kit: Any) -> None:
    items = parse(name, kit.replay(SUCCESS[name]))
    raw = kit.exchange(SUCCESS[name])["response"]
    assert len(items) >= 4
    for item in items:
        assert item.url and item.url.startswith("https://")
        assert item.title and item.content
        assert 0.0 <= item.score <= 1.0
        assert item.metadata["provider"] == name
        assert item.metadata["providers"] == [name]
    assert items[0].metadata["rank"] == 1
    assert raw  # the fixture is the real shape, not an empty stub


def test_tavily_keeps_its_scores_and_maps_every_filter(kit: Any) -> None:
    provider = PROVIDERS["tavily"]
    items = parse("tavily", kit.replay("tavily_search_success"))
    assert [i.score for i in items] == [0.8213, 0.7764, 0.6127, 0.5409]
    request = SearchRequest(query="q", sites=["a.org"], exclude_sites=["b.com"], time_range="month")
    body = body_of(provider.build_request(request, settings("tavily", limit=50, depth="advanced")))
    assert body["max_results"] == 20
    assert body["include_domains"] == ["a.org"] and body["exclude_domains"] == ["b.com"]
    assert body["time_range"] == "month" and body["search_depth"] == "advanced"
    headers = provider.build_request(request, settings("tavily")).headers
    assert headers["Authorization"] == "Bearer KEY-123"


def test_rank_based_scores_for_providers_without_scores(kit: Any) -> None:
    items = parse("serper", kit.replay("serper_search_success"))
    assert [round(i.score, 6) for i in items] == [round(rank_score(r), 6) for r in range(5)]
    assert items[0].metadata["published_date"] == "2026-01-14T00:00:00+00:00"
    assert items[1].url == "https://gohugo.io/"


@pytest.mark.parametrize(
    ("name", "key", "expected"),
    [
        ("serper", "tbs", "qdr:w"),
        ("serpapi", "tbs", "qdr:w"),
        ("brave", "freshness", "pw"),
        ("searxng", "time_range", "week"),
        ("tavily", "time_range", "week"),
    ],
)
def test_time_range_maps_onto_each_api(name: str, key: str, expected: str) -> None:
    request = SearchRequest(query="q", time_range="week")
    assert str(body_of(PROVIDERS[name].build_request(request, settings(name)))[key]) == expected


def test_exa_time_range_becomes_a_start_date_and_depth_a_search_type() -> None:
    request = SearchRequest(query="q", time_range="day", sites=["a.org"], exclude_sites=["b.com"])
    body = body_of(PROVIDERS["exa"].build_request(request, settings("exa", depth="advanced")))
    assert body["startPublishedDate"].endswith("Z") and body["type"] == "deep"
    assert body["includeDomains"] == ["a.org"] and body["excludeDomains"] == ["b.com"]
    assert body["numResults"] == 5


@pytest.mark.parametrize("name", ["serper", "serpapi", "brave", "searxng"])
def test_site_filters_become_query_operators_where_the_api_has_none(name: str) -> None:
    request = SearchRequest(query="q", sites=["a.org", "b.org"], exclude_sites=["c.com"])
    sent = body_of(PROVIDERS[name].build_request(request, settings(name)))
    assert sent["q"] == "q (site:a.org OR site:b.org) -site:c.com"


@pytest.mark.parametrize(
    ("name", "key"), [("serper", "num"), ("serpapi", "num"), ("brave", "count")]
)
def test_limit_maps_onto_the_count_parameter(name: str, key: str) -> None:
    sent = body_of(PROVIDERS[name].build_request(SearchRequest(query="q"), settings(name, limit=7)))
    assert int(sent[key]) == 7


def test_brave_caps_count_and_sends_the_key_header() -> None:
    request = PROVIDERS["brave"].build_request(
        SearchRequest(query="q"), settings("brave", limit=50)
    )
    assert request.url.params["count"] == "20"
    assert request.headers["X-Subscription-Token"] == "KEY-123"


@pytest.mark.parametrize(
    ("engine", "query_key", "count_key"),
    [
        ("bing", "q", "count"),
        ("baidu", "q", "rn"),
        ("yandex", "text", None),
        ("naver", "query", None),
    ],
)
def test_serpapi_engines_use_their_own_parameters(
    engine: str, query_key: str, count_key: str | None
) -> None:
    request = PROVIDERS["serpapi"].build_request(
        SearchRequest(query="q"), settings("serpapi", engine=engine)
    )
    params = request.url.params
    assert params["engine"] == engine and params[query_key] == "q"
    assert params["api_key"] == "KEY-123"
    if count_key:
        assert params[count_key] == "5"


def test_serpapi_engine_can_come_from_the_request() -> None:
    request = SearchRequest(query="q", options={"engine": "duckduckgo"}, time_range="year")
    params = PROVIDERS["serpapi"].build_request(request, settings("serpapi")).url.params
    assert params["engine"] == "duckduckgo" and params["df"] == "y"


def test_serpapi_unknown_engine_lists_the_valid_ones() -> None:
    with pytest.raises(SearchError) as caught:
        PROVIDERS["serpapi"].build_request(
            SearchRequest(query="q"), settings("serpapi", engine="altavista")
        )
    assert caught.value.code is ErrorCode.UNSUPPORTED
    assert "baidu, bing, duckduckgo, google, naver, yahoo, yandex" in caught.value.message


@pytest.mark.parametrize("fixture", ["serpapi_bing_success", "serpapi_baidu_success"])
def test_serpapi_other_engines_parse(fixture: str, kit: Any) -> None:
    items = parse("serpapi", kit.replay(fixture))
    assert len(items) == 4 and all(item.content for item in items)


def test_serpapi_200_with_error_is_an_empty_result() -> None:
    body = {
        "search_metadata": {"id": "x", "status": "Success"},
        "search_parameters": {"engine": "google", "q": "zzqqxx"},
        "error": "Google hasn't returned any results for this query.",
    }
    items = parse("serpapi", httpx.Response(200, json=body))
    assert items == []


def test_serpapi_200_with_error_and_failed_search_is_a_provider_error() -> None:
    body = {"search_metadata": {"status": "Error"}, "error": "Something broke."}
    with pytest.raises(SearchError) as caught:
        parse("serpapi", httpx.Response(200, json=body))
    assert (
        caught.value.code is ErrorCode.PROVIDER_ERROR and "Something broke" in caught.value.message
    )


@pytest.mark.parametrize(
    ("name", "body"),
    [
        ("tavily", {"query": "q", "results": [], "response_time": 0.5}),
        ("serper", {"searchParameters": {"q": "q"}, "credits": 1}),
        ("brave", {"type": "search", "query": {"original": "q"}}),
        ("exa", {"requestId": "r", "results": []}),
        ("searxng", {"query": "q", "results": [], "answers": []}),
    ],
)
def test_empty_answers_are_empty_results(name: str, body: dict[str, Any]) -> None:
    assert parse(name, httpx.Response(200, json=body)) == []


@pytest.mark.parametrize("name", sorted(SUCCESS))
def test_missing_fields_fall_back_and_url_less_results_are_skipped(name: str) -> None:
    url_key = "link" if name in {"serper", "serpapi"} else "url"
    raw = [{url_key: "https://a.example/page?utm_source=x"}, {"title": "no url"}, "junk"]
    body: dict[str, Any] = {
        "tavily": {"results": raw},
        "serper": {"searchParameters": {}, "organic": raw},
        "serpapi": {"organic_results": raw},
        "brave": {"type": "search", "web": {"results": raw}},
        "exa": {"results": raw},
        "searxng": {"results": raw},
    }[name]
    items = parse(name, httpx.Response(200, json=body))
    assert len(items) == 1
    assert items[0].url == "https://a.example/page"
    assert items[0].title == "https://a.example/page" and items[0].content == ""
    assert items[0].score == 1.0


@pytest.mark.parametrize("name", sorted(SUCCESS))
@pytest.mark.parametrize(
    ("response", "needle"),
    [
        (httpx.Response(200, text="{not json"), "not JSON"),
        (httpx.Response(200, html="<html><body>Service Unavailable</body></html>"), "not JSON"),
        (httpx.Response(200, json=["a", "list"]), "not a JSON object"),
        (httpx.Response(200, json={"unexpected": True}), "unexpected"),
    ],
)
def test_malformed_answers_are_provider_errors_with_an_excerpt(
    name: str, response: httpx.Response, needle: str
) -> None:
    with pytest.raises(SearchError) as caught:
        parse(name, response)
    error = caught.value
    assert error.code is ErrorCode.PROVIDER_ERROR and error.provider == name
    assert (
        needle in error.message
        or "no 'results' list" in error.message
        or "no 'organic_results'" in error.message
    )
    assert not error.retryable


def test_brave_strips_highlight_tags_and_keeps_extra_snippets(kit: Any) -> None:
    items = parse("brave", kit.replay("brave_search_success"))
    assert "<strong>" not in items[0].content and "Rust async runtimes" in items[0].content
    assert items[0].metadata["published_date"] == "2026-02-11T08:15:00+00:00"
    assert len(items[0].metadata["extra_snippets"]) == 2


def test_searxng_scores_are_scaled_by_the_best(kit: Any) -> None:
    items = parse("searxng", kit.replay("searxng_search_success"))
    assert items[0].score == 1.0
    assert items[1].score == pytest.approx(2.6666666666666665 / 7.5)
    assert items[2].metadata["published_date"] == "2025-10-07T00:00:00+00:00"


def test_searxng_without_an_instance_fails_before_sending() -> None:
    with pytest.raises(SearchError) as caught:
        PROVIDERS["searxng"].build_request(SearchRequest(query="q"), CallSettings(limit=5))
    assert caught.value.code is ErrorCode.UNSUPPORTED and "SEARXNG_URL" in caught.value.message


def test_exa_uses_highlights_when_text_is_missing() -> None:
    body = {
        "results": [
            {"url": "https://x.io/a", "title": "A", "highlights": ["one", "two"], "score": 0.42}
        ]
    }
    (item,) = parse("exa", httpx.Response(200, json=body))
    assert item.content == "one … two" and item.score == 0.42


def test_call_settings_repr_hides_the_key() -> None:
    assert "KEY-123" not in repr(settings("tavily"))
