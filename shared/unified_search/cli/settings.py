"""How the command line builds its configuration: file, then environment, then flags.

Each layer only sets the keys it names, and a later layer wins:

1. ``--config search.yml`` (or the file named by ``$UNIFIED_SEARCH_CONFIG``);
2. environment variables (:data:`ENVIRONMENT` lists them; provider keys such as
   ``TAVILY_API_KEY`` or ``SEARXNG_URL`` switch their web provider on when the
   file lists none);
3. command-line flags (``--collection``, ``--db``, ``--model``, ``--rerank`` ...).

The data folder (``$UNIFIED_SEARCH_HOME``, default ``~/.local/share/unified-search``)
holds embedded Chroma (``kb/``), the search records (``search.sqlite3``) and the
demo's shop database, unless the configuration points elsewhere.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from unified_search.paths import DATA_HOME_ENV

if TYPE_CHECKING:
    from unified_search.config.search import SearchConfig


#: Environment variables the command line reads, and what each one sets.
ENVIRONMENT: dict[str, str] = {
    "UNIFIED_SEARCH_CONFIG": "the search.yml to load when --config is not given",
    DATA_HOME_ENV: "the data folder (embedded Chroma, search records, demo database)",
    "UNIFIED_SEARCH_DB_URL": "db.url",
    "UNIFIED_SEARCH_COLLECTIONS": "kb.collections (comma-separated)",
    "UNIFIED_SEARCH_WEB_PROVIDERS": "web.providers (comma-separated)",
    "UNIFIED_SEARCH_DEBUG": "show the traceback of an unexpected error",
}


def load_config(path: str | None, flags: Mapping[str, Any] | None = None) -> SearchConfig:
    """Merge the file at ``path``, the environment and ``flags`` (later layers win).

    Raises:
        ConfigurationError: a file cannot be read, or a key is unknown or invalid; the
            message names the key and the file (or the layer) it came from.
    """
    from unified_search.config.search import SearchConfig

    from_file = SearchConfig.load(path)
    return from_file.merged(
        (environment_layer(from_file), "the environment"),
        (dict(flags or {}), "command-line flags"),
    )


def environment_layer(config: SearchConfig) -> dict[str, Any]:
    """The configuration keys set by environment variables, given the file's configuration."""
    from unified_search.web.registry import keyed_providers  # the web providers load on demand

    layer: dict[str, Any] = {}
    if url := os.environ.get("UNIFIED_SEARCH_DB_URL"):
        layer["db"] = {"url": url}
    if names := _listed("UNIFIED_SEARCH_COLLECTIONS"):
        layer["kb"] = {"collections": names}
    providers = _listed("UNIFIED_SEARCH_WEB_PROVIDERS") or (
        [] if config.web.providers else keyed_providers(config.web)
    )
    if providers:
        layer["web"] = {"providers": providers}
    return layer


def _listed(variable: str) -> list[str]:
    return [part.strip() for part in os.environ.get(variable, "").split(",") if part.strip()]
