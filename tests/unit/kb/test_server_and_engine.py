"""The Chroma server path, and the real default embedding through the whole engine."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from unified_search.config import SearchConfig
from unified_search.contract.handler import SearchContext
from unified_search.engine.searcher import Searcher
from unified_search.kb.handler import KBHandler
from unified_search.types import SearchRequest


async def test_http_client_against_a_real_chroma_server(
    chroma_server: str, tmp_path: Path, make_embedding: Any
) -> None:
    config = SearchConfig.load(
        profile={"kb": {"chroma_url": chroma_server, "data_dir": str(tmp_path / "side")}}
    )
    kb = KBHandler.from_config(config, embedding=make_embedding())
    report = await kb.aadd_documents(
        "remote", [{"id": "r1", "text": "Remote Chroma servers hold vectors."}, "Other text."]
    )
    assert report.added == 2
    assert await kb.alist_collections() == ["remote"]
    assert not (tmp_path / "side" / "chroma").exists()  # vectors live on the server
    result = await kb.asearch(
        SearchRequest(query="remote vectors", type="kb"),
        SearchContext(config=config, request_id="r"),
    )
    assert result.items[0].document_id == "r1"
    await kb.aclose()


async def test_end_to_end_through_the_searcher_with_the_default_embedding(tmp_path: Path) -> None:
    config = SearchConfig.load(
        profile={"kb": {"data_dir": str(tmp_path), "collections": ["papers"]}}
    )
    kb = KBHandler.from_config(config)
    await kb.aadd_documents(
        "papers",
        [
            {
                "id": "p1",
                "title": "Aspirin and heart attacks",
                "text": "Low-dose aspirin lowers the risk of myocardial infarction.",
            },
            {
                "id": "p2",
                "title": "Sleep",
                "text": "Adults who sleep less than six hours report more fatigue.",
            },
            {
                "id": "p3",
                "title": "Glaciers",
                "text": "Alpine glaciers have lost mass every year since 1990.",
            },
        ],
    )
    async with Searcher(config, handlers={"kb": kb}) as searcher:
        response = await searcher.asearch(
            {"query": "does aspirin prevent heart disease", "type": "kb"}
        )
    assert response.items[0].document_id == "p1"
    assert response.items[0].citation_id == "ref_001"
    assert "Low-dose aspirin" in response.context.xml
    assert (
        response.results[0] is not None
        and response.results[0].metadata["embedding_model"] == "all-MiniLM-L6-v2-int8"
    )


async def test_a_query_longer_than_the_model_window_is_truncated_and_noted(
    tmp_path: Path, log: Any
) -> None:
    config = SearchConfig.load(profile={"kb": {"data_dir": str(tmp_path)}})
    kb = KBHandler.from_config(config)
    await kb.aadd_documents("papers", ["Glaciers are melting."])
    ctx = SearchContext(config=config, request_id="r", log=log)
    result = await kb.asearch(SearchRequest(query="glaciers melting " * 100, type="kb"), ctx)
    assert result.items[0].content == "Glaciers are melting."
    assert any(level == "warn" and "word pieces" in message for level, message in log.lines)
    await kb.aclose()
