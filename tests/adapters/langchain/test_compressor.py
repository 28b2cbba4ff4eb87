"""UnifiedSearchReranker: core rerankers behind LangChain's document compressor."""

from __future__ import annotations

import pytest
from langchain_classic.retrievers import ContextualCompressionRetriever
from langchain_core.documents import Document

from langchain_unified_search import UnifiedSearchReranker, UnifiedSearchRetriever
from unified_search.contract.metadata import METADATA_KEY, core_fields
from unified_search.engine.searcher import Searcher
from unified_search.errors import ErrorCode, SearchError
from unified_search.rerank.registry import RERANKERS


def docs() -> list[Document]:
    """Documents this package made: their score and weight are core fields."""
    return [
        Document(page_content="low", metadata={METADATA_KEY: {"score": 0.2}, "id": "a"}),
        Document(
            page_content="high but distrusted",
            metadata={METADATA_KEY: {"score": 0.9, "weight": 0.5}},
        ),
        Document(page_content="good", metadata={METADATA_KEY: {"score": 0.7}}),
    ]


def score(doc: Document) -> float:
    return doc.metadata[METADATA_KEY]["rerank_score"]


def test_weighted_orders_by_score_times_weight_and_returns_copies():
    given = docs()
    ranked = UnifiedSearchReranker().compress_documents(given, "q")
    assert [d.page_content for d in ranked] == ["good", "high but distrusted", "low"]
    assert [score(d) for d in ranked] == pytest.approx([0.7, 0.45, 0.2])
    assert ranked[2].metadata["id"] == "a"
    assert all("rerank_score" not in d.metadata[METADATA_KEY] for d in given)
    assert all(set(d.metadata) <= {"id", METADATA_KEY} for d in ranked)


async def test_top_n_cuts_and_async_matches_sync():
    reranker = UnifiedSearchReranker(top_n=2)
    sync = reranker.compress_documents(docs(), "q")
    async_ = await reranker.acompress_documents(docs(), "q")
    assert [d.page_content for d in sync] == [d.page_content for d in async_]
    assert len(sync) == 2


async def test_empty_input_returns_empty():
    assert UnifiedSearchReranker().compress_documents([], "q") == []
    assert await UnifiedSearchReranker().acompress_documents([], "q") == []


def test_every_registered_reranker_name_is_accepted():
    """The compressor looks names up in the core registry; it knows no names of its own."""
    for name in RERANKERS:
        assert UnifiedSearchReranker(reranker=name).reranker == name


def test_unknown_reranker_lists_the_valid_ones():
    with pytest.raises(SearchError) as info:
        UnifiedSearchReranker(reranker="magic")
    assert info.value.code is ErrorCode.UNSUPPORTED
    assert "weighted" in info.value.message and "'magic'" in info.value.message


def test_bad_top_n_is_a_validation_error():
    from pydantic import ValidationError

    with pytest.raises(ValidationError, match="top_n"):
        UnifiedSearchReranker(top_n=0)


def test_works_inside_contextual_compression_retriever(sources):
    base = UnifiedSearchRetriever(searcher=sources.searcher(), types=["web", "kb"], k=8)
    retriever = ContextualCompressionRetriever(
        base_compressor=UnifiedSearchReranker(top_n=3), base_retriever=base
    )
    result = retriever.invoke("gardening")
    assert len(result) == 3
    scores = [score(d) for d in result]
    assert scores == sorted(scores, reverse=True)
    assert all(core_fields(d.metadata)["citation_id"].startswith("ref_") for d in result)


def test_an_agent_registered_on_the_searcher_reranks():
    """Agent rerankers come from the bound Searcher's delegates."""
    seen: list[dict] = []

    def judge(payload: dict) -> dict:
        seen.append(payload)
        return {"order": ["ref_001", "ref_003", "ref_002"]}

    reranker = UnifiedSearchReranker(reranker="judge", searcher=Searcher(agents={"judge": judge}))
    ranked = reranker.compress_documents(docs(), "which is best?")
    assert [d.page_content for d in ranked] == ["low", "good", "high but distrusted"]
    assert seen[0]["query"] == "which is best?" and len(seen[0]["items"]) == 3


def test_rrf_reranker_by_name_keeps_every_document():
    ranked = UnifiedSearchReranker(reranker="rrf").compress_documents(docs(), "q")
    assert sorted(d.page_content for d in ranked) == ["good", "high but distrusted", "low"]
    assert all(isinstance(score(d), float) for d in ranked)
