"""Where unified-search keeps its files on this machine."""

from __future__ import annotations

import os
from pathlib import Path

#: Environment variable naming the data folder (embedded Chroma, search records, caches).
DATA_HOME_ENV = "UNIFIED_SEARCH_HOME"


def data_home() -> Path:
    """Return the data folder (not created here).

    ``$UNIFIED_SEARCH_HOME``, else ``$XDG_DATA_HOME/unified-search``, else
    ``~/.local/share/unified-search``.
    """
    if home := os.environ.get(DATA_HOME_ENV):
        return Path(home).expanduser()
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base).expanduser() / "unified-search"
