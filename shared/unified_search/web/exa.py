"""Exa: neural web search (``POST https://api.exa.ai/search``)."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from datetime import datetime
from typing import Any

import httpx

from unified_search.dates import SPANS
from unified_search.types import SearchRequest, TimeRange
from unified_search.web.extras import ProviderAnswer
from unified_search.web.provider import (
    CallSettings,
    Details,
    Fields,
    bounded_score,
    check_options,
    entries,
    make_items,
    parse_json,
)

ENDPOINT = "https://api.exa.ai/search"
#: Characters of page text asked for each result (the snippet).
TEXT_CHARS = 1000
DEPTHS = {"basic": "auto", "advanced": "deep"}
TOPICS = ("general", "news")
SUPPORTED = ("country", "start_date", "end_date", "include_raw_content")
_FIELDS = Fields(content="text", published=("publishedDate",))


def published_after(time_range: TimeRange, now: datetime) -> str:
    """Return Exa's ``startPublishedDate`` for a time range, in ISO 8601 UTC."""
    return (now - SPANS[time_range]).strftime("%Y-%m-%dT%H:%M:%S.000Z")


class Exa:
    """Exa search: native domain and date filters, ``category: news``, ``deep`` for ``advanced``.

    Example:
        >>> Exa().build_request(SearchRequest(query="q", search_depth="advanced"), CallSettings(limit=3, api_key="k", depth="advanced")).method
        'POST'
    """

    name = "exa"
    needs_key = True
    rules = ()

    def build_request(self, request: SearchRequest, settings: CallSettings) -> httpx.Request:
        """Build the camelCase JSON body of a search."""
        check_options(self.name, request, SUPPORTED, TOPICS)
        text: dict[str, Any] | bool = (
            True if request.include_raw_content else {"maxCharacters": TEXT_CHARS}
        )
        body: dict[str, Any] = {
            "query": request.query,
            "numResults": settings.limit,
            "type": DEPTHS[settings.depth],
            "contents": {"text": text, "highlights": True},
        }
        if request.topic == "news":
            body["category"] = "news"
        if request.sites:
            body["includeDomains"] = list(request.sites)
        if request.exclude_sites:
            body["excludeDomains"] = list(request.exclude_sites)
        if request.time_range:
            body["startPublishedDate"] = published_after(request.time_range, settings.clock())
        if request.start_date:
            body["startPublishedDate"] = f"{request.start_date.isoformat()}T00:00:00.000Z"
        if request.end_date:
            body["endPublishedDate"] = f"{request.end_date.isoformat()}T23:59:59.999Z"
        if request.country:
            body["userLocation"] = request.country.upper()
        headers = {"x-api-key": settings.api_key or ""}
        return httpx.Request("POST", settings.base_url or ENDPOINT, json=body, headers=headers)

    def parse_response(
        self, response: httpx.Response, request: SearchRequest, settings: CallSettings
    ) -> ProviderAnswer:
        """Read ``results[]``; the snippet is the text, else the highlights."""
        data = parse_json(response, self.name)
        results = entries(data, "results", provider=self.name, required=True)
        details = functools.partial(_details, full=request.include_raw_content)
        return ProviderAnswer(
            make_items(self.name, results, _FIELDS, now=settings.now, details=details)
        )


def _details(raw: Mapping[str, Any], *, full: bool) -> Details:
    """The snippet (the text, else the highlights), the author and, if asked, the full text."""
    text = raw.get("text")
    highlights = raw.get("highlights")
    snippet = text if isinstance(text, str) and text.strip() else ""
    if (full or not snippet) and isinstance(highlights, list):
        snippet = " … ".join(h for h in highlights if isinstance(h, str)) or snippet
    return {
        "content": snippet[:TEXT_CHARS] if full else snippet,
        "score": bounded_score(raw.get("score")),
        "extra": {"author": raw.get("author"), "raw_content": text if full else None},
    }
