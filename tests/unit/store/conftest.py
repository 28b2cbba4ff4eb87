"""Stores on both backends, each test with its own tables, and record builders."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from unified_search.contract.handler import SearchContext
from unified_search.engine.searcher import Searcher
from unified_search.errors import ErrorCode, ErrorInfo
from unified_search.records.store import SearchRecord, SearchStore
from unified_search.types import (
    Entity,
    GraphNode,
    Reference,
    Relation,
    ResultItem,
    SearchRequest,
    SearchResult,
    SearchType,
    Source,
)

BACKENDS = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]


def open_store(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> SearchStore:
    """Open a store on ``backend`` with tables no other test uses."""
    if backend == "sqlite":
        return SearchStore(f"sqlite:///{tmp_path / 'store.sqlite3'}")
    url = request.getfixturevalue("postgres_url")
    return SearchStore(url, table_prefix=f"t{uuid.uuid4().hex[:12]}_")


@pytest.fixture(params=BACKENDS)
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[SearchStore]:
    """A fresh store on SQLite and on PostgreSQL; its tables are dropped afterwards."""
    opened = open_store(request.param, request, tmp_path)
    try:
        yield opened
    finally:
        opened.metadata.drop_all(opened.engine)
        opened.close()


def reference(index: int, **fields: Any) -> Reference:
    """Build reference ``index`` with a consistent citation ID."""
    values: dict[str, Any] = {
        "type": SearchType.WEB,
        "source": Source.USER,
        "weight": 1.0,
        "score": 0.5,
        "title": f"title {index}",
        "url": f"https://example.com/{index}",
        "content": f"content {index}",
    }
    return Reference(id=f"ref_{index:03d}", index=index, **(values | fields))


def full_record(request_id: str, chat_id: str | None = "chat-1") -> SearchRecord:
    """A record with every field set to something other than its default."""
    return SearchRecord(
        request_id=request_id,
        chat_id=chat_id,
        query="wireless headphones «under» $100",
        type=SearchType.DB,
        source=Source.HOOK,
        config={"rerank": {"top_n": 3}, "weights": {"hook": 0.8}, "web": {"providers": ["x"]}},
        keywords=["wireless", "headphones"],
        entities=[Entity(name="headphones", type="product")],
        relations=[Relation(source="headphones", target="audio", type="is_a", weight=0.5)],
        dsl={"wheres": [{"field": "price", "op": "lt", "value": 100}], "limit": 5},
        references=[
            reference(
                1,
                type=SearchType.DB,
                source=Source.HOOK,
                weight=0.8,
                score=0.91,
                url=None,
                model="products",
                record_id="42",
                data={"price": 99.5, "name": "Q"},
                metadata={"currency": "USD"},
            ),
            reference(
                2, type=SearchType.KB, document_id="d7", collection="docs", metadata={"page": 3}
            ),
        ],
        graph=[GraphNode(name="audio", type="category", relation="is_a", score=0.7)],
        xml='<references>\n<ref id="ref_001">…</ref>\n</references>',
        prompt="Cite sources as #ref:{id}.",
        duration_ms=12.625,
        error=ErrorInfo(code=ErrorCode.TIMEOUT, message="slow", provider="db", retryable=True),
        created_at=datetime(2026, 1, 2, 3, 4, 5, 678901, tzinfo=UTC),
    )


@pytest.fixture
def make_record() -> Callable[..., SearchRecord]:
    """Build a small web record of ``request_id`` citing the given reference indices."""

    def build(request_id: str, *indices: int, chat_id: str | None = None) -> SearchRecord:
        refs = [reference(index) for index in indices]
        return SearchRecord(
            request_id=request_id, chat_id=chat_id, query="q", type="web", references=refs
        )

    return build


@pytest.fixture
def make_reference() -> Callable[..., Reference]:
    """The ``reference`` builder, for tests."""
    return reference


@pytest.fixture
def make_full_record() -> Callable[..., SearchRecord]:
    """The ``full_record`` builder, for tests."""
    return full_record


class Words:
    """A knowledge base that finds one item per word of the query."""

    async def asearch(self, request: SearchRequest, ctx: SearchContext) -> SearchResult:
        items = [
            ResultItem(type="kb", collection="c", document_id=word, title=word, content=word)
            for word in request.query.split()
        ]
        return SearchResult(type="kb", query=request.query, items=items)


@pytest.fixture
def word_searcher() -> Callable[[SearchStore], Searcher]:
    """Build a Searcher over the ``Words`` knowledge base, recording into a store."""

    def build(store: SearchStore) -> Searcher:
        return Searcher(handlers={"kb": Words()}, store=store)

    return build
