"""Brave Search: an independent web index (``GET https://api.search.brave.com/res/v1/web/search``)."""

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

ENDPOINT = "https://api.search.brave.com/res/v1/web/search"
#: Brave answers at most this many web results per call.
MAX_RESULTS = 20
FRESHNESS = {"day": "pd", "week": "pw", "month": "pm", "year": "py"}
_FIELDS = Fields(content="description", published="page_age")


class Brave:
    """Brave web search: domains via ``site:``, time via ``freshness``; rank-based scores.

    Brave's 422 means a bad key only when the body says ``SUBSCRIPTION_TOKEN_INVALID``;
    otherwise it is a validation error. Its 429 is a quota when the body says ``QUOTA_LIMITED``.

    Example:
        >>> Brave().build_request(SearchRequest(query="q", time_range="week"), CallSettings(limit=5, api_key="k")).url.params["freshness"]
        'pw'
    """

    name = "brave"
    needs_key = True
    rules = (
        Rule(422, ErrorCode.INVALID_API_KEY, match="SUBSCRIPTION_TOKEN_INVALID"),
        Rule(404, ErrorCode.INVALID_API_KEY, match="SUBSCRIPTION_NOT_FOUND"),
        Rule(429, ErrorCode.QUOTA_EXCEEDED, match="QUOTA_LIMITED", hint="monthly quota used up"),
    )

    def build_request(self, request: SearchRequest, settings: CallSettings) -> httpx.Request:
        """Build the query string of a web search."""
        params: dict[str, Any] = {
            "q": with_sites(request.query, request.sites, request.exclude_sites),
            "count": min(settings.limit, MAX_RESULTS),
        }
        if request.time_range:
            params["freshness"] = FRESHNESS[request.time_range]
        headers = {"Accept": "application/json", "X-Subscription-Token": settings.api_key or ""}
        return httpx.Request("GET", settings.base_url or ENDPOINT, params=params, headers=headers)

    def parse_response(self, response: httpx.Response, request: SearchRequest) -> list[ResultItem]:
        """Read ``web.results[]`` (``web`` is absent when nothing was found)."""
        data = parse_json(response, self.name)
        web = data.get("web")
        if web is None:
            if data.get("type") != "search":
                raise bad_payload(self.name, "unexpected JSON answer", str(data))
            return []
        if not isinstance(web, dict):
            raise bad_payload(self.name, "'web' is not an object", str(data))
        results = entries(web, "results", provider=self.name, required=False)
        return [item for item in map(_item, enumerate(results)) if item is not None]


def _item(ranked: tuple[int, Any]) -> ResultItem | None:
    rank, raw = ranked
    extra = {"age": raw.get("age"), "extra_snippets": raw.get("extra_snippets")}
    return make_item("brave", rank, raw, _FIELDS, extra=extra)
