"""Every vertical and option on every provider and SerpApi engine: sent as the API names it, or refused.

A refusal is UNSUPPORTED before anything is sent, naming the provider (and
engine) and what it does accept. Also: answer shapes of real instances the
recorded fixtures lack, and limits that count pages after deduplication.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, date, datetime
from typing import Any

import httpx
import pytest

from unified_search.errors import ErrorCode, SearchError
from unified_search.types import SearchRequest
from unified_search.web.provider import CallSettings
from unified_search.web.registry import PROVIDERS

NOW = datetime(2026, 7, 10, 12, tzinfo=UTC)
DAY = date(2026, 7, 1)
OPTIONS: dict[str, dict[str, Any]] = {
    "news": {"topic": "news"},
    "country": {"country": "DE"},
    "language": {"language": "de"},
    "start_date": {"start_date": DAY},
    "end_date": {"end_date": DAY},
    "time_range": {"time_range": "year"},
    "include_answer": {"include_answer": True},
    "include_raw_content": {"include_raw_content": True},
    "include_images": {"include_images": True},
    "include_image_descriptions": {"include_image_descriptions": True},
}
Check = Callable[[httpx.Request, dict[str, Any]], bool]
REFUSED = None


def anything(request: httpx.Request, body: dict[str, Any]) -> bool:
    """An option with nothing to send (the answer box comes with every Google answer)."""
    return True


#: Google's own parameters, the same through Serper and SerpApi (whose news differ).
GOOGLE: dict[str, Check | None] = {
    "country": lambda r, b: b["gl"] == "de",
    "language": lambda r, b: b["hl"] == "de",
    "start_date": lambda r, b: b["tbs"] == "cdr:1,cd_min:7/1/2026",
    "end_date": lambda r, b: b["tbs"] == "cdr:1,cd_max:7/1/2026",
    "time_range": lambda r, b: b["tbs"] == "qdr:y",
    "include_answer": anything,
    "include_raw_content": REFUSED,
    "include_images": REFUSED,
    "include_image_descriptions": REFUSED,
}
#: Where each option lands in each API's request; ``REFUSED`` where the API lacks it.
SENT: dict[str, dict[str, Check | None]] = {
    "tavily": {
        "news": lambda r, b: b["topic"] == "news",
        "country": lambda r, b: b["country"] == "germany",
        "language": REFUSED,
        "start_date": lambda r, b: b["start_date"] == "2026-07-01",
        "end_date": lambda r, b: b["end_date"] == "2026-07-01",
        "time_range": lambda r, b: b["time_range"] == "year",
        "include_answer": lambda r, b: b["include_answer"] is True,
        "include_raw_content": lambda r, b: b["include_raw_content"] is True,
        "include_images": lambda r, b: b["include_images"] is True,
        "include_image_descriptions": lambda r, b: (
            b["include_images"] is True and b["include_image_descriptions"] is True
        ),
    },
    "serper": GOOGLE | {"news": lambda r, b: r.url.path == "/news"},
    "brave": {
        "news": lambda r, b: r.url.path == "/res/v1/news/search",
        "country": lambda r, b: b["country"] == "DE",
        "language": lambda r, b: b["search_lang"] == "de",
        "start_date": lambda r, b: b["freshness"] == "2026-07-01to2026-07-10",
        "end_date": lambda r, b: b["freshness"] == "1970-01-01to2026-07-01",
        "time_range": lambda r, b: b["freshness"] == "py",
        "include_answer": REFUSED,
        "include_raw_content": REFUSED,
        "include_images": REFUSED,
        "include_image_descriptions": REFUSED,
    },
    "exa": {
        "news": lambda r, b: b["category"] == "news",
        "country": lambda r, b: b["userLocation"] == "DE",
        "language": REFUSED,
        "start_date": lambda r, b: b["startPublishedDate"] == "2026-07-01T00:00:00.000Z",
        "end_date": lambda r, b: b["endPublishedDate"] == "2026-07-01T23:59:59.999Z",
        "time_range": lambda r, b: b["startPublishedDate"].startswith("2025-07-09"),
        "include_answer": REFUSED,
        "include_raw_content": lambda r, b: b["contents"]["text"] is True,
        "include_images": REFUSED,
        "include_image_descriptions": REFUSED,
    },
    "searxng": {
        "news": lambda r, b: b["categories"] == "news",
        "country": REFUSED,  # only as a language's region
        "language": lambda r, b: b["language"] == "de",
        "start_date": REFUSED,
        "end_date": REFUSED,
        "time_range": lambda r, b: b["time_range"] == "year",
        "include_answer": anything,
        "include_raw_content": REFUSED,
        "include_images": REFUSED,
        "include_image_descriptions": REFUSED,
    },
    "serpapi:google": GOOGLE | {"news": lambda r, b: b["tbm"] == "nws"},
    "serpapi:bing": {"country": lambda r, b: b["cc"] == "de", "time_range": REFUSED},
    "serpapi:duckduckgo": {"time_range": lambda r, b: b["df"] == "y"},
    **{f"serpapi:{engine}": {} for engine in ("baidu", "yandex", "yahoo", "naver")},
}
CASES = [(target, option) for target in SENT for option in OPTIONS]


def build(target: str, fields: dict[str, Any]) -> tuple[httpx.Request, dict[str, Any]]:
    name, _, engine = target.partition(":")
    settings = CallSettings(
        limit=5,
        api_key="KEY-123",
        engine=engine or None,
        base_url="http://searx.test:8888" if name == "searxng" else None,
        now=NOW,
    )
    request = PROVIDERS[name].build_request(SearchRequest(query="q", **fields), settings)
    body = json.loads(request.content) if request.method == "POST" else dict(request.url.params)
    return request, body


@pytest.mark.parametrize(("target", "option"), CASES, ids=[f"{t}-{o}" for t, o in CASES])
def test_each_option_is_sent_or_refused_naming_what_is_accepted(target: str, option: str) -> None:
    check = SENT[target].get(option, REFUSED)
    if check is not None:
        request, body = build(target, OPTIONS[option])
        assert check(request, body)
        return
    with pytest.raises(SearchError) as caught:
        build(target, OPTIONS[option])
    error = caught.value
    name, _, engine = target.partition(":")
    assert error.code is ErrorCode.UNSUPPORTED and error.provider == name
    assert name in error.message and (engine or name) in error.message
    words = ("supports:", "valid", "only together")
    assert any(word in error.message for word in words), error.message


@pytest.mark.usefixtures("keys")
@pytest.mark.parametrize(
    ("target", "option"), [c for c in CASES if SENT[c[0]].get(c[1], REFUSED) is None][:12]
)
async def test_a_refused_option_sends_nothing(target: str, option: str, kit: Any, api: Any) -> None:
    from unified_search.web.handler import WebHandler

    name, _, engine = target.partition(":")
    config = kit.web_config([name], serpapi={"engine": engine or "google"})
    handler = WebHandler(config, transport=api.transport, cache=None)
    with pytest.raises(SearchError) as caught:
        await handler.asearch(SearchRequest(query="q", **OPTIONS[option]), kit.context(config))
    await handler.aclose()
    assert caught.value.code is ErrorCode.UNSUPPORTED and api.requests == []


@pytest.mark.parametrize(
    ("language", "country", "sent"),
    [
        ("ja", None, "jp"),
        ("zh", None, "zh-hans"),
        ("zh", "TW", "zh-hant"),
        ("pt", "BR", "pt-br"),
        ("pt", None, "pt-pt"),
        ("en", "GB", "en-gb"),
        ("en", "US", "en"),
        ("no", None, "nb"),
    ],
)
def test_brave_languages_use_its_own_codes(language: str, country: str | None, sent: str) -> None:
    """Brave's ``search_lang`` is not ISO 639-1 for Japanese, Chinese, Portuguese, Norwegian."""
    fields = {"language": language} | ({"country": country} if country else {})
    assert build("brave", fields)[1]["search_lang"] == sent


def test_a_language_brave_lacks_is_refused_with_the_valid_ones() -> None:
    with pytest.raises(SearchError) as caught:
        build("brave", {"language": "la"})
    assert caught.value.code is ErrorCode.UNSUPPORTED
    assert "'la'" in caught.value.message and "ja, " in caught.value.message


# -- answers of real instances ----------------------------------------------------------------


def parse(name: str, body: dict[str, Any], **fields: Any) -> Any:
    engine = "google" if name == "serpapi" else None
    return PROVIDERS[name].parse_response(
        httpx.Response(200, json=body),
        SearchRequest(query="q", **fields),
        CallSettings(limit=10, engine=engine, now=NOW),
    )


def test_searxng_answers_as_plain_strings_are_read() -> None:
    """Instances before 2025 list ``answers`` as strings."""
    body = {"results": [], "answers": ["42", {"answer": "forty-two", "url": "https://x.io/"}]}
    answer = parse("searxng", body, include_answer=True)
    assert [a.text for a in answer.extras.answers] == ["42", "forty-two"]


def test_searxng_with_every_engine_failed_is_an_error_naming_them() -> None:
    body = {
        "query": "q",
        "number_of_results": 0,
        "results": [],
        "answers": [],
        "suggestions": [],
        "unresponsive_engines": [["google", "CAPTCHA"], ["duckduckgo", "too many requests"]],
    }
    with pytest.raises(SearchError) as caught:
        parse("searxng", body)
    assert caught.value.code is ErrorCode.PROVIDER_ERROR
    assert "google (CAPTCHA)" in caught.value.message
    assert "duckduckgo (too many requests)" in caught.value.message


def test_searxng_with_some_engines_failed_keeps_what_the_others_found() -> None:
    body = {
        "results": [{"url": "https://x.io/a", "title": "A", "score": 1.0}],
        "unresponsive_engines": [["google", "timeout"]],
    }
    assert len(parse("searxng", body).items) == 1
    assert parse("searxng", {"results": [], "unresponsive_engines": []}).items == []


def test_serpapi_calculator_answer_box() -> None:
    body = {
        "search_metadata": {"status": "Success"},
        "answer_box": {"type": "calculator_result", "result": "1,764"},
        "organic_results": [],
    }
    assert parse("serpapi", body, include_answer=True).extras.answer == "1,764"


# -- limits count pages after deduplication, on every provider ----------------------------------


#: The same page three ways (http, www, tracking, trailing slash), then two other pages.
PAGES = [
    "http://www.site.example/page?utm_source=feed",
    "https://site.example/page/",
    "http://site.example/page",
    "https://site.example/second",
    "https://site.example/third",
]


def answer_listing(name: str, urls: list[str]) -> dict[str, Any]:
    """A provider's answer listing ``urls`` as results, in its own shape."""
    if name in ("serper", "serpapi"):
        rows = [{"title": f"R{n}", "link": url, "snippet": "s"} for n, url in enumerate(urls)]
        if name == "serper":
            return {"searchParameters": {}, "organic": rows}
        return {"search_metadata": {"status": "Success"}, "organic_results": rows}
    rows = [
        {"title": f"R{n}", "url": url, "content": "s", "score": 1 - n / 10}
        for n, url in enumerate(urls)
    ]
    return {"type": "search", "web": {"results": rows}} if name == "brave" else {"results": rows}


@pytest.mark.usefixtures("keys")
@pytest.mark.parametrize("name", sorted(PROVIDERS))
async def test_the_limit_counts_distinct_pages_and_https_wins(
    name: str, kit: Any, api: Any, make_handler: Any
) -> None:
    api.on(kit.HOSTS[name], httpx.Response(200, json=answer_listing(name, PAGES)))
    config = kit.web_config([name])
    handler = make_handler(config)
    result = await handler.asearch(SearchRequest(query="q", limit=3), kit.context(config))
    await handler.aclose()
    assert [item.url for item in result.items] == [
        "https://site.example/page/",
        "https://site.example/second",
        "https://site.example/third",
    ]
