"""SearXNG: a self-hosted, keyless meta-search engine (``GET <instance>/search?format=json``).

SearXNG scores are unbounded (higher is better); they are divided by the best
score of the answer so they fall in 0..1. SearXNG has no result-count
parameter: the handler truncates to the limit.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import httpx

from unified_search.errors import ErrorCode, SearchError
from unified_search.types import ResultItem, SearchRequest
from unified_search.web.errors import Rule
from unified_search.web.provider import (
    CallSettings,
    Fields,
    entries,
    make_item,
    parse_json,
    with_sites,
)

_FIELDS = Fields(published="publishedDate")


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
        params: dict[str, Any] = {
            "q": with_sites(request.query, request.sites, request.exclude_sites),
            "format": "json",
            "pageno": 1,
        }
        if request.time_range:
            params["time_range"] = request.time_range
        url = settings.base_url.rstrip("/") + "/search"
        return httpx.Request("GET", url, params=params, headers={"Accept": "application/json"})

    def parse_response(self, response: httpx.Response, request: SearchRequest) -> list[ResultItem]:
        """Read ``results[]`` with scores scaled by the best one."""
        data = parse_json(response, self.name)
        results = entries(data, "results", provider=self.name, required=True)
        best = max((_raw_score(raw) for raw in results), default=0.0)
        items = (
            make_item(
                self.name,
                rank,
                raw,
                _FIELDS,
                score=_raw_score(raw) / best if best > 0 else None,
                extra={"engines": raw.get("engines")},
            )
            for rank, raw in enumerate(results)
        )
        return [item for item in items if item is not None]


def _raw_score(raw: Mapping[str, Any]) -> float:
    value = raw.get("score")
    if isinstance(value, bool) or not isinstance(value, int | float):
        return 0.0
    return max(float(value), 0.0)
