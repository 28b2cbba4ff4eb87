"""The web providers by name: one plain dict, one lookup that lists the valid names."""

from __future__ import annotations

import os

from unified_search.config.web import WebConfig
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


#: The order in which providers are picked from the environment when none is configured.
KEY_ORDER = ("tavily", "serper", "brave", "exa", "serpapi", "searxng")


def env_variable(config: WebConfig, name: str) -> str | None:
    """The environment variable that makes provider ``name`` usable (its key, SearXNG's URL)."""
    settings = config.provider_settings(name)
    if settings.api_key_env is not None:
        return settings.api_key_env.env
    return settings.base_url_env


def keyed_providers(config: WebConfig) -> list[str]:
    """Providers usable with the environment as it is, in ``KEY_ORDER`` (Tavily first).

    Example:
        Not run here: the answer depends on the API keys in the environment.

        >>> keyed_providers(WebConfig(searxng={"base_url": "http://127.0.0.1:8888"}))  # doctest: +SKIP
        ['searxng']
    """
    found = []
    for name in KEY_ORDER:
        settings = config.provider_settings(name)
        variable = env_variable(config, name)
        has_value = bool(variable and os.environ.get(variable, "").strip())
        if has_value or (name == "searxng" and settings.base_url):
            found.append(name)
    return found


def no_provider_error(config: WebConfig) -> SearchError:
    """UNSUPPORTED, saying exactly which variables would make a provider usable."""
    variables = [f"{var} ({name})" for name in KEY_ORDER if (var := env_variable(config, name))]
    return SearchError(
        ErrorCode.UNSUPPORTED,
        "no web provider configured: set web.providers, or one of the environment variables "
        + ", ".join(variables),
    )
