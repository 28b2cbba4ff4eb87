"""Offline sources for the LangChain adapter tests: tiny deterministic handlers."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from unified_search.contract.handler import SearchContext
from unified_search.engine.searcher import Searcher
from unified_search.errors import ErrorCode, SearchError
from unified_search.types import ResultItem, SearchRequest, SearchResult, SearchType


@dataclass
class FakeSource:
    """Answers any query with ``size`` items of falling score; records every request.

    A query containing ``fail`` makes it raise ``RATE_LIMITED``; names outside
    ``known`` (collections for kb, models for db) raise ``INVALID_QUERY`` listing them.
    """

    type: SearchType
    size: int = 8
    known: tuple[str, ...] = ()
    delay: float = 0.0
    calls: list[SearchRequest] = field(default_factory=list)

    async def asearch(self, request: SearchRequest, ctx: SearchContext) -> SearchResult:
        self.calls.append(request)
        await asyncio.sleep(self.delay)
        if "fail" in request.query:
            raise SearchError(ErrorCode.RATE_LIMITED, "too many requests", provider="fake")
        self._check_names(request)
        count = min(self.size, request.limit or self.size)
        items = [self._item(request, i) for i in range(count)]
        return SearchResult(type=self.type, query=request.query, items=items)

    def _check_names(self, request: SearchRequest) -> None:
        asked = request.collections if self.type is SearchType.KB else request.models
        unknown = [name for name in asked if name not in self.known]
        if unknown:
            what = "collection" if self.type is SearchType.KB else "model"
            valid = ", ".join(self.known)
            raise SearchError(
                ErrorCode.INVALID_QUERY, f"unknown {what} {unknown[0]!r}; valid: {valid}"
            )

    def _item(self, request: SearchRequest, i: int) -> ResultItem:
        name = f"{self.type.value}-{i}"
        fields: dict[str, Any] = {
            "type": self.type,
            "title": f"{name} {request.query}",
            "content": f"{name}: text about {request.query}",
            "score": round(1.0 - i * 0.1, 3),
            "metadata": {"provider": f"fake-{self.type.value}"},
        }
        if self.type is SearchType.WEB:
            fields["url"] = f"https://example.com/{name}"
        elif self.type is SearchType.KB:
            fields |= {"document_id": name, "collection": (request.collections or ["handbook"])[0]}
        else:
            fields |= {"record_id": str(i), "model": (request.models or ["orders"])[0]}
        return ResultItem(**fields)


class FakeWeb(FakeSource):
    """A web source that can also read one page, like the web handler's ``retrieve``."""

    def __init__(self) -> None:
        super().__init__(SearchType.WEB)
        self.retrieved: list[str] = []

    async def aretrieve(self, url: str, config: Any = None) -> ResultItem:
        self.retrieved.append(url)
        if not url.startswith(("http://", "https://")):
            raise SearchError(ErrorCode.INVALID_QUERY, f"not an http(s) URL: {url!r}")
        return ResultItem(type=SearchType.WEB, title="Page", content=f"full text of {url}", url=url)


@dataclass
class Sources:
    web: FakeWeb
    kb: FakeSource
    db: FakeSource

    def searcher(self, config: dict[str, Any] | None = None) -> Searcher:
        return Searcher(config, handlers={"web": self.web, "kb": self.kb, "db": self.db})


def make_sources() -> Sources:
    return Sources(
        web=FakeWeb(),
        kb=FakeSource(SearchType.KB, known=("handbook", "faq")),
        db=FakeSource(SearchType.DB, known=("orders", "customers")),
    )


@pytest.fixture
def sources() -> Sources:
    """Fresh fake web, kb and db sources."""
    return make_sources()


@pytest.fixture
def searcher_factory() -> Callable[..., Searcher]:
    """Build Searchers over fresh fake sources (for the standard suites' properties)."""
    return lambda config=None: make_sources().searcher(config)
