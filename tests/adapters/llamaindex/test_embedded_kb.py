"""End to end over the real embedded knowledge base (Chroma in a temporary directory)."""

import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from llama_index.core.base.llms.types import CompletionResponse
from llama_index.core.llms import MockLLM
from llama_index.core.query_engine import RetrieverQueryEngine

from llama_index_unified_search import (
    UnifiedSearchRetriever,
    citation_qa_template,
    citation_refine_template,
    resolve_citations,
)
from unified_search.config import SearchConfig
from unified_search.engine.searcher import Searcher
from unified_search.errors import ErrorCode, SearchError
from unified_search.kb.handler import KBHandler

DOCS = [
    {
        "id": "heat-pumps",
        "title": "Heat pumps",
        "text": "A heat pump moves heat from outside air into the house.",
    },
    {
        "id": "solar",
        "title": "Solar panels",
        "text": "Solar panels convert sunlight into electricity.",
    },
    {
        "id": "trains",
        "title": "Night trains",
        "text": "Night trains connect Vienna and Paris overnight.",
    },
]


class CiteFirst(MockLLM):
    """Cites the first reference of the prompt."""

    def complete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> CompletionResponse:
        first = re.search(r'<ref id="(ref_\d+)"', prompt)
        return CompletionResponse(
            text=f"It moves heat indoors #ref:{first.group(1) if first else 'ref_000'}."
        )


@pytest.fixture
async def searcher(tmp_path: Path) -> AsyncIterator[Searcher]:
    config = SearchConfig.load(profile={"kb": {"data_dir": str(tmp_path / "kb"), "threshold": 0.0}})
    kb = KBHandler.from_config(config)
    await kb.aadd_documents("energy", DOCS)
    async with Searcher(config, handlers={"kb": kb}) as engine:
        yield engine


async def test_query_engine_over_the_embedded_kb_cites_real_chunks(searcher: Searcher) -> None:
    retriever = UnifiedSearchRetriever(searcher, types=["kb"], collections=["energy"], top_k=2)
    engine = RetrieverQueryEngine.from_args(
        retriever,
        llm=CiteFirst(),
        text_qa_template=citation_qa_template(),
        refine_template=citation_refine_template(),
    )
    response = await engine.aquery("how does a heat pump heat a house?")
    top = response.source_nodes[0].node.metadata["unified_search"]
    assert (top["citation_id"], top["document_id"], top["collection"], top["type"]) == (
        "ref_001",
        "heat-pumps",
        "energy",
        "kb",
    )
    resolved = resolve_citations(response)
    assert (
        resolved.unknown == []
        and resolved.cited_nodes[0].node.metadata["unified_search"]["title"] == "Heat pumps"
    )
    again = await retriever.aretrieve("how does a heat pump heat a house?")
    assert again[0].node.node_id == response.source_nodes[0].node.node_id


async def test_unknown_collection_in_the_embedded_kb_is_a_clear_error(searcher: Searcher) -> None:
    with pytest.raises(
        SearchError, match="unknown collection 'missing'; existing collections: energy"
    ) as caught:
        await UnifiedSearchRetriever(searcher, types=["kb"], collections=["missing"]).aretrieve(
            "heat"
        )
    assert caught.value.code is ErrorCode.INVALID_QUERY
