"""Brave Search: an independent web index (``GET https://api.search.brave.com/res/v1/web/search``).

The news topic uses Brave's news endpoint (``/res/v1/news/search``); a web
search's own ``news`` results are kept too, after the web results.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import httpx

from unified_search.errors import ErrorCode
from unified_search.http import Rule, bad_payload
from unified_search.types import ResultItem, SearchRequest
from unified_search.web.extras import ProviderAnswer, WebExtras
from unified_search.web.provider import (
    CallSettings,
    Details,
    Fields,
    check_options,
    entries,
    make_items,
    parse_json,
    questions,
    unsupported,
    with_sites,
)

ENDPOINT = "https://api.search.brave.com/res/v1/web/search"
#: Most results Brave answers per call, by topic.
MAX_RESULTS = {"general": 20, "news": 50}
TOPICS = ("general", "news")
SUPPORTED = ("country", "language", "start_date", "end_date")
FRESHNESS = {"day": "pd", "week": "pw", "month": "pm", "year": "py"}
#: The start of a date range given only its end.
EPOCH = "1970-01-01"
#: ISO 639-1 codes → Brave's ``search_lang`` (its own codes for Japanese, Norwegian, Chinese,
#: Portuguese); a language not listed is refused before anything is sent.
_SAME = (
    "ar", "eu", "bn", "bg", "ca", "hr", "cs", "da", "nl", "en", "et", "fi", "fr", "gl", "de", "gu",
    "he", "hi", "hu", "is", "it", "kn", "ko", "lv", "lt", "ms", "ml", "mr", "pl", "pa", "ro", "ru",
    "sr", "sk", "sl", "es", "sv", "ta", "te", "th", "tr", "uk", "vi",
)  # fmt: skip
LANGUAGES = {code: code for code in _SAME} | {
    "ja": "jp",
    "nb": "nb",
    "no": "nb",
    "zh": "zh-hans",
    "pt": "pt-pt",
}
#: Regional variants Brave tells apart, chosen by the request's country.
REGIONAL = {
    ("zh", "tw"): "zh-hant",
    ("zh", "hk"): "zh-hant",
    ("pt", "br"): "pt-br",
    ("en", "gb"): "en-gb",
}
_FIELDS = Fields(content="description", published=("page_age", "age"))


class Brave:
    """Brave web and news search: domains via ``site:``, time via ``freshness``; rank-based scores.

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
        """Build the query string of a web or news search."""
        check_options(self.name, request, SUPPORTED, TOPICS)
        topic = request.topic or "general"
        params: dict[str, Any] = {
            "q": with_sites(request.query, request.sites, request.exclude_sites),
            "count": min(settings.limit, MAX_RESULTS[topic]),
        }
        freshness = _freshness(request, settings)
        if freshness:
            params["freshness"] = freshness
        if request.country:
            params["country"] = request.country.upper()
        if request.language:
            params["search_lang"] = _language(request)
        url = settings.base_url or ENDPOINT
        if topic == "news":
            url = url.replace("/web/search", "/news/search")
        headers = {"Accept": "application/json", "X-Subscription-Token": settings.api_key or ""}
        return httpx.Request("GET", url, params=params, headers=headers)

    def parse_response(
        self, response: httpx.Response, request: SearchRequest, settings: CallSettings
    ) -> ProviderAnswer:
        """Read ``web.results[]`` then ``news.results[]`` (news search: ``results[]``) and the FAQ."""
        data = parse_json(response, self.name)
        if request.topic == "news":
            if data.get("type") != "news" and "results" not in data:
                raise bad_payload(self.name, "unexpected JSON answer", str(data))
            raw = entries(data, "results", provider=self.name, required=False)
            return ProviderAnswer(_items(raw, settings))
        if data.get("type") != "search" and "web" not in data:
            raise bad_payload(self.name, "unexpected JSON answer", str(data))
        raw = _section(data, "web") + _section(data, "news")
        faq = questions(self.name, _section(data, "faq"), answer="answer", url="url")
        return ProviderAnswer(_items(raw, settings), WebExtras(related_questions=faq))


def _section(data: Mapping[str, Any], name: str) -> list[Mapping[str, Any]]:
    """The ``results`` of a section of a web answer (empty when Brave left it out)."""
    section = data.get(name)
    if section is None:
        return []
    if not isinstance(section, Mapping):
        raise bad_payload("brave", f"{name!r} is not an object", str(data))
    return entries(section, "results", provider="brave", required=False)


def _items(raw: list[Mapping[str, Any]], settings: CallSettings) -> list[ResultItem]:
    return make_items("brave", raw, _FIELDS, now=settings.now, details=_details)


def _details(entry: Mapping[str, Any]) -> Details:
    return {"extra": {"age": entry.get("age"), "extra_snippets": entry.get("extra_snippets")}}


def _language(request: SearchRequest) -> str:
    language = (request.language or "").lower()
    country = (request.country or "").lower()
    if language not in LANGUAGES:
        valid = ", ".join(sorted(LANGUAGES))
        raise unsupported("brave", f"brave has no language {language!r}; valid languages: {valid}")
    return REGIONAL.get((language, country), LANGUAGES[language])


def _freshness(request: SearchRequest, settings: CallSettings) -> str | None:
    if request.start_date or request.end_date:
        start = request.start_date.isoformat() if request.start_date else EPOCH
        end = (request.end_date or settings.clock().date()).isoformat()
        return f"{start}to{end}"
    return FRESHNESS.get(request.time_range or "")
