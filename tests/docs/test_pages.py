"""What the pages show besides Python works: configuration examples load, the HTTP body answers."""

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

DOCS = Path(__file__).resolve().parents[2] / "docs"
#: YAML blocks that configure unified-search: all but those headed by another file's name.
CONFIGURATIONS = [
    pytest.param(block, id=f"{page.relative_to(DOCS).as_posix()}#{number}")
    for page in sorted(DOCS.rglob("*.md"))
    for number, block in enumerate(
        re.findall(r"^```yaml\n(.*?)^```", page.read_text(encoding="utf-8"), re.S | re.M), 1
    )
    if not re.match(r"# [\w.-]+\.ya?ml\n", block) or block.startswith("# search.yml")
]


def test_the_pages_hold_configuration_examples() -> None:
    assert len(CONFIGURATIONS) >= 4


@pytest.mark.parametrize("block", CONFIGURATIONS)
def test_every_configuration_example_loads(block: str, tmp_path: Path) -> None:
    file = tmp_path / "search.yml"
    file.write_text(block, encoding="utf-8")
    assert yaml.safe_load(block)
    SearchConfig.load(file)  # an unknown key or a wrong value raises, naming it


def test_the_configuration_example_names_the_demos_collection_and_shop() -> None:
    text = (DOCS / "configuration.md").read_text(encoding="utf-8")
    [example] = [b for b in re.findall(r"```yaml\n(.*?)```", text, re.S) if "collections:" in b]
    loaded = yaml.safe_load(example)
    assert loaded["kb"]["collections"] == [SAMPLE_COLLECTION]
    assert loaded["db"]["url"].endswith("/unified-search/demo/shop.db")


async def test_the_http_body_example_answers_from_the_demos_collection(tmp_path: Path) -> None:
    text = (DOCS / "http-api.md").read_text(encoding="utf-8")
    found = re.search(r'`(\{"query": "return policy".*?\})`', text)
    assert found, "docs/http-api.md has no POST /api/search body example"
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


def test_the_deviations_page_names_every_section() -> None:
    text = (DOCS / "deviations.md").read_text(encoding="utf-8")
    for section in (
        "Configuration",
        "Sources, references and records",
        "The search-layer skill",
        "The web cache and Tavily",
        "Automatic search and the HTTP API",
    ):
        assert f"## {section}" in text
