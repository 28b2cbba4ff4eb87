"""SerpApi: many search engines behind one API (``GET https://serpapi.com/search.json``).

Each engine names its parameters differently; ``ENGINES`` holds the few that
differ and what each engine can do. A topic, a time range or an option an
engine lacks is refused with UNSUPPORTED before anything is sent, naming what
it does accept.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import httpx

from unified_search.errors import ErrorCode, SearchError
from unified_search.http import Rule, bad_payload
from unified_search.types import SearchRequest
from unified_search.web.extras import ProviderAnswer
from unified_search.web.google import TIME_RANGES, GoogleKeys, google_dates, google_extras
from unified_search.web.provider import (
    CallSettings,
    Fields,
    check_options,
    entries,
    make_items,
    parse_json,
    unsupported,
    with_sites,
)

ENDPOINT = "https://serpapi.com/search.json"
_FIELDS = Fields(url="link", content="snippet", published=("date",))
_GOOGLE = GoogleKeys(
    answer_box="answer_box",
    questions="related_questions",
    searches="related_searches",
    answer_text=("answer", "snippet", "result"),
)


@dataclass(frozen=True)
class Engine:
    """The parameter names of one SerpApi engine, and what it supports."""

    query: str = "q"
    count: str | None = None
    """Parameter for the number of results; ``None`` when the engine has a fixed page size."""
    time: dict[str, tuple[str, str]] = field(default_factory=dict)
    """``time_range`` → (parameter, value)."""
    country: str | None = None
    language: str | None = None
    news: tuple[str, str] | None = None
    """(parameter, value) that turns a search into a news search (answer in ``news_results``)."""
    google: bool = False
    """Google's extras: ``tbs`` date ranges, the answer box and related questions."""

    def supported(self) -> tuple[str, ...]:
        """The request options this engine can honour."""
        options = [("country", self.country), ("language", self.language)]
        found = [name for name, param in options if param]
        if self.google:
            found += ["start_date", "end_date", "include_answer"]
        return tuple(found)

    def topics(self) -> tuple[str, ...]:
        """The topics this engine can search."""
        return ("general", "news") if self.news else ("general",)


def _ranges(param: str, values: tuple[str, ...]) -> dict[str, tuple[str, str]]:
    return {
        name: (param, value)
        for name, value in zip(("day", "week", "month", "year"), values, strict=False)
    }


#: The engines this library knows how to address.
ENGINES: dict[str, Engine] = {
    "google": Engine(
        "q",
        "num",
        {name: ("tbs", code) for name, code in TIME_RANGES.items()},
        country="gl",
        language="hl",
        news=("tbm", "nws"),
        google=True,
    ),
    "bing": Engine(
        "q", "count", _ranges("filters", ('ex1:"ez1"', 'ex1:"ez2"', 'ex1:"ez3"')), country="cc"
    ),
    "baidu": Engine("q", "rn"),
    "yandex": Engine("text"),
    "yahoo": Engine("p"),
    "duckduckgo": Engine("q", None, _ranges("df", ("d", "w", "m", "y"))),
    "naver": Engine("query"),
}


def engine_named(name: str) -> Engine:
    """Return the engine ``name``; the error lists the valid names."""
    try:
        return ENGINES[name]
    except KeyError:
        valid = ", ".join(sorted(ENGINES))
        raise SearchError(
            ErrorCode.UNSUPPORTED,
            f"unknown SerpApi engine {name!r}; valid engines: {valid}",
            provider="serpapi",
        ) from None


class SerpApi:
    """SerpApi: engine from ``request.options["engine"]`` or ``web.serpapi.engine``.

    Example:
        >>> req = SerpApi().build_request(SearchRequest(query="q"), CallSettings(limit=5, api_key="k", engine="bing"))
        >>> req.url.params["count"]
        '5'
    """

    name = "serpapi"
    needs_key = True
    rules = (
        Rule(429, ErrorCode.QUOTA_EXCEEDED, match="run out of searches", hint="no searches left"),
    )

    def build_request(self, request: SearchRequest, settings: CallSettings) -> httpx.Request:
        """Build the query string of a search on the chosen engine."""
        engine_name = _engine_name(request, settings)
        engine = engine_named(engine_name)
        where = f"serpapi engine {engine_name}"
        check_options(self.name, request, engine.supported(), engine.topics(), subject=where)
        if request.time_range and request.time_range not in engine.time:
            valid = ", ".join(engine.time) or "none"
            raise unsupported(
                self.name, f"{where} has no {request.time_range!r} time range; valid: {valid}"
            )
        params: dict[str, Any] = {
            "engine": engine_name,
            engine.query: with_sites(request.query, request.sites, request.exclude_sites),
            "api_key": settings.api_key or "",
        }
        if engine.count:
            params[engine.count] = settings.limit
        if request.time_range:
            key, value = engine.time[request.time_range]
            params[key] = value
        if engine.google and (tbs := google_dates(request)):
            params["tbs"] = tbs
        if engine.news and request.topic == "news":
            params[engine.news[0]] = engine.news[1]
        if engine.country and request.country:
            params[engine.country] = request.country.lower()
        if engine.language and request.language:
            params[engine.language] = request.language.lower()
        headers = {"Accept": "application/json"}
        return httpx.Request("GET", settings.base_url or ENDPOINT, params=params, headers=headers)

    def parse_response(
        self, response: httpx.Response, request: SearchRequest, settings: CallSettings
    ) -> ProviderAnswer:
        """Read ``organic_results[]`` (``news_results[]`` for news) and Google's extras.

        A 200 answer whose ``error`` says nothing was found is empty.
        """
        data = parse_json(response, self.name)
        key = "news_results" if request.topic == "news" else "organic_results"
        extras = google_extras(self.name, data, request, _GOOGLE)
        if key not in data:
            _check_empty(data)
            return ProviderAnswer([], extras)
        raw = entries(data, key, provider=self.name, required=True)
        return ProviderAnswer(make_items(self.name, raw, _FIELDS, now=settings.now), extras)


def _engine_name(request: SearchRequest, settings: CallSettings) -> str:
    return str(request.options.get("engine") or settings.engine or "google")


def _check_empty(data: dict[str, Any]) -> None:
    """Accept an answer without results only when SerpApi says the search itself succeeded."""
    metadata = data.get("search_metadata")
    status = metadata.get("status") if isinstance(metadata, dict) else None
    if status == "Success":
        return
    reason = data.get("error") if isinstance(data.get("error"), str) else "unexpected JSON answer"
    raise bad_payload("serpapi", str(reason), str(data))
