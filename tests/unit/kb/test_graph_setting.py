"""``kb.graph: true`` (the design's switch, ``kb.graph.enabled``) associates the graph by default."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from unified_search.config import SearchConfig
from unified_search.contract.handler import SearchContext
from unified_search.kb.handler import KBHandler
from unified_search.types import SearchRequest

NOTES = [
    {"id": "curie", "text": "Marie Curie worked at the CNRS with Pierre Curie on radioactivity."},
    {"id": "other", "text": "The NASA budget grew."},
]


@pytest.mark.parametrize(
    ("switch", "asked", "associated"),
    [
        (True, None, True),
        (False, None, False),
        (True, False, False),
        (False, True, True),
    ],
)
async def test_the_request_decides_else_the_setting(
    tmp_path: Path, make_embedding: Any, switch: bool, asked: bool | None, associated: bool
) -> None:
    config = SearchConfig.load(profile={"kb": {"data_dir": str(tmp_path), "graph": switch}})
    kb = KBHandler.from_config(config, embedding=make_embedding())
    try:
        await kb.aadd_documents("notes", NOTES)
        request = SearchRequest(query="What did the CNRS study?", type="kb", graph=asked)
        result = await kb.asearch(request, SearchContext(config=config, request_id="r"))
    finally:
        await kb.aclose()
    assert bool(result.graph_nodes) is associated
    assert ([e.name for e in result.entities] == ["CNRS"]) is associated
