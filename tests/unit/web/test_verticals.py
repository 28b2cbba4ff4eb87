"""Topics, country, language, dates and extras: mapped onto every provider that has them, refused elsewhere."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime
from typing import Any

import httpx
import pytest
from pydantic import ValidationError

from unified_search.errors import ErrorCode, SearchError
from unified_search.types import SearchRequest
from unified_search.web.extras import WebExtras
from unified_search.web.provider import CallSettings
from unified_search.web.registry import PROVIDERS

NOW = datetime(2026, 7, 10, 12, tzinfo=UTC)


def settings(name: str, **extra: Any) -> CallSettings:
    values: dict[str, Any] = {"limit": 5, "api_key": "KEY-123", "engine": "google", "now": NOW}
    if name == "searxng":
        values["base_url"] = "http://searx.test:8888"
    values.update(extra)
    return CallSettings(**values)


def sent(name: str, request: SearchRequest, **extra: Any) -> tuple[httpx.Request, dict[str, Any]]:
    built = PROVIDERS[name].build_request(request, settings(name, **extra))
    body = json.loads(built.content) if built.method == "POST" else dict(built.url.params)
    return built, body


# -- the news topic, provider by provider ---------------------------------------------------


@pytest.mark.parametrize(
    ("name", "url", "key", "value"),
    [
        ("tavily", "https://api.tavily.com/search", "topic", "news"),
        ("serper", "https://google.serper.dev/news", "q", "q"),
        ("serpapi", "https://serpapi.com/search.json", "tbm", "nws"),
        ("brave", "https://api.search.brave.com/res/v1/news/search", "q", "q"),
        ("exa", "https://api.exa.ai/search", "category", "news"),
        ("searxng", "http://searx.test:8888/search", "categories", "news"),
    ],
)
def test_news_topic_maps_onto_every_provider(name: str, url: str, key: str, value: str) -> None:
    request, body = sent(name, SearchRequest(query="q", topic="news"))
    assert str(request.url.copy_with(query=None)) == url
    assert body[key] == value


@pytest.mark.parametrize(
    ("name", "fixture", "count"),
    [
        ("serper", "serper_news_success", 5),
        ("brave", "brave_news_success", 4),
        ("serpapi", "serpapi_google_news_success", 4),
        ("exa", "exa_news_success", 3),
        ("searxng", "searxng_news_success", 4),
    ],
)
def test_news_answers_are_read(name: str, fixture: str, count: int, kit: Any) -> None:
    """Serper's ``news[]``, Brave's top-level ``results``, SerpApi's ``news_results`` ..."""
    recorded = kit.exchange(fixture)
    answer = PROVIDERS[name].parse_response(
        kit.replay(fixture), SearchRequest(query="q", topic="news"), settings(name)
    )
    assert len(answer.items) == count
    assert all(item.url and item.title for item in answer.items)
    built, _ = sent(name, SearchRequest(query="q", topic="news"), base_url=_base(name, recorded))
    assert str(built.url.copy_with(query=None)) == _recorded_url(name, recorded)


def _base(name: str, recorded: dict[str, Any]) -> str | None:
    return "http://searx.test:8888" if name == "searxng" else None


def _recorded_url(name: str, recorded: dict[str, Any]) -> str:
    url = str(recorded["request"]["url"])
    return url.replace("localhost:8888", "searx.test:8888")


def test_news_dates_in_every_provider_format_are_read(kit: Any) -> None:
    """Relative, US, slashed and day-first dates become ISO dates; an unreadable one stays empty."""
    answer = PROVIDERS["serper"].parse_response(
        kit.replay("serper_news_success"),
        SearchRequest(query="q", topic="news"),
        settings("serper"),
    )
    dates = [item.metadata.get("published_date") for item in answer.items]
    assert dates == [
        "2026-07-10T09:00:00+00:00",  # 3 hours ago
        "2026-07-08T12:00:00+00:00",  # 2 days ago
        "2026-06-28T00:00:00+00:00",  # Jun 28, 2026
        "2026-07-02T00:00:00+00:00",  # 2026/07/02
        None,  # "sometime soon": the item is kept, its date left empty
    ]
    serpapi = PROVIDERS["serpapi"].parse_response(
        kit.replay("serpapi_google_news_success"),
        SearchRequest(query="q", topic="news"),
        settings("serpapi"),
    )
    assert serpapi.items[-1].metadata["published_date"] == "2025-03-15T00:00:00+00:00"


@pytest.mark.parametrize(
    ("engine", "valid"), [("bing", "general"), ("baidu", "general"), ("yandex", "general")]
)
def test_serpapi_engines_without_news_refuse_it(engine: str, valid: str) -> None:
    with pytest.raises(SearchError) as caught:
        sent("serpapi", SearchRequest(query="q", topic="news"), engine=engine)
    assert caught.value.code is ErrorCode.UNSUPPORTED
    assert engine in caught.value.message and f"valid topics: {valid}" in caught.value.message


# -- country, language and dates --------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("tavily", {"country": "germany"}),
        ("serper", {"gl": "de", "hl": "de"}),
        ("serpapi", {"gl": "de", "hl": "de"}),
        ("brave", {"country": "DE", "search_lang": "de"}),
        ("exa", {"userLocation": "DE"}),
        ("searxng", {"language": "de-DE"}),
    ],
)
def test_country_and_language_map_where_supported(name: str, expected: dict[str, str]) -> None:
    language = None if name in {"tavily", "exa"} else "de"
    _, body = sent(name, SearchRequest(query="q", country="DE", language=language))
    for key, value in expected.items():
        assert body[key] == value


@pytest.mark.parametrize(
    ("name", "request_fields", "lacking"),
    [
        ("tavily", {"language": "de"}, "language"),
        ("exa", {"language": "de"}, "language"),
        ("exa", {"include_answer": True}, "include_answer"),
        ("brave", {"include_images": True}, "include_images"),
        ("serper", {"include_raw_content": True}, "include_raw_content"),
        ("searxng", {"start_date": date(2026, 1, 1)}, "start_date"),
        ("searxng", {"country": "ch"}, "country"),
        ("tavily", {"topic": "news", "country": "us"}, "general topic"),
        ("tavily", {"country": "zz"}, "valid countries"),
    ],
)
async def test_options_a_provider_lacks_are_unsupported_and_nothing_is_sent(
    name: str, request_fields: dict[str, Any], lacking: str, kit: Any, keys: Any, api: Any
) -> None:
    """The error names the provider and what it does support; no request leaves."""
    with pytest.raises(SearchError) as caught:
        sent(name, SearchRequest(query="q", **request_fields))
    error = caught.value
    assert error.code is ErrorCode.UNSUPPORTED and error.provider == name
    assert lacking in error.message and name in error.message
    assert "supports:" in error.message or "valid" in error.message or "only" in error.message
    from unified_search.web.handler import WebHandler

    config = kit.web_config([name])
    handler = WebHandler(config, transport=api.transport, cache=None)
    with pytest.raises(SearchError) as through:
        await handler.asearch(SearchRequest(query="q", **request_fields), kit.context(config))
    await handler.aclose()
    assert through.value.code is ErrorCode.UNSUPPORTED and api.requests == []


async def test_an_unsupported_provider_never_blocks_the_others(
    kit: Any, keys: Any, api: Any, make_handler: Any
) -> None:
    config = kit.web_config(["tavily", "serper"])
    api.on(kit.HOSTS["serper"], kit.replay("serper_search_success"))
    handler = make_handler(config)
    result = await handler.asearch(SearchRequest(query="q", language="en"), kit.context(config))
    await handler.aclose()
    assert len(result.items) == 5 and [f.provider for f in result.failures] == ["tavily"]
    assert api.hosts() == [kit.HOSTS["serper"]]


@pytest.mark.parametrize(
    ("name", "key", "value"),
    [
        ("tavily", "start_date", "2026-01-05"),
        ("serper", "tbs", "cdr:1,cd_min:1/5/2026,cd_max:2/1/2026"),
        ("serpapi", "tbs", "cdr:1,cd_min:1/5/2026,cd_max:2/1/2026"),
        ("brave", "freshness", "2026-01-05to2026-02-01"),
        ("exa", "startPublishedDate", "2026-01-05T00:00:00.000Z"),
    ],
)
def test_date_ranges_map_onto_each_api(name: str, key: str, value: str) -> None:
    request = SearchRequest(query="q", start_date=date(2026, 1, 5), end_date=date(2026, 2, 1))
    assert sent(name, request)[1][key] == value


def test_an_open_ended_range_ends_today_for_brave() -> None:
    _, body = sent("brave", SearchRequest(query="q", start_date=date(2026, 7, 1)))
    assert body["freshness"] == "2026-07-01to2026-07-10"


def test_bad_dates_and_codes_are_validation_errors_naming_the_field() -> None:
    with pytest.raises(ValidationError, match="start_date must not be after end_date"):
        SearchRequest(query="q", start_date=date(2026, 2, 1), end_date=date(2026, 1, 1))
    with pytest.raises(ValidationError, match="time_range or start_date"):
        SearchRequest(query="q", time_range="week", start_date=date(2026, 1, 1))
    with pytest.raises(ValidationError, match="country"):
        SearchRequest(query="q", country="Germany")
    with pytest.raises(ValidationError, match="topic"):
        SearchRequest(query="q", topic="finance")  # type: ignore[arg-type]


# -- answers, images, raw content and related questions ----------------------------------------


def test_tavily_answer_images_raw_content_and_follow_ups(kit: Any) -> None:
    request = SearchRequest(
        query="q",
        topic="news",
        include_answer=True,
        include_images=True,
        include_raw_content=True,
        start_date=date(2026, 7, 1),
        end_date=date(2026, 7, 31),
    )
    _, body = sent("tavily", request)
    recorded = kit.exchange("tavily_search_answer_images")["request"]["params_or_json"]
    same = [k for k in recorded if k not in ("max_results", "query")]
    assert {k: body[k] for k in same} == {k: recorded[k] for k in same}
    answer = PROVIDERS["tavily"].parse_response(
        kit.replay("tavily_search_answer_images"), request, settings("tavily")
    )
    extras = answer.extras
    assert extras.answer and extras.answer.startswith("The 2026 Tour de France")
    assert [image.url for image in extras.images] == [
        "https://images.example/tdf-podium.jpg",
        "https://images.example/tdf-champs-elysees.jpg",
    ]
    assert extras.images[1].description == "The final stage on the Champs-Élysées"
    assert extras.related_questions[0].question == "Who won the green jersey in 2026?"
    assert answer.items[0].metadata["raw_content"].startswith("Tour de France 2026")
    assert "raw_content" not in answer.items[1].metadata
    assert "published_date" not in answer.items[2].metadata  # "not available": date left empty


def test_related_questions_and_answer_boxes_of_google_apis(kit: Any) -> None:
    serper = PROVIDERS["serper"].parse_response(
        kit.replay("serper_search_success"), SearchRequest(query="q"), settings("serper")
    )
    assert [q.question for q in serper.extras.related_questions] == [
        "What is the fastest static site generator?",
        "Is Jekyll still maintained?",
    ]
    assert serper.extras.related_questions[0].url == "https://devtoolsweekly.com/ssg-benchmarks"
    assert serper.extras.related_searches[1] == "hugo vs astro"
    asked = SearchRequest(query="q", include_answer=True)
    serpapi = PROVIDERS["serpapi"].parse_response(
        kit.replay("serpapi_google_answer_box_success"), asked, settings("serpapi")
    )
    assert serpapi.extras.answer == "About 93.4 °C"
    assert serpapi.extras.related_questions[1].answer == "Around 70 °C at the summit."
    assert serpapi.extras.related_searches == [
        "boiling point of water at 3000 m",
        "boiling point calculator altitude",
    ]
    unasked = PROVIDERS["serpapi"].parse_response(
        kit.replay("serpapi_google_answer_box_success"),
        SearchRequest(query="q"),
        settings("serpapi"),
    )
    assert unasked.extras.answers == []


def test_brave_web_answer_keeps_its_news_and_faq(kit: Any) -> None:
    answer = PROVIDERS["brave"].parse_response(
        kit.replay("brave_search_with_news_and_faq"), SearchRequest(query="q"), settings("brave")
    )
    assert [item.url for item in answer.items] == [
        "https://tokio.rs/",
        "http://github.com/smol-rs/smol",
        "https://blog.example.dev/tokio-2-roadmap",
    ]
    faq = answer.extras.related_questions
    assert faq[0].question == "Which async runtime should I use in Rust?"
    assert faq[0].answer and "<strong>" not in faq[0].answer
    assert answer.items[1].metadata.get("published_date") is None


def test_searxng_answers_and_suggestions(kit: Any) -> None:
    request = SearchRequest(
        query="q", topic="news", include_answer=True, language="en", country="gb"
    )
    _, body = sent("searxng", request)
    assert body["language"] == "en-GB" and body["categories"] == "news"
    answer = PROVIDERS["searxng"].parse_response(
        kit.replay("searxng_news_success"), request, settings("searxng")
    )
    assert answer.extras.answer and answer.extras.answer.startswith("An open source licence")
    assert answer.extras.related_searches == ["licence change fork", "business source licence"]
    assert answer.items[3].metadata["published_date"] == "2026-07-09T18:30:00+00:00"


async def test_extras_reach_the_search_result_merged_over_providers(
    kit: Any, keys: Any, api: Any, make_handler: Any
) -> None:
    api.on(kit.HOSTS["tavily"], kit.replay("tavily_search_answer_images"))
    api.on(kit.HOSTS["serper"], kit.replay("serper_search_success"))
    config = kit.web_config(["tavily", "serper"])
    handler = make_handler(config)
    request = SearchRequest(query="q", include_answer=True)
    result = await handler.asearch(request, kit.context(config))
    await handler.aclose()
    extras = WebExtras.of(result)
    assert extras.answer and extras.answer.startswith("The 2026 Tour de France")
    assert [q.provider for q in extras.related_questions] == [
        "tavily",
        "tavily",
        "serper",
        "serper",
    ]
    assert result.metadata["extras"]["related_searches"][0] == "static site generator react"
    json.dumps(result.model_dump(mode="json"))  # everything stays JSON-ready


async def test_no_extras_leave_the_metadata_alone(
    kit: Any, keys: Any, api: Any, make_handler: Any
) -> None:
    api.on(kit.HOSTS["exa"], kit.replay("exa_search_success"))
    config = kit.web_config(["exa"])
    handler = make_handler(config)
    result = await handler.asearch(SearchRequest(query="q"), kit.context(config))
    await handler.aclose()
    assert "extras" not in result.metadata and WebExtras.of(result).is_empty()


# -- merging: limits after deduplication, https over http ---------------------------------------


async def test_searxng_duplicates_are_merged_before_the_limit(
    kit: Any, api: Any, make_handler: Any
) -> None:
    """The recorded answer lists one article twice (http and https); 3 distinct pages fit limit 3."""
    api.on(kit.HOSTS["searxng"], kit.replay("searxng_news_success"))
    config = kit.web_config(["searxng"])
    handler = make_handler(config)
    result = await handler.asearch(SearchRequest(query="q", limit=3), kit.context(config))
    await handler.aclose()
    urls = [item.url for item in result.items]
    assert len(urls) == 3 and len({u.split("://")[1].rstrip("/") for u in urls}) == 3
    assert urls[0] == "https://www.theregister.example/2026/07/08/licence_change/"
    merged = result.items[0]
    assert merged.content.endswith("backed by two cloud providers.")  # the longer snippet


async def test_https_wins_when_providers_disagree_on_the_scheme(
    kit: Any, keys: Any, api: Any, make_handler: Any
) -> None:
    insecure = {
        "query": "q",
        "results": [
            {
                "title": "Smol",
                "url": "http://github.com/smol-rs/smol",
                "content": "x",
                "score": 0.99,
            }
        ],
    }
    secure = {
        "requestId": "r",
        "results": [
            {"url": "https://github.com/smol-rs/smol/", "title": "smol", "text": "y", "score": 0.5}
        ],
    }
    api.on(kit.HOSTS["tavily"], httpx.Response(200, json=insecure))
    api.on(kit.HOSTS["exa"], httpx.Response(200, json=secure))
    config = kit.web_config(["tavily", "exa"])
    handler = make_handler(config)
    result = await handler.asearch(SearchRequest(query="q"), kit.context(config))
    await handler.aclose()
    (item,) = result.items
    assert item.url == "https://github.com/smol-rs/smol/" and item.title == "Smol"
    assert item.metadata["providers"] == ["tavily", "exa"]


# -- choosing a provider from the environment ------------------------------------------------


async def test_the_provider_is_chosen_from_the_keys_present_tavily_first(
    kit: Any, api: Any, make_handler: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from unified_search.config import SearchConfig

    monkeypatch.setenv("BRAVE_API_KEY", "brave-key-123")
    monkeypatch.setenv("EXA_API_KEY", "exa-key-1234")
    api.on(kit.HOSTS["brave"], kit.replay("brave_search_success"))
    api.on(kit.HOSTS["tavily"], kit.replay("tavily_search_success"))
    config = SearchConfig()
    handler = make_handler(config)
    result = await handler.asearch(SearchRequest(query="q"), kit.context(config))
    assert {i.metadata["provider"] for i in result.items} == {"brave"}
    monkeypatch.setenv("TAVILY_API_KEY", "tvly-key-123")
    result = await handler.asearch(SearchRequest(query="q"), kit.context(config))
    await handler.aclose()
    assert {i.metadata["provider"] for i in result.items} == {"tavily"}
    assert api.hosts() == [kit.HOSTS["brave"], kit.HOSTS["tavily"]]
