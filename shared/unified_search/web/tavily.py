"""Tavily: a search API built for LLM agents (``POST https://api.tavily.com/search``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import httpx

from unified_search.errors import ErrorCode, SearchError
from unified_search.http import Rule
from unified_search.types import SearchRequest
from unified_search.web.extras import (
    ProviderAnswer,
    RelatedQuestion,
    WebAnswer,
    WebExtras,
    WebImage,
)
from unified_search.web.provider import (
    OPTIONS,
    CallSettings,
    Details,
    Fields,
    bounded_score,
    check_options,
    entries,
    make_items,
    parse_json,
    plain,
    texts,
    unsupported,
)

ENDPOINT = "https://api.tavily.com/search"
#: Tavily answers at most this many results per call.
MAX_RESULTS = 20
#: Tavily is asked for at least this many results (fewer are kept when fewer are wanted).
MIN_RESULTS = 5
#: Shorter queries are refused by Tavily; they are padded with dots to this length.
MIN_QUERY_CHARS = 5
#: Longer queries are refused by Tavily ("Query is too long"): refused here, nothing sent.
MAX_QUERY_CHARS = 400
TOPICS = ("general", "news")
#: Every request option but ``language``.
SUPPORTED = tuple(option for option in OPTIONS if option != "language")
#: ISO 3166-1 codes → the country names Tavily's ``country`` takes (general topic only).
COUNTRIES = {
    "ae": "united arab emirates", "ar": "argentina", "at": "austria", "au": "australia",
    "bd": "bangladesh", "be": "belgium", "bg": "bulgaria", "br": "brazil", "ca": "canada",
    "ch": "switzerland", "cl": "chile", "cn": "china", "co": "colombia", "cz": "czech republic",
    "de": "germany", "dk": "denmark", "eg": "egypt", "es": "spain", "fi": "finland",
    "fr": "france", "gb": "united kingdom", "gr": "greece", "hu": "hungary", "id": "indonesia",
    "ie": "ireland", "il": "israel", "in": "india", "ir": "iran", "it": "italy", "jp": "japan",
    "ke": "kenya", "kr": "south korea", "kz": "kazakhstan", "ma": "morocco", "mx": "mexico",
    "my": "malaysia", "ng": "nigeria", "nl": "netherlands", "no": "norway", "nz": "new zealand",
    "pe": "peru", "ph": "philippines", "pk": "pakistan", "pl": "poland", "pt": "portugal",
    "qa": "qatar", "ro": "romania", "rs": "serbia", "ru": "russia", "sa": "saudi arabia",
    "se": "sweden", "sg": "singapore", "sk": "slovakia", "th": "thailand", "tr": "turkey",
    "tw": "taiwan", "ua": "ukraine", "us": "united states", "vn": "vietnam", "za": "south africa",
}  # fmt: skip
_FIELDS = Fields(published=("published_date",))


class Tavily:
    """Tavily search: topics ``general``/``news``, native domain and date filters, scores in 0..1.

    Asked for, it also returns a short answer, images (with descriptions) and each page's
    full text. Tavily's minimums are met: at least ``MIN_RESULTS`` results are asked for
    (the handler keeps the best ``limit``) and a query shorter than ``MIN_QUERY_CHARS`` is padded.

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
        check_options(self.name, request, SUPPORTED, TOPICS)
        if len(request.query) > MAX_QUERY_CHARS:
            raise SearchError(
                ErrorCode.INVALID_QUERY,
                f"tavily reads at most {MAX_QUERY_CHARS} characters; the query has "
                f"{len(request.query)}",
                provider=self.name,
            )
        body: dict[str, Any] = {
            "query": request.query.ljust(MIN_QUERY_CHARS, "."),
            "max_results": max(MIN_RESULTS, min(settings.limit, MAX_RESULTS)),
            "search_depth": settings.depth,
            "topic": request.topic or "general",
            "include_answer": request.include_answer,
            "include_raw_content": request.include_raw_content,
            **_images(request, settings),
        }
        if request.sites:
            body["include_domains"] = list(request.sites)
        if request.exclude_sites:
            body["exclude_domains"] = list(request.exclude_sites)
        if request.time_range:
            body["time_range"] = request.time_range
        if request.start_date:
            body["start_date"] = request.start_date.isoformat()
        if request.end_date:
            body["end_date"] = request.end_date.isoformat()
        if request.country:
            body["country"] = _country(request)
        headers = {"Authorization": f"Bearer {settings.api_key}"}
        return httpx.Request("POST", settings.base_url or ENDPOINT, json=body, headers=headers)

    def parse_response(
        self, response: httpx.Response, request: SearchRequest, settings: CallSettings
    ) -> ProviderAnswer:
        """Read ``results[]`` (Tavily's ``score`` kept), ``answer``, ``images`` and follow-ups."""
        data = parse_json(response, self.name)
        results = entries(data, "results", provider=self.name, required=True)
        items = make_items(self.name, results, _FIELDS, now=settings.now, details=_details)
        return ProviderAnswer(items, _extras(data))


def _images(request: SearchRequest, settings: CallSettings) -> dict[str, bool]:
    """Images when the request or the provider's settings ask; descriptions likewise."""
    described = request.include_image_descriptions or settings.image_descriptions
    images = request.include_images or request.include_image_descriptions or settings.images
    return {"include_images": images, "include_image_descriptions": images and described}


def _country(request: SearchRequest) -> str:
    code = (request.country or "").lower()
    if request.topic == "news":
        raise unsupported("tavily", "tavily filters by country only for the general topic")
    if code not in COUNTRIES:
        valid = ", ".join(sorted(COUNTRIES))
        raise unsupported("tavily", f"tavily has no country {code!r}; valid countries: {valid}")
    return COUNTRIES[code]


def _details(raw: Mapping[str, Any]) -> Details:
    """Tavily's own score, and the page's full text when it was asked for."""
    raw_content = raw.get("raw_content")
    return {
        "score": bounded_score(raw.get("score")),
        "extra": {"raw_content": raw_content if isinstance(raw_content, str) else None},
    }


def _extras(data: Mapping[str, Any]) -> WebExtras:
    answer = plain(data.get("answer"))
    return WebExtras(
        answers=[WebAnswer(provider="tavily", text=answer)] if answer else [],
        images=[image for raw in data.get("images") or [] if (image := _image(raw))],
        related_questions=[
            RelatedQuestion(provider="tavily", question=question)
            for question in texts(data.get("follow_up_questions"))
        ],
    )


def _image(raw: Any) -> WebImage | None:
    """Tavily lists images as URL strings, or as ``{url, description}`` with descriptions on."""
    if isinstance(raw, str) and raw.startswith("http"):
        return WebImage(provider="tavily", url=raw)
    if isinstance(raw, Mapping) and isinstance(raw.get("url"), str):
        return WebImage(
            provider="tavily", url=raw["url"], description=plain(raw.get("description")) or None
        )
    return None
