"""The web providers by name: one plain dict, one lookup that lists the valid names."""

from __future__ import annotations

from unified_search.errors import ErrorCode, SearchError
from unified_search.web.brave import Brave
from unified_search.web.exa import Exa
from unified_search.web.provider import Provider
from unified_search.web.searxng import SearXNG
from unified_search.web.serpapi import SerpApi
from unified_search.web.serper import Serper
from unified_search.web.tavily import Tavily

#: Adding a provider means one module and one entry here.
PROVIDERS: dict[str, Provider] = {
    "brave": Brave(),
    "exa": Exa(),
    "searxng": SearXNG(),
    "serpapi": SerpApi(),
    "serper": Serper(),
    "tavily": Tavily(),
}


def get_provider(name: str) -> Provider:
    """Return the provider ``name``; the error lists the valid names.

    Example:
        >>> get_provider("tavily").name
        'tavily'
    """
    try:
        return PROVIDERS[name]
    except KeyError:
        valid = ", ".join(sorted(PROVIDERS))
        raise SearchError(
            ErrorCode.UNSUPPORTED, f"unknown web provider {name!r}; valid providers: {valid}"
        ) from None
