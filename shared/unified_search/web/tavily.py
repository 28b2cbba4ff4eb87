"""Tavily: a search API built for LLM agents (``POST https://api.tavily.com/search``)."""

from __future__ import annotations

from typing import Any

import httpx

from unified_search.errors import ErrorCode
from unified_search.types import ResultItem, SearchRequest
from unified_search.web.errors import Rule
from unified_search.web.provider import (
    CallSettings,
    Fields,
    bounded_score,
    entries,
    make_item,
    parse_json,
)

ENDPOINT = "https://api.tavily.com/search"
#: Tavily answers at most this many results per call.
MAX_RESULTS = 20
_FIELDS = Fields(published="published_date")


class Tavily:
    """Tavily search: native domain filters, ``time_range`` and ``search_depth``, scores in 0..1.

    Example:
        >>> Tavily().build_request(SearchRequest(query="rag"), CallSettings(limit=3, api_key="k")).url
        URL('https://api.tavily.com/search')
    """

    name = "tavily"
    needs_key = True
    rules = (
        Rule(432, ErrorCode.QUOTA_EXCEEDED, hint="plan limit reached"),
        Rule(433, ErrorCode.QUOTA_EXCEEDED, hint="pay-as-you-go limit reached"),
    )

    def build_request(self, request: SearchRequest, settings: CallSettings) -> httpx.Request:
        """Build the JSON body of a search."""
        body: dict[str, Any] = {
            "query": request.query,
            "max_results": min(settings.limit, MAX_RESULTS),
            "search_depth": settings.depth,
            "topic": "general",
            "include_answer": False,
            "include_raw_content": False,
            "include_images": False,
        }
        if request.sites:
            body["include_domains"] = list(request.sites)
        if request.exclude_sites:
            body["exclude_domains"] = list(request.exclude_sites)
        if request.time_range:
            body["time_range"] = request.time_range
        headers = {"Authorization": f"Bearer {settings.api_key}"}
        return httpx.Request("POST", settings.base_url or ENDPOINT, json=body, headers=headers)

    def parse_response(self, response: httpx.Response, request: SearchRequest) -> list[ResultItem]:
        """Read ``results[]``; Tavily's ``score`` is kept."""
        data = parse_json(response, self.name)
        results = entries(data, "results", provider=self.name, required=True)
        items = (
            make_item(self.name, rank, raw, _FIELDS, score=bounded_score(raw.get("score")))
            for rank, raw in enumerate(results)
        )
        return [item for item in items if item is not None]
