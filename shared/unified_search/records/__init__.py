"""The record of every search: its model, the store (SQLite or PostgreSQL) and the writers behind it."""

from __future__ import annotations

from unified_search.records.checks import StoredChecks
from unified_search.records.model import SearchRecord
from unified_search.records.store import SearchStore, default_url

__all__ = [
    "SearchRecord",
    "SearchStore",
    "StoredChecks",
    "default_url",
]
