"""``threshold`` is a hard floor on final scores; ``min_similarity`` is the softer dense floor."""

from __future__ import annotations

from typing import Any

import pytest

from unified_search.config import SearchConfig
from unified_search.contract.handler import SearchContext
from unified_search.kb.handler import KBHandler
from unified_search.types import SearchRequest

DOCS = [
    {"id": "heat", "title": "Heat pumps", "text": "Heat pumps move heat from cold outside air."},
    {"id": "pump", "title": "Water pumps", "text": "A pump in the garden moves water around."},
    {"id": "air", "title": "Air quality", "text": "Outside air quality depends on the season."},
    {"id": "bread", "title": "Baking", "text": "Knead dough, let it rise, then bake bread."},
    {"id": "chess", "title": "Chess", "text": "Castling moves the king two squares sideways."},
]
QUERY = "heat pumps in cold air"


def req(**fields: Any) -> SearchRequest:
    return SearchRequest(query=QUERY, type="kb", **fields)


@pytest.fixture
async def filled(kb: KBHandler) -> KBHandler:
    await kb.aadd_documents("home", DOCS)
    return kb


@pytest.mark.parametrize("floor", [0.0, 0.2, 0.4, 0.6, 0.8, 1.0])
async def test_threshold_is_a_floor_on_every_final_score(
    filled: KBHandler, ctx: SearchContext, floor: float
) -> None:
    result = await filled.asearch(req(threshold=floor), ctx)
    assert all(item.score >= floor for item in result.items)
    assert result.total == len(result.items)
    everything = await filled.asearch(req(threshold=0.0), ctx)
    assert [i.document_id for i in result.items] == [
        i.document_id for i in everything.items if i.score >= floor
    ]


async def test_lexical_matches_are_held_to_the_floor_too(
    filled: KBHandler, ctx: SearchContext
) -> None:
    soft = await filled.asearch(req(min_similarity=0.99), ctx)
    lexical = [i for i in soft.items if (i.metadata.get("similarity") or 0) < 0.99]
    assert lexical, "min_similarity keeps weak chunks that share words with the query"
    weakest = min(i.score for i in lexical)
    hard = await filled.asearch(req(threshold=weakest + 1e-6), ctx)
    assert {i.document_id for i in lexical if i.score <= weakest} & {
        i.document_id for i in hard.items
    } == set()


async def test_threshold_zero_keeps_every_candidate_unlike_the_similarity_floor(
    filled: KBHandler, ctx: SearchContext
) -> None:
    everything = await filled.asearch(req(threshold=0.0), ctx)
    assert {i.document_id for i in everything.items} == {d["id"] for d in DOCS}
    floored = await filled.asearch(req(min_similarity=0.7), ctx)  # dense-only need 0.7
    assert "bread" not in {i.document_id for i in floored.items}
    default = await filled.asearch(req(), ctx)  # the default floor, 0, keeps them all
    assert {i.document_id for i in default.items} == {d["id"] for d in DOCS}


async def test_configured_threshold_applies_and_requests_override_it(
    filled: KBHandler, config: SearchConfig
) -> None:
    strict = SearchContext(config=config.merged({"kb": {"threshold": 0.9}}), request_id="r")
    floored = await filled.asearch(req(), strict)
    assert floored.items and all(item.score >= 0.9 for item in floored.items)
    loose = await filled.asearch(req(threshold=0.0), strict)
    assert len(loose.items) == len(DOCS)


async def test_min_similarity_keeps_the_earlier_behaviour(
    filled: KBHandler, config: SearchConfig
) -> None:
    ctx = SearchContext(config=config.merged({"kb": {"min_similarity": 0.0}}), request_id="r")
    assert len((await filled.asearch(req(), ctx)).items) == len(DOCS)
    with pytest.raises(ValueError, match="min_similarity"):
        SearchConfig.load(profile={"kb": {"min_similarity": 1.5}})
