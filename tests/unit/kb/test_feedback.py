"""Dense pseudo-relevance feedback: the query vector moves toward its first top chunks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from unified_search.config import SearchConfig
from unified_search.contract.handler import SearchContext
from unified_search.kb.handler import KBHandler
from unified_search.types import SearchRequest

# "z-arctic" shares no word with the query, only words with the chunk that answers it;
# "a-pasta" shares nothing with either.
DOCS = [
    {"id": "glacier", "text": "glacier ice melting arctic polar"},
    {"id": "z-arctic", "text": "arctic polar sea warming"},
    {"id": "a-pasta", "text": "boil pasta tomato sauce"},
]
QUERY = "glacier ice"


async def search(tmp_path: Path, make_embedding: Any, **hybrid: Any) -> list[Any]:
    config = SearchConfig.load(profile={"kb": {"data_dir": str(tmp_path), "hybrid": hybrid}})
    kb = KBHandler.from_config(config, embedding=make_embedding())
    try:
        await kb.aadd_documents("notes", DOCS)
        request = SearchRequest(query=QUERY, type="kb", limit=3)
        return list((await kb.asearch(request, SearchContext(config=config, request_id="r"))).items)
    finally:
        await kb.aclose()


@pytest.mark.parametrize("weight", [0.3, 1.0, 2.0])
async def test_feedback_ranks_what_the_answer_is_about_above_the_unrelated(
    tmp_path: Path, make_embedding: Any, weight: float
) -> None:
    plain = await search(tmp_path / "plain", make_embedding, feedback_docs=0)
    score = {i.document_id: i.score for i in plain}
    assert (
        score["glacier"] > score["z-arctic"] == score["a-pasta"] == 0.0
    )  # nothing tells them apart
    moved = await search(
        tmp_path / "moved", make_embedding, feedback_docs=1, feedback_weight=weight
    )
    assert [i.document_id for i in moved] == ["glacier", "z-arctic", "a-pasta"]
    assert moved[1].score > moved[2].score
    # Similarity is still to the query itself: feedback changes the order, not the evidence.
    assert {i.document_id: i.metadata["similarity"] for i in moved} == {
        i.document_id: i.metadata["similarity"] for i in plain
    }


async def test_feedback_found_chunks_are_held_to_the_similarity_floor(
    tmp_path: Path, make_embedding: Any
) -> None:
    config = SearchConfig.load(profile={"kb": {"data_dir": str(tmp_path)}})
    kb = KBHandler.from_config(config, embedding=make_embedding())
    await kb.aadd_documents("notes", DOCS)
    request = SearchRequest(query=QUERY, type="kb", limit=3, min_similarity=0.1)
    found = await kb.asearch(request, SearchContext(config=config, request_id="r"))
    assert [i.document_id for i in found.items] == ["glacier"]
    await kb.aclose()


@pytest.mark.parametrize("fusion", ["convex", "rrf", "dense", "lexical"])
async def test_feedback_with_every_fusion_keeps_the_answer_first(
    tmp_path: Path, make_embedding: Any, fusion: str
) -> None:
    items = await search(tmp_path, make_embedding, fusion=fusion, feedback_docs=2)
    assert items[0].document_id == "glacier"
