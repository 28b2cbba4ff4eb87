"""SearXNG: a self-hosted, keyless meta-search engine (``GET <instance>/search?format=json``).

SearXNG scores are unbounded (higher is better); they are divided by the best
score of the answer so they fall in 0..1. SearXNG has no result-count
parameter and often lists one page twice (``http``/``https``, a trailing
slash): the handler deduplicates, then truncates to the limit.

An instance answers 200 even when every engine behind it failed (a CAPTCHA, too
many requests, a timeout): no results with ``unresponsive_engines`` is an
error naming them, never a silent empty result. Older instances list
``answers`` as plain strings, newer ones as objects; both are read.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

import httpx

from unified_search.errors import ErrorCode, SearchError
from unified_search.http import Rule
from unified_search.types import SearchRequest
from unified_search.web.extras import ProviderAnswer, WebAnswer, WebExtras
from unified_search.web.provider import (
    CallSettings,
    Details,
    Fields,
    check_options,
    entries,
    make_items,
    parse_json,
    plain,
    texts,
    unsupported,
    with_sites,
)

TOPICS = ("general", "news")
SUPPORTED = ("language", "country", "include_answer")
_FIELDS = Fields(published=("publishedDate", "pubdate"))


class SearXNG:
    """SearXNG JSON API; the instance comes from ``web.searxng.base_url`` or ``$SEARXNG_URL``.

    Example:
        >>> SearXNG().build_request(SearchRequest(query="q"), CallSettings(limit=5, base_url="http://127.0.0.1:8888")).url
        URL('http://127.0.0.1:8888/search?q=q&format=json&pageno=1')
    """

    name = "searxng"
    needs_key = False
    rules = (
        Rule(
            403,
            ErrorCode.PROVIDER_ERROR,
            hint="enable the json format in the instance's settings.yml (search.formats)",
        ),
    )

    def build_request(self, request: SearchRequest, settings: CallSettings) -> httpx.Request:
        """Build the query string of a search on the configured instance."""
        if not settings.base_url:
            raise SearchError(
                ErrorCode.UNSUPPORTED,
                "no SearXNG instance: set web.searxng.base_url or $SEARXNG_URL",
                provider=self.name,
            )
        check_options(self.name, request, SUPPORTED, TOPICS)
        params: dict[str, Any] = {
            "q": with_sites(request.query, request.sites, request.exclude_sites),
            "format": "json",
            "pageno": 1,
        }
        if request.topic:
            params["categories"] = request.topic
        if request.time_range:
            params["time_range"] = request.time_range
        if request.language or request.country:
            params["language"] = _locale(request)
        url = settings.base_url.rstrip("/") + "/search"
        return httpx.Request("GET", url, params=params, headers={"Accept": "application/json"})

    def parse_response(
        self, response: httpx.Response, request: SearchRequest, settings: CallSettings
    ) -> ProviderAnswer:
        """Read ``results[]`` with scores scaled by the best one, ``answers`` and ``suggestions``."""
        data = parse_json(response, self.name)
        results = entries(data, "results", provider=self.name, required=True)
        failed = _unresponsive(data)
        if not results and failed:
            raise SearchError(
                ErrorCode.PROVIDER_ERROR,
                f"no results: the instance's engines failed ({failed})",
                provider=self.name,
                retryable=False,
            )
        best = max((_raw_score(raw) for raw in results), default=0.0)
        details = functools.partial(_details, best=best)
        items = make_items(self.name, results, _FIELDS, now=settings.now, details=details)
        extras = WebExtras(
            answers=_answers(data) if request.include_answer else [],
            related_searches=texts(data.get("suggestions")),
        )
        return ProviderAnswer(items, extras)


def _locale(request: SearchRequest) -> str:
    """SearXNG filters a country only as a locale's region: ``de`` + ``ch`` → ``de-CH``."""
    if not request.language:
        raise unsupported(
            "searxng", "searxng filters by country only together with a language (de + ch → de-CH)"
        )
    language = request.language.lower()
    return f"{language}-{request.country.upper()}" if request.country else language


def _answers(data: Mapping[str, Any]) -> list[WebAnswer]:
    listed = data.get("answers")
    found = []
    for raw in listed if isinstance(listed, list) else []:
        text = plain(raw.get("answer") if isinstance(raw, Mapping) else raw)
        url = raw.get("url") if isinstance(raw, Mapping) else None
        if text:
            found.append(
                WebAnswer(provider="searxng", text=text, url=url if isinstance(url, str) else None)
            )
    return found


def _unresponsive(data: Mapping[str, Any]) -> str:
    """``google (CAPTCHA), bing (timeout)`` out of ``unresponsive_engines`` pairs."""
    pairs = data.get("unresponsive_engines")
    named = []
    for pair in pairs if isinstance(pairs, list) else []:
        if isinstance(pair, list) and pair:
            reason = f" ({plain(pair[1])})" if len(pair) > 1 else ""
            named.append(plain(pair[0]) + reason)
    return ", ".join(named)


def _details(raw: Mapping[str, Any], *, best: float) -> Details:
    """The score scaled by the answer's best one, and the engines that found the page."""
    score = _raw_score(raw) / best if best > 0 else None
    return {"score": score, "extra": {"engines": raw.get("engines")}}


def _raw_score(raw: Mapping[str, Any]) -> float:
    value = raw.get("score")
    if isinstance(value, bool) or not isinstance(value, int | float):
        return 0.0
    return max(float(value), 0.0)
