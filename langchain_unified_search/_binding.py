"""Fields shared by the adapters: which Searcher to use, and what to ask it.

``SearcherBinding`` accepts a ready ``Searcher`` or a configuration (a dict, a
``SearchConfig`` or a ``search.yml`` path) and builds the Searcher from it.
``SourceSelection`` holds the choice of sources and turns a query into the
Searcher's requests and call options; per-call keyword arguments override it.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from unified_search.config import SearchConfig
from unified_search.errors import SearchError
from unified_search.response import SearchResponse
from unified_search.searcher import Searcher
from unified_search.types import JSON, SearchRequest, SearchType, Source

ModeName = Literal["all", "any", "race"]

#: Per-call keyword arguments that override a ``SourceSelection`` field.
OVERRIDABLE = frozenset({"k", "types", "collections", "models", "mode", "source", "strict"})
#: Per-call keyword arguments handed to ``Searcher.arun`` as they are.
CALL_OPTIONS = frozenset({"request_id", "chat_id", "user", "overrides", "provided_references"})


class SearcherBinding(BaseModel):
    """Hold the Searcher an adapter talks to, built from ``config`` when none is given."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    searcher: Searcher | None = Field(default=None, exclude=True)
    """A ready Searcher (for example one with custom handlers); excludes ``config``."""
    config: SearchConfig | dict[str, Any] | str | Path | None = Field(default=None, exclude=True)
    """A configuration to build the Searcher from: a dict, a ``SearchConfig`` or a YAML path."""

    @model_validator(mode="after")
    def _build_searcher(self) -> Any:
        if self.searcher is not None and self.config is not None:
            raise ValueError("give either searcher or config, not both")
        if self.searcher is None:
            self.searcher = Searcher(self.config)
        return self

    @property
    def engine(self) -> Searcher:
        """The Searcher in use (always set after validation)."""
        assert self.searcher is not None
        return self.searcher


class SourceSelection(BaseModel):
    """Which sources to search, how many results to keep, and how failures surface."""

    types: list[SearchType] = Field(default_factory=lambda: [SearchType.WEB], min_length=1)
    """Sources to search in parallel: ``web``, ``kb``, ``db``."""
    collections: list[str] = Field(default_factory=list)
    """Knowledge-base collections; empty means the configured ones."""
    models: list[str] = Field(default_factory=list)
    """Database tables or views; empty means the configured ones."""
    mode: ModeName = "all"
    """``all`` waits for every source, ``any`` for the first with results, ``race`` for the first."""
    k: int | None = Field(default=None, ge=1, le=1000)
    """Results to return; ``None`` uses ``rerank.top_n`` of the configuration."""
    source: Source = Source.HOOK
    """Who is asking; it sets the weight of what is found (user 1.0, hook 0.8, auto 0.6 by default)."""
    strict: bool = False
    """Raise ``SearchError`` when a source fails instead of reporting it through callbacks."""
    request_options: JSON = Field(default_factory=dict)
    """Extra ``SearchRequest`` fields for every request (``sites``, ``time_range``, ``threshold`` ...)."""

    def selection(self, overrides: Mapping[str, Any]) -> SourceSelection:
        """Return this selection with per-call values applied (validated like the fields)."""
        unknown = set(overrides) - OVERRIDABLE - CALL_OPTIONS
        if unknown:
            valid = ", ".join(sorted(OVERRIDABLE | CALL_OPTIONS))
            raise TypeError(f"unexpected argument(s) {sorted(unknown)}; valid: {valid}")
        update = {key: value for key, value in overrides.items() if key in OVERRIDABLE}
        data = {**self._selection_data(), **update}
        return SourceSelection.model_validate(data)

    def _selection_data(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in SourceSelection.model_fields}

    def requests(self, query: str) -> list[SearchRequest]:
        """Build one request per source type for ``query``."""
        return [self._request(query, type_) for type_ in self.types]

    def _request(self, query: str, type_: SearchType) -> SearchRequest:
        fields: dict[str, Any] = {**self.request_options, "query": query, "type": type_}
        fields["source"] = self.source
        if type_ is SearchType.KB and self.collections:
            fields["collections"] = self.collections
        if type_ is SearchType.DB and self.models:
            fields["models"] = self.models
        return SearchRequest.model_validate(fields)


def call_options(kwargs: Mapping[str, Any], selection: SourceSelection) -> dict[str, Any]:
    """Pick the ``Searcher.arun`` options out of per-call keyword arguments."""
    options = {key: value for key, value in kwargs.items() if key in CALL_OPTIONS}
    return {**options, "mode": selection.mode, "top_n": selection.k}


def run_ids(configurable: Mapping[str, Any]) -> dict[str, Any]:
    """Read ``request_id`` (or LangGraph's ``thread_id``) and ``chat_id`` from run values.

    A shared ``request_id`` keeps citation IDs unique across the searches of one request.
    """
    request_id = configurable.get("request_id") or configurable.get("thread_id")
    return {
        "request_id": str(request_id) if request_id else None,
        "chat_id": configurable.get("chat_id"),
    }


def check_strict(response: SearchResponse, strict: bool) -> None:
    """Raise the first failure of ``response`` when ``strict`` is set."""
    if strict and response.errors:
        raise SearchError.from_info(response.errors[0])
