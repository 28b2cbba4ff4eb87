"""Which sources a question goes to when the caller names none: one rule for every entry point."""

from __future__ import annotations

from collections.abc import Sequence

from unified_search.config.search import SearchConfig
from unified_search.types import SearchType


def default_types(
    config: SearchConfig, collections: Sequence[str] = (), models: Sequence[str] = ()
) -> list[SearchType]:
    """The sources searched when none are named, the same for the CLI, the HTTP API and adapters.

    Each one ``config`` sets up (web providers or keys, collections, a database URL or
    tables) or the call names (``collections`` for the knowledge base, ``models`` for the
    database); the web when there is nothing else.

    Example:
        >>> SearchType.KB in default_types(SearchConfig(), collections=["help"])
        True
    """
    configured = [
        (SearchType.WEB, bool(config.web.providers or usable_providers(config))),
        (SearchType.KB, bool(config.kb.collections or collections)),
        (SearchType.DB, bool(config.db.url or config.db.models or models)),
    ]
    return [kind for kind, ready in configured if ready] or [SearchType.WEB]


def usable_providers(config: SearchConfig) -> list[str]:
    """The web providers usable with the environment as it is (keys set), Tavily first."""
    from unified_search.web.registry import keyed_providers  # web loads only when asked

    return keyed_providers(config.web)
