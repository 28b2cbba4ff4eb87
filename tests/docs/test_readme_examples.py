"""The README's configuration and HTTP examples work against the demo's data."""

from __future__ import annotations

import json
import re
from pathlib import Path

import httpx
import pytest
import yaml

from unified_search.config import SearchConfig
from unified_search.engine.searcher import Searcher
from unified_search.kb.handler import KBHandler
from unified_search.records.store import SearchStore
from unified_search.samples.knowledge import SAMPLE_COLLECTION, sample_documents
from unified_search.server.app import create_app

README = Path(__file__).resolve().parents[2] / "README.md"
TEXT = README.read_text(encoding="utf-8")
YAML_BLOCKS = re.findall(r"```yaml\n(.*?)```", TEXT, flags=re.S)


@pytest.mark.parametrize("block", YAML_BLOCKS, ids=[f"yaml{i}" for i in range(len(YAML_BLOCKS))])
def test_every_configuration_example_loads(block: str, tmp_path: Path) -> None:
    file = tmp_path / "search.yml"
    file.write_text(block, encoding="utf-8")
    assert SearchConfig.load(file) is not None
    assert yaml.safe_load(block)


def test_the_configuration_example_names_the_demos_collection_and_shop() -> None:
    [example] = [block for block in YAML_BLOCKS if "collections:" in block]
    loaded = yaml.safe_load(example)
    assert loaded["kb"]["collections"] == [SAMPLE_COLLECTION]
    assert loaded["db"]["url"].endswith("/unified-search/demo/shop.db")


async def test_the_http_body_example_answers_from_the_demos_collection(tmp_path: Path) -> None:
    found = re.search(r'`(\{"query": "return policy".*?\})`', TEXT)
    assert found, "README has no POST /api/search body example"
    body = json.loads(found.group(1))
    config = SearchConfig.load(profile={"kb": {"data_dir": str(tmp_path / "kb")}})
    kb = KBHandler.from_config(config)
    await kb.aadd_documents(SAMPLE_COLLECTION, sample_documents())
    store = SearchStore(f"sqlite:///{tmp_path / 'records.sqlite3'}")
    searcher = Searcher(config, handlers={"kb": kb}, store=store)
    transport = httpx.ASGITransport(app=create_app(searcher, store))
    async with httpx.AsyncClient(transport=transport, base_url="http://localhost") as http:
        answered = await http.post("/api/search", json=body)
    await searcher.aclose()
    assert answered.status_code == 200, answered.text
    references = answered.json()["references"]
    assert references and all(ref["collection"] == SAMPLE_COLLECTION for ref in references)
    assert any("return" in ref["content"].lower() for ref in references)
