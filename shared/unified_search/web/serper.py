"""Serper: Google results as JSON (``POST https://google.serper.dev/search``)."""

from __future__ import annotations

from typing import Any

import httpx

from unified_search.errors import ErrorCode
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

ENDPOINT = "https://google.serper.dev/search"
#: Google's ``tbs`` time filter.
TIME_RANGES = {"day": "qdr:d", "week": "qdr:w", "month": "qdr:m", "year": "qdr:y"}
_FIELDS = Fields(url="link", content="snippet", published="date")


class Serper:
    """Serper: domains through ``site:`` operators, time through ``tbs``; rank-based scores.

    Example:
        >>> Serper().build_request(SearchRequest(query="ssg"), CallSettings(limit=5, api_key="k")).method
        'POST'
    """

    name = "serper"
    needs_key = True
    rules = (
        Rule(400, ErrorCode.QUOTA_EXCEEDED, match="credits", hint="out of credits"),
        Rule(403, ErrorCode.INVALID_API_KEY),
    )

    def build_request(self, request: SearchRequest, settings: CallSettings) -> httpx.Request:
        """Build the JSON body of a Google search."""
        body: dict[str, Any] = {
            "q": with_sites(request.query, request.sites, request.exclude_sites),
            "num": settings.limit,
        }
        if request.time_range:
            body["tbs"] = TIME_RANGES[request.time_range]
        headers = {"X-API-KEY": settings.api_key or ""}
        return httpx.Request("POST", settings.base_url or ENDPOINT, json=body, headers=headers)

    def parse_response(self, response: httpx.Response, request: SearchRequest) -> list[ResultItem]:
        """Read ``organic[]`` (absent when Google found nothing)."""
        data = parse_json(response, self.name)
        if "searchParameters" not in data and "organic" not in data:
            raise bad_payload(self.name, "unexpected JSON answer", str(data))
        organic = entries(data, "organic", provider=self.name, required=False)
        items = (make_item(self.name, rank, raw, _FIELDS) for rank, raw in enumerate(organic))
        return [item for item in items if item is not None]
