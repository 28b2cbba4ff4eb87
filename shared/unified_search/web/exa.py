"""Exa: neural web search (``POST https://api.exa.ai/search``)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx

from unified_search.types import ResultItem, SearchRequest, TimeRange
from unified_search.web.provider import (
    CallSettings,
    Fields,
    bounded_score,
    entries,
    make_item,
    parse_json,
)

ENDPOINT = "https://api.exa.ai/search"
#: Characters of page text asked for each result (the snippet).
TEXT_CHARS = 1000
DEPTHS = {"basic": "auto", "advanced": "deep"}
SPANS: dict[TimeRange, timedelta] = {
    "day": timedelta(days=1),
    "week": timedelta(weeks=1),
    "month": timedelta(days=31),
    "year": timedelta(days=366),
}
_FIELDS = Fields(content="text", published="publishedDate")


def published_after(time_range: TimeRange, now: datetime | None = None) -> str:
    """Return Exa's ``startPublishedDate`` for a time range, in ISO 8601 UTC."""
    start = (now or datetime.now(UTC)) - SPANS[time_range]
    return start.strftime("%Y-%m-%dT%H:%M:%S.000Z")


class Exa:
    """Exa search: native domain filters, publication dates, ``deep`` search for ``advanced``.

    Example:
        >>> Exa().build_request(SearchRequest(query="q", search_depth="advanced"), CallSettings(limit=3, api_key="k", depth="advanced")).method
        'POST'
    """

    name = "exa"
    needs_key = True
    rules = ()

    def build_request(self, request: SearchRequest, settings: CallSettings) -> httpx.Request:
        """Build the camelCase JSON body of a search."""
        body: dict[str, Any] = {
            "query": request.query,
            "numResults": settings.limit,
            "type": DEPTHS[settings.depth],
            "contents": {"text": {"maxCharacters": TEXT_CHARS}, "highlights": True},
        }
        if request.sites:
            body["includeDomains"] = list(request.sites)
        if request.exclude_sites:
            body["excludeDomains"] = list(request.exclude_sites)
        if request.time_range:
            body["startPublishedDate"] = published_after(request.time_range)
        headers = {"x-api-key": settings.api_key or ""}
        return httpx.Request("POST", settings.base_url or ENDPOINT, json=body, headers=headers)

    def parse_response(self, response: httpx.Response, request: SearchRequest) -> list[ResultItem]:
        """Read ``results[]``; the snippet is the text, else the highlights."""
        data = parse_json(response, self.name)
        results = entries(data, "results", provider=self.name, required=True)
        return [item for item in map(_item, enumerate(results)) if item is not None]


def _item(ranked: tuple[int, Mapping[str, Any]]) -> ResultItem | None:
    rank, raw = ranked
    text = raw.get("text")
    highlights = raw.get("highlights")
    if not (isinstance(text, str) and text.strip()) and isinstance(highlights, list):
        text = " … ".join(h for h in highlights if isinstance(h, str))
    content = text if isinstance(text, str) else ""
    score = bounded_score(raw.get("score"))
    return make_item(
        "exa", rank, raw, _FIELDS, content=content, score=score, extra={"author": raw.get("author")}
    )
