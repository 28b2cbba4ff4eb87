"""Both adapters search what the CLI and the HTTP API search when no types are given, and
store their searches under a chat the caller can read them back by."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from langchain_unified_search import UnifiedSearchRetriever as LangChainRetriever
from llama_index_unified_search import UnifiedSearchRetriever as LlamaIndexRetriever
from unified_search import SearchStore
from unified_search.contract.handler import SearchContext
from unified_search.engine.searcher import Searcher
from unified_search.types import ResultItem, SearchRequest, SearchResult


class Named:
    async def asearch(self, request: SearchRequest, ctx: SearchContext) -> SearchResult:
        item = ResultItem(type=request.type, title=request.type.value, document_id="d", score=0.5)
        return SearchResult(type=request.type, query=request.query, items=[item])


def langchain(searcher: Searcher, **options: Any) -> list[tuple[str, str]]:
    documents = LangChainRetriever(searcher=searcher, **options).invoke("returns")
    meta = [d.metadata["unified_search"] for d in documents]
    return [(m["type"], m["citation_id"]) for m in meta]


def llamaindex(searcher: Searcher, **options: Any) -> list[tuple[str, str]]:
    nodes = LlamaIndexRetriever(searcher, **options).retrieve("returns")
    return [
        (
            n.node.metadata["unified_search"]["type"],
            n.node.metadata["unified_search"]["citation_id"],
        )
        for n in nodes
    ]


@pytest.mark.parametrize("retrieve", [langchain, llamaindex])
@pytest.mark.parametrize(
    ("options", "searched"),
    [
        ({"collections": ["help"]}, {"kb"}),
        ({"models": ["products"]}, {"db"}),
        ({"collections": ["help"], "models": ["products"]}, {"kb", "db"}),
    ],
)
def test_naming_collections_or_models_searches_them(
    tmp_path: Path, retrieve: Any, options: dict[str, Any], searched: set[str]
) -> None:
    with SearchStore(f"sqlite:///{tmp_path / 'records.sqlite3'}") as store:
        searcher = Searcher(handlers={"kb": Named(), "db": Named()}, store=store)
        found = retrieve(searcher, **options)
        assert {kind for kind, _ in found} == searched
        # Stored under a chat: the retriever's own scope, where its references resolve.
        [record, *_] = store.find_searches(limit=1)
        assert record.chat_id == record.request_id
        assert {ref.id for ref in store.get_references(record.request_id)} == {i for _, i in found}
        searcher.close()
