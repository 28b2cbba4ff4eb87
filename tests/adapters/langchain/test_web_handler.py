"""The tools over the real web handler, with HTTP mocked at the transport."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from langchain_unified_search import RetrieveURLTool, UnifiedSearchRetriever, WebSearchTool
from unified_search.config import SearchConfig
from unified_search.engine.searcher import Searcher
from unified_search.web.handler import WebHandler

FIXTURE = Path(__file__).parents[2] / "fixtures" / "web" / "searxng_search_success.json"
PAGE = "<html><head><title>Guide</title></head><body><p>Replication needs a publication.</p></body></html>"


def respond(request: httpx.Request) -> httpx.Response:
    if request.url.host == "searx.test":
        return httpx.Response(200, json=json.loads(FIXTURE.read_text())["response"])
    if request.url.host == "docs.example.org":
        return httpx.Response(200, text=PAGE, headers={"content-type": "text/html"})
    return httpx.Response(404)


def searcher(address: str = "93.184.216.34") -> Searcher:
    async def resolve(host: str, port: int) -> list[str]:
        return [address]

    config = SearchConfig.load(
        profile={"web": {"providers": ["searxng"], "searxng": {"base_url": "http://searx.test"}}}
    )
    handler = WebHandler(
        config, transport=httpx.MockTransport(respond), resolver=resolve, cache=None
    )
    return Searcher(config, handlers={"web": handler})


async def test_web_search_tool_over_searxng():
    message = await WebSearchTool(searcher=searcher()).ainvoke(
        {
            "name": "web_search",
            "args": {"query": "postgres logical replication", "max_results": 2},
            "id": "1",
            "type": "tool_call",
        }
    )
    assert message.status == "success" and len(message.artifact) == 2
    assert (
        message.artifact[0].url
        == "https://www.postgresql.org/docs/current/logical-replication.html"
    )
    assert "#ref:ref_001" in message.content


def test_retriever_over_searxng_carries_the_provider():
    docs = UnifiedSearchRetriever(searcher=searcher(), k=3).invoke("postgres logical replication")
    assert len(docs) == 3 and all(d.metadata["unified_search"]["type"] == "web" for d in docs)
    assert all(
        "searxng" in str(d.metadata.get("provider") or d.metadata.get("providers")) for d in docs
    )


def test_retrieve_url_reads_the_page_text():
    message = RetrieveURLTool(searcher=searcher()).invoke(
        {
            "name": "retrieve_url",
            "args": {"url": "https://docs.example.org/guide"},
            "id": "1",
            "type": "tool_call",
        }
    )
    assert message.status == "success"
    assert "Replication needs a publication." in message.artifact[0].content
    assert message.artifact[0].url == "https://docs.example.org/guide"


@pytest.mark.parametrize(
    ("url", "address"),
    [
        ("https://docs.example.org/guide", "127.0.0.1"),
        ("ftp://docs.example.org/x", "93.184.216.34"),
    ],
)
def test_retrieve_url_refuses_unsafe_targets(url, address):
    message = RetrieveURLTool(searcher=searcher(address)).invoke(
        {"name": "retrieve_url", "args": {"url": url}, "id": "1", "type": "tool_call"}
    )
    assert message.status == "error"
    assert message.content.startswith("Search failed (INVALID_QUERY [reader]): ")
