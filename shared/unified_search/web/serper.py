"""Serper: Google results as JSON (``POST https://google.serper.dev/search``, ``/news``)."""

from __future__ import annotations

from typing import Any

import httpx

from unified_search.errors import ErrorCode
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
    sibling,
    with_sites,
)

ENDPOINT = "https://google.serper.dev/search"
TOPICS = ("general", "news")
SUPPORTED = ("country", "language", "start_date", "end_date", "include_answer")
#: Where each topic's endpoint lists its results.
RESULTS = {"general": "organic", "news": "news"}
_FIELDS = Fields(url="link", content="snippet", published=("date",))
_GOOGLE = GoogleKeys(answer_box="answerBox", questions="peopleAlsoAsk", searches="relatedSearches")


class Serper:
    """Serper: ``/search`` or ``/news``; domains through ``site:``, time through ``tbs``.

    Google's related questions (``peopleAlsoAsk``) and searches come back as extras,
    and its answer box when ``include_answer`` is asked.

    Example:
        >>> Serper().build_request(SearchRequest(query="ssg", topic="news"), CallSettings(limit=5, api_key="k")).url
        URL('https://google.serper.dev/news')
    """

    name = "serper"
    needs_key = True
    rules = (
        Rule(400, ErrorCode.QUOTA_EXCEEDED, match="credits", hint="out of credits"),
        Rule(403, ErrorCode.INVALID_API_KEY),
    )

    def build_request(self, request: SearchRequest, settings: CallSettings) -> httpx.Request:
        """Build the JSON body of a Google web or news search."""
        check_options(self.name, request, SUPPORTED, TOPICS)
        body: dict[str, Any] = {
            "q": with_sites(request.query, request.sites, request.exclude_sites),
            "num": settings.limit,
        }
        tbs = google_dates(request) or TIME_RANGES.get(request.time_range or "")
        if tbs:
            body["tbs"] = tbs
        if request.country:
            body["gl"] = request.country.lower()
        if request.language:
            body["hl"] = request.language.lower()
        url = settings.base_url or ENDPOINT
        if request.topic == "news":
            url = sibling(url, "news")
        headers = {"X-API-KEY": settings.api_key or ""}
        return httpx.Request("POST", url, json=body, headers=headers)

    def parse_response(
        self, response: httpx.Response, request: SearchRequest, settings: CallSettings
    ) -> ProviderAnswer:
        """Read ``organic[]`` (``news[]`` for news; absent when Google found nothing) and extras."""
        data = parse_json(response, self.name)
        key = RESULTS[request.topic or "general"]
        if "searchParameters" not in data and key not in data:
            raise bad_payload(self.name, "unexpected JSON answer", str(data))
        raw = entries(data, key, provider=self.name, required=False)
        items = make_items(self.name, raw, _FIELDS, now=settings.now)
        return ProviderAnswer(items, google_extras(self.name, data, request, _GOOGLE))
