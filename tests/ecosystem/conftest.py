"""Offline sources for the real-ecosystem scenarios, and metadata as real loaders write it.

The web, kb and db sources answer with one item per word of the query. The
loader metadata is what ``langchain_community`` loaders and LlamaIndex's
``SimpleDirectoryReader`` put on their documents and nodes.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from unified_search.contract.handler import SearchContext
from unified_search.engine.searcher import Searcher
from unified_search.errors import ErrorCode, SearchError
from unified_search.records.store import SearchStore
from unified_search.types import ResultItem, SearchRequest, SearchResult, SearchType


class WordSource:
    """One item per word of the query (``fail`` raises), so each query finds new items."""

    def __init__(self, kind: SearchType, failing: bool = False) -> None:
        self.kind = kind
        self.failing = failing

    async def asearch(self, request: SearchRequest, ctx: SearchContext) -> SearchResult:
        if self.failing or "fail" in request.query:
            raise SearchError(ErrorCode.NETWORK_ERROR, "unreachable", provider=self.kind.value)
        items = [self._item(word) for word in request.query.split()][: request.limit]
        return SearchResult(type=self.kind, query=request.query, items=items)

    async def aretrieve(self, url: str, ctx: SearchContext) -> ResultItem:
        return ResultItem(type="web", url=url, title="Page", content=f"the text of {url}")

    def _item(self, word: str) -> ResultItem:
        fields: dict[str, Any] = {"type": self.kind, "title": f"{self.kind.value} {word}"}
        fields["content"] = f"{word}: what the {self.kind.value} source knows"
        if self.kind is SearchType.WEB:
            fields["url"] = f"https://example.com/{word}"
        elif self.kind is SearchType.KB:
            fields |= {"collection": "handbook", "document_id": word}
        else:
            fields |= {"model": "orders", "record_id": word}
        return ResultItem(**fields)


def word_searcher(store: SearchStore | None = None, failing: bool = False) -> Searcher:
    handlers = {kind: WordSource(kind, failing) for kind in SearchType}
    return Searcher(handlers=handlers, store=store)


@pytest.fixture
def sqlite_store(tmp_path: Path) -> SearchStore:
    return SearchStore(f"sqlite:///{tmp_path / 'records.sqlite3'}")


#: ``langchain_community`` loaders: what each puts in ``Document.metadata``.
LANGCHAIN_LOADERS: dict[str, dict[str, Any]] = {
    "TextLoader": {"source": "docs/notes.txt"},
    "PyPDFLoader": {
        "producer": "Skia/PDF m120",
        "creator": "Chromium",
        "creationdate": "2024-03-01T10:00:00+00:00",
        "moddate": "2024-03-01T10:00:00+00:00",
        "source": "reports/q1.pdf",
        "total_pages": 12,
        "page": 3,
        "page_label": "4",
    },
    "WebBaseLoader": {
        "source": "https://example.org/blog/post",
        "title": "A post",
        "description": "What the post is about",
        "language": "en",
    },
    "CSVLoader": {"source": "data/orders.csv", "row": 7},
    "DirectoryLoader+UnstructuredMarkdownLoader": {"source": "handbook/leave.md"},
    "user keys that look like ours": {
        "type": "memo",
        "score": "high",
        "url": "not a url",
        "weight": "heavy",
        "citation_id": "mine-7",
        "source": "intranet",
    },
}

#: ``SimpleDirectoryReader``: what each node of a text and a PDF file carries.
LLAMAINDEX_READER: dict[str, dict[str, Any]] = {
    "text file": {
        "file_path": "/data/handbook/leave.txt",
        "file_name": "leave.txt",
        "file_type": "text/plain",
        "file_size": 1834,
        "creation_date": "2024-05-01",
        "last_modified_date": "2024-05-02",
    },
    "pdf page": {
        "page_label": "2",
        "file_name": "q1.pdf",
        "file_path": "/data/reports/q1.pdf",
        "file_type": "application/pdf",
        "file_size": 88123,
        "creation_date": "2024-05-01",
        "last_modified_date": "2024-05-02",
    },
    "user keys that look like ours": {"type": "memo", "score": "high", "source": "intranet"},
}


@pytest.fixture
def kit() -> SimpleNamespace:
    """The helpers and data (test modules cannot import conftest under importlib mode)."""
    return SimpleNamespace(
        searcher=word_searcher,
        WordSource=WordSource,
        LANGCHAIN_LOADERS=LANGCHAIN_LOADERS,
        LLAMAINDEX_READER=LLAMAINDEX_READER,
    )
