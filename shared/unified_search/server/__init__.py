"""The HTTP API for front ends (``server`` extra): search, then click through citations."""

from __future__ import annotations

from unified_search.server.app import create_app

__all__ = [
    "create_app",
]
