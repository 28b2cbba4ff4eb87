"""Configuration of database search (the ``db`` and ``querydsl`` sections)."""

from __future__ import annotations

from pydantic import Field

from unified_search._section import Section


class DBConfig(Section):
    """Database settings."""

    url: str | None = None
    """SQLAlchemy URL of the database to search."""
    models: list[str] = Field(default_factory=list)
    """Tables or views searched when a request names none."""
    max_results: int = Field(default=20, ge=1, le=1000)


class QueryDSLConfig(Section):
    """Natural-language-to-DSL settings."""

    strict: bool = False
    """Fail instead of falling back to the builtin generator when a delegate returns bad DSL."""
