"""Per-request controls of ``POST /api/search``: ``uses``, attachments and the search switch.

Each is validated (a 422 naming the field), limited by the ``server`` section and
recorded with the search.
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from unified_search.contract.handler import SearchContext
from unified_search.engine.searcher import Searcher
from unified_search.records.store import SearchStore
from unified_search.server.app import create_app
from unified_search.types import ResultItem, SearchRequest, SearchResult

MCP_SERVER = Path(__file__).parents[1] / "unit" / "mcp" / "search_server.py"
ROW = {"type": "db_row", "model": "orders", "record_id": "42", "data": {"status": "late"}}
DOCUMENT = {"type": "kb_document", "content": "Refunds take five days.", "title": "Refunds"}


class Found:
    """Answers with two items named after the query; remembers the requests."""

    def __init__(self) -> None:
        self.requests: list[SearchRequest] = []

    async def asearch(self, request: SearchRequest, ctx: SearchContext) -> SearchResult:
        self.requests.append(request)
        items = [
            ResultItem(type=request.type, title=f"{request.query} {n}", record_id=str(n), score=s)
            for n, s in ((1, 0.9), (2, 0.4))
        ]
        return SearchResult(type=request.type, query=request.query, items=items)


Api = tuple[httpx.AsyncClient, Found, SearchStore]


@pytest.fixture
def make_api(tmp_path: Path) -> Callable[..., Any]:
    async def build(config: dict[str, Any] | None = None) -> AsyncIterator[Api]:
        store = SearchStore(f"sqlite:///{tmp_path / 'records.sqlite3'}")
        found = Found()
        searcher = Searcher(config, handlers={"db": found, "kb": found}, store=store)
        transport = httpx.ASGITransport(app=create_app(searcher, store))
        async with httpx.AsyncClient(transport=transport, base_url="http://localhost") as http:
            yield http, found, store
        await searcher.aclose()

    return build


@pytest.fixture
async def api(make_api: Callable[..., Any]) -> AsyncIterator[Api]:
    async for ready in make_api():
        yield ready


async def post(http: httpx.AsyncClient, **body: Any) -> httpx.Response:
    return await http.post("/api/search", json={"chat_id": "c1", "types": ["db"], **body})


async def test_attached_rows_and_documents_are_cited_first_and_recorded(api: Api) -> None:
    http, _, store = api
    answered = await post(http, query="late orders", attachments=[ROW, DOCUMENT])
    assert answered.status_code == 200, answered.text
    body = answered.json()
    titles = [ref["title"] for ref in body["references"]]
    assert titles[:2] == ["orders 42", "Refunds"] and body["references"][0]["weight"] == 1.0
    records = await store.aget_searches(body["request_id"])
    stored = [ref.title for record in records for ref in record.references]
    assert {"orders 42", "Refunds"} <= set(stored)
    clicked = await http.get(f"/api/chat/c1/request/{body['request_id']}/reference/2")
    assert clicked.json()["snippet"] == "Refunds take five days."
    assert body["references"][0]["snippet"] == "status: late"


async def test_uses_choose_the_reranker_for_this_request_and_are_recorded(api: Api) -> None:
    http, _, store = api
    answered = await post(http, query="late orders", uses={"rerank": "rrf"})
    assert answered.status_code == 200, answered.text
    [record] = await store.aget_searches(answered.json()["request_id"])
    assert record.config["uses"]["rerank"] == "rrf"
    default = await post(http, query="late orders", chat_id="c2")
    [plain] = await store.aget_searches(default.json()["request_id"])
    assert plain.config["uses"]["rerank"] == "weighted"


@pytest.mark.parametrize("switch", [{"search": False}, {"uses": {"search": "disabled"}}])
async def test_the_search_switch_searches_nothing_and_cites_the_attachments(
    api: Api, switch: dict[str, Any]
) -> None:
    http, found, store = api
    answered = await post(http, query="late orders", attachments=[ROW], **switch)
    assert answered.status_code == 200, answered.text
    assert found.requests == []
    assert [ref["title"] for ref in answered.json()["references"]] == ["orders 42"]
    records = await store.aget_searches(answered.json()["request_id"])
    assert records and records[0].config["uses"]["search"] == "disabled"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"uses": {"rerank": "nonsense"}}, "uses.rerank"),
        ({"uses": {"search": "mcp:nowhere.tool"}}, "uses.search"),
        ({"uses": {"shell": "rm"}}, "uses.shell"),
        ({"search": "maybe"}, "search"),
        ({"attachments": [{"type": "file", "path": "/etc/passwd"}]}, "attachments.0"),
        ({"attachments": [{**ROW, "model": ""}]}, "attachments.0.db_row.model"),
        ({"attachments": [ROW] * 21}, "attachments"),
        ({"attachments": [{**DOCUMENT, "content": "x" * 20_001}]}, "attachments.0"),
        (
            {"attachments": [{"type": "mcp_resource", "server": "notes", "uri": "n://x"}]},
            "attachments.0",
        ),
    ],
)
async def test_bad_controls_are_422_naming_the_field(
    api: Api, body: dict[str, Any], field: str
) -> None:
    http, found, _ = api
    refused = await post(http, query="late orders", **body)
    assert refused.status_code == 422, refused.text
    fields = [problem["field"] for problem in refused.json()["detail"]]
    assert any(f == field or f.startswith(f"{field}.") for f in fields), fields
    assert found.requests == []


async def test_mcp_resources_only_from_servers_the_configuration_allows(
    make_api: Callable[..., Any],
) -> None:
    server = {"command": sys.executable, "args": [str(MCP_SERVER)], "timeout": 60}
    resource = {"type": "mcp_resource", "server": "notes", "uri": "notes://fridays"}
    config = {"mcp": {"notes": server}, "server": {"attach_mcp_servers": ["notes"]}}
    async for http, _, _ in make_api(config):
        answered = await post(http, query="when does the office close?", attachments=[resource])
        assert answered.status_code == 200, answered.text
        first = answered.json()["references"][0]
        assert first["content"] == "Note fridays: the office closes at 6 pm on Fridays."
