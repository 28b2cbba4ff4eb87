"""The KB tool and the retriever over the real embedded knowledge base."""

from __future__ import annotations

import pytest

from langchain_unified_search import KBSearchTool, UnifiedSearchRetriever
from unified_search.config import SearchConfig
from unified_search.engine.searcher import Searcher
from unified_search.kb.handler import KBHandler

NOTES = [
    {"id": "chroma", "text": "Chroma stores vectors for semantic search."},
    {"id": "refund", "text": "Our refund policy allows returns within 30 days."},
    {"id": "leave", "text": "Vacation: employees get 25 days of paid leave per year."},
]


@pytest.fixture(scope="module")
def searcher(tmp_path_factory: pytest.TempPathFactory) -> Searcher:
    config = SearchConfig.load(
        profile={
            "kb": {
                "data_dir": str(tmp_path_factory.mktemp("kb")),
                "collections": ["notes"],
                "threshold": 0.1,
            }
        }
    )
    kb = KBHandler.from_config(config)
    kb.add_documents("notes", NOTES)
    return Searcher(config, handlers={"kb": kb})


def call(tool: KBSearchTool, args: dict) -> object:
    return tool.invoke({"name": tool.name, "args": args, "id": "1", "type": "tool_call"})


def test_kb_search_finds_the_passage(searcher):
    message = call(
        KBSearchTool(searcher=searcher), {"query": "how many vacation days", "max_results": 2}
    )
    assert message.status == "success"
    assert message.artifact[0].document_id == "leave"
    assert message.artifact[0].collection == "notes"
    assert 'weight="1">Vacation: employees get 25 days' in message.content


def test_unknown_collection_lists_the_existing_ones(searcher):
    message = call(KBSearchTool(searcher=searcher), {"query": "x", "collections": ["nope"]})
    assert message.status == "error"
    assert message.content == (
        "Search failed (INVALID_QUERY [kb]): unknown collection 'nope'; existing collections: notes"
    )


async def test_retriever_documents_carry_kb_identifiers(searcher):
    docs = await UnifiedSearchRetriever(searcher=searcher, types=["kb"], k=1).ainvoke("refund")
    assert len(docs) == 1
    meta = docs[0].metadata["unified_search"]
    assert (meta["document_id"], meta["collection"], meta["type"]) == ("refund", "notes", "kb")
    assert docs[0].page_content == "Our refund policy allows returns within 30 days."
