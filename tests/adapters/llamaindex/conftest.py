"""Small fake sources registered on a real Searcher, and an instrumentation collector."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from types import SimpleNamespace

import pytest
from llama_index.core.instrumentation import get_dispatcher  # type: ignore[attr-defined]

from llama_index_unified_search import SearchTraceCollector
from unified_search.contract.handler import SearchContext
from unified_search.engine.searcher import Searcher
from unified_search.errors import ErrorCode, SearchError
from unified_search.types import ResultItem, SearchRequest, SearchResult

KB_DOCS = {
    "energy": [
        ("heat-pumps", "Heat pumps", "A heat pump moves heat & saves <energy>.", 0.9),
        ("solar", "Solar panels", "Solar panels turn light into power.", 0.7),
        ("wind", "Wind turbines", "Wind turbines need steady wind.", 0.4),
    ],
    "travel": [("trains", "Night trains", "Night trains save a hotel night.", 0.8)],
    "archive": [],
}
WEB_PAGES = [
    (
        "https://example.org/heat?utm_source=x",
        "Heat pump guide",
        "Install a heat pump in spring.",
        0.85,
    ),
    ("https://example.org/solar", "Solar basics", "Panels last twenty years.", 0.6),
]
DB_ROWS = {"products": [("p1", "Heat pump X1", "Price 999, stock 4", 0.95)]}


def _result(request: SearchRequest, items: list[ResultItem]) -> SearchResult:
    limited = items[: request.limit] if request.limit else items
    return SearchResult(type=request.type, query=request.query, items=limited)


class FakeKB:
    """Returns the documents of the requested collections; unknown collections fail.

    It counts the searches in flight (``most_in_flight``: the most at once) and
    whether one was cancelled while it waited.
    """

    def __init__(self, delay: float = 0.0) -> None:
        self.delay = delay
        self.calls: list[SearchRequest] = []
        self.in_flight = self.most_in_flight = 0
        self.cancelled = False

    async def asearch(self, request: SearchRequest, ctx: SearchContext) -> SearchResult:
        self.calls.append(request)
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        try:
            await asyncio.sleep(self.delay)
        except asyncio.CancelledError:
            self.cancelled = True
            raise
        finally:
            self.in_flight -= 1
        names = request.collections or ["energy"]
        unknown = [name for name in names if name not in KB_DOCS]
        if unknown:
            raise SearchError(
                ErrorCode.INVALID_QUERY, f"unknown collection {unknown[0]!r}", provider="kb"
            )
        items = [
            ResultItem(
                type="kb", document_id=doc, collection=name, title=title, content=text, score=score
            )
            for name in names
            for doc, title, text, score in KB_DOCS[name]
        ]
        return _result(request, items)


class FakeWeb:
    """Returns two pages, and reads a page for retrieve_url."""

    def __init__(self, delay: float = 0.0) -> None:
        self.delay = delay

    async def asearch(self, request: SearchRequest, ctx: SearchContext) -> SearchResult:
        await asyncio.sleep(self.delay)
        items = [
            ResultItem(type="web", url=url, title=t, content=c, score=s)
            for url, t, c, s in WEB_PAGES
        ]
        return _result(request, items)

    async def aretrieve(self, url: str, ctx: SearchContext) -> ResultItem:
        if "missing" in url:
            raise SearchError(ErrorCode.PROVIDER_ERROR, "HTTP 404", provider="reader")
        return ResultItem(type="web", url=url, title="Read page", content=f"Body of {url}")


class FakeDB:
    """Returns the rows of the requested models; unknown models fail."""

    async def asearch(self, request: SearchRequest, ctx: SearchContext) -> SearchResult:
        names = request.models or ["products"]
        if any(name not in DB_ROWS for name in names):
            raise SearchError(ErrorCode.INVALID_QUERY, f"unknown model {names[0]!r}", provider="db")
        items = [
            ResultItem(
                type="db", model=name, record_id=rid, title=t, content=c, score=s, data={"id": rid}
            )
            for name in names
            for rid, t, c, s in DB_ROWS[name]
        ]
        return _result(request, items)


class FailingWeb:
    """A web source without an API key."""

    async def asearch(self, request: SearchRequest, ctx: SearchContext) -> SearchResult:
        raise SearchError(ErrorCode.NO_API_KEY, "set TAVILY_API_KEY", provider="tavily")


@pytest.fixture
def searcher() -> Searcher:
    """Fake sources; only the knowledge base is configured, so it is searched by default."""
    return Searcher(
        {"kb": {"collections": ["energy"]}},
        handlers={"kb": FakeKB(), "web": FakeWeb(), "db": FakeDB()},
    )


@pytest.fixture
def collector() -> Iterator[SearchTraceCollector]:
    """A trace collector attached to the root LlamaIndex dispatcher for one test."""
    root = get_dispatcher()
    handler = SearchTraceCollector()
    root.add_event_handler(handler)
    yield handler
    root.event_handlers.remove(handler)


@pytest.fixture
def fakes() -> SimpleNamespace:
    """The fake source classes (test modules cannot import conftest under importlib mode)."""
    return SimpleNamespace(FakeKB=FakeKB, FakeWeb=FakeWeb, FakeDB=FakeDB, FailingWeb=FailingWeb)
