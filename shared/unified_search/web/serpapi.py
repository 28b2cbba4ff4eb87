"""SerpApi: many search engines behind one API (``GET https://serpapi.com/search.json``).

Each engine names its parameters differently; ``ENGINES`` holds the few that
differ. A time range an engine cannot express is not sent (the search still
runs, unfiltered).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import httpx

from unified_search.errors import ErrorCode, SearchError
from unified_search.types import ResultItem, SearchRequest
from unified_search.web.errors import Rule, bad_payload
from unified_search.web.provider import (
    CallSettings,
    Fields,
    entries,
    make_item,
    parse_json,
    with_sites,
)

ENDPOINT = "https://serpapi.com/search.json"
_FIELDS = Fields(url="link", content="snippet", published="date")


@dataclass(frozen=True)
class Engine:
    """The parameter names of one SerpApi engine."""

    query: str = "q"
    count: str | None = None
    """Parameter for the number of results; ``None`` when the engine has a fixed page size."""
    time: dict[str, tuple[str, str]] = field(default_factory=dict)
    """``time_range`` → (parameter, value)."""


def _ranges(param: str, values: tuple[str, ...]) -> dict[str, tuple[str, str]]:
    return {
        name: (param, value)
        for name, value in zip(("day", "week", "month", "year"), values, strict=False)
    }


#: The engines this library knows how to address.
ENGINES: dict[str, Engine] = {
    "google": Engine("q", "num", _ranges("tbs", ("qdr:d", "qdr:w", "qdr:m", "qdr:y"))),
    "bing": Engine("q", "count", _ranges("filters", ('ex1:"ez1"', 'ex1:"ez2"', 'ex1:"ez3"'))),
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
        engine_name = str(request.options.get("engine") or settings.engine or "google")
        engine = engine_named(engine_name)
        params: dict[str, Any] = {
            "engine": engine_name,
            engine.query: with_sites(request.query, request.sites, request.exclude_sites),
            "api_key": settings.api_key or "",
        }
        if engine.count:
            params[engine.count] = settings.limit
        if request.time_range and request.time_range in engine.time:
            key, value = engine.time[request.time_range]
            params[key] = value
        headers = {"Accept": "application/json"}
        return httpx.Request("GET", settings.base_url or ENDPOINT, params=params, headers=headers)

    def parse_response(self, response: httpx.Response, request: SearchRequest) -> list[ResultItem]:
        """Read ``organic_results[]``; a 200 answer whose ``error`` says nothing was found is empty."""
        data = parse_json(response, self.name)
        if "organic_results" not in data:
            _check_empty(data)
            return []
        organic = entries(data, "organic_results", provider=self.name, required=True)
        items = (make_item(self.name, rank, raw, _FIELDS) for rank, raw in enumerate(organic))
        return [item for item in items if item is not None]


def _check_empty(data: dict[str, Any]) -> None:
    """Accept an answer without results only when SerpApi says the search itself succeeded."""
    metadata = data.get("search_metadata")
    status = metadata.get("status") if isinstance(metadata, dict) else None
    if status == "Success":
        return
    reason = data.get("error") if isinstance(data.get("error"), str) else "unexpected JSON answer"
    raise bad_payload("serpapi", str(reason), str(data))
