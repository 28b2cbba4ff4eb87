"""Configuration of database search (the ``db`` and ``querydsl`` sections)."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator

from unified_search.config.section import Section


class ModelSettings(Section):
    """How one table or view is presented and guarded.

    Example:
        >>> ModelSettings(title="name", permission={"tenant_id": "tenant_id"}).title
        'name'
    """

    label: str | None = None
    """Human name of the model (``"Shop products"``); it also helps pick the model for a question."""
    description: str | None = None
    """What the model holds, shown to agents that write DSL."""
    columns: dict[str, str] = Field(default_factory=dict)
    """Description per column name, shown to agents and used to match question words to columns."""
    searchable: list[str] | None = None
    """Text columns searched with keywords; ``None`` means every text column except the
    permission columns."""
    title: str | None = None
    """Column shown as a row's title; ``None`` picks ``title``/``name``/``label``/``subject``/``email``,
    else the title is "<label> <id>"."""
    permission: dict[str, str] = Field(default_factory=dict)
    """Column → key of the caller's context (``SearchContext.user``); each pair is always ANDed in
    as ``column = user[key]``. A missing context value refuses the search."""
    foreign_keys: dict[str, str] = Field(default_factory=dict)
    """Column → ``model.column`` it points to, for links the database does not declare (views
    have none); joins may follow them like declared foreign keys."""


def database_url(value: str) -> str:
    """A database URL as given, or the ``sqlite:///`` URL of a file path (``~`` expanded).

    Example:
        >>> database_url("postgresql+psycopg://me@db/shop"), database_url("/data/shop.db")
        ('postgresql+psycopg://me@db/shop', 'sqlite:////data/shop.db')
    """
    if not value or "://" in value:
        return value
    return f"sqlite:///{Path(value).expanduser().resolve()}"


class DBConfig(Section):
    """Database settings."""

    url: str | None = None
    """SQLAlchemy URL of the database to search, or the path of a SQLite file (``~`` works)."""
    models: list[str] = Field(default_factory=list)
    """Tables or views that may be searched; a request may narrow them. Empty exposes every
    table and view of the database."""
    max_results: int = Field(default=20, ge=1, le=1000)
    """Hard cap on rows returned per model, whatever the DSL or the request asks."""
    settings: dict[str, ModelSettings] = Field(default_factory=dict)
    """Per-model settings, keyed by model name."""
    schemas: list[str] = Field(default_factory=list)
    """Database schemas (PostgreSQL) whose tables and views are exposed too, named
    ``schema.table``; the default schema's are always exposed under their plain names."""
    statement_timeout: float = Field(default=10.0, gt=0)
    """Seconds one query (or schema read) may run, lock waits included, before the database aborts
    it; never more than the search's own ``options.timeout``."""
    connect_timeout: float = Field(default=5.0, gt=0)
    """Seconds to wait for a connection (PostgreSQL waits at least 2)."""
    sample_values: int = Field(default=50, ge=0, le=10_000)
    """Text columns with at most this many distinct values are treated as categories whose
    values are recognised in questions (0 turns sampling off)."""
    sample_rows: int = Field(default=1000, ge=0, le=100_000)
    """Rows read per other text column to learn the words it holds, so a question word found
    there becomes a text filter on that column and a word found nowhere is reported as not
    understood (0 turns it off: every leftover word is then not understood)."""
    sample_ttl: float = Field(default=300.0, ge=0)
    """Seconds sampled values and words are cached."""
    lexicon: dict[str, str] = Field(default_factory=dict)
    """Extra words and what they mean in your schema (``released: published``, ``staff:
    employees``, ``sci-fi: science fiction``), added to the builtin lexicon; the meaning is read
    like question text (a column, model or value name)."""
    multi_model: Literal["best", "all"] = "best"
    """With several models: ``best`` queries the best-matching one (all tied ones on a tie),
    ``all`` queries every model in parallel."""

    @field_validator("url")
    @classmethod
    def _path_or_url(cls, value: str | None) -> str | None:
        return None if value is None else database_url(value)


class QueryDSLConfig(Section):
    """Natural-language-to-DSL settings."""

    strict: bool = False
    """Fail instead of falling back to the builtin generator when a delegate returns bad DSL."""
    relax_keywords: bool = True
    """When every keyword must match and no row does, retry with any keyword matching."""
