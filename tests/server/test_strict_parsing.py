"""The HTTP API parses strictly: ASCII digits only, normalised queries, nothing invisible."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from unified_search.contract.handler import SearchContext
from unified_search.engine.searcher import Searcher
from unified_search.records.store import SearchStore
from unified_search.server.app import create_app
from unified_search.types import ResultItem, SearchRequest, SearchResult

#: What ``str.isdigit`` accepts and ``int`` fails on (superscript, circled) or reads as 1
#: (Arabic-Indic, fullwidth), and what is no whole number at all.
NOT_ASCII_DIGITS = ["¹", "①", "١", "１", "+1", "-1", " 1", "1 ", "1_0", "0x1", "1e0", "²³"]
#: Queries with no visible character: blanks, zero-width, byte-order marks, controls.
INVISIBLE = [" ", "\u200b", "\ufeff", "\u200b\ufeff\u2060", "\t\n", "\x1b", "\u202e", "\u3000"]


class Shelf:
    """One item per fact whose word the query holds (the query as the handler receives it)."""

    facts = {"battery": "The battery lasts thirty hours.", "returns": "Within 30 days."}  # noqa: RUF012
    seen: list[str] = []  # noqa: RUF012

    async def asearch(self, request: SearchRequest, ctx: SearchContext) -> SearchResult:
        self.seen.append(request.query)
        items = [
            ResultItem(type="kb", title=w, content=t, document_id=w, collection="help", score=0.9)
            for w, t in self.facts.items()
            if w in request.query
        ]
        return SearchResult(type="kb", query=request.query, items=items)


@pytest.fixture
async def client(tmp_path: Path) -> AsyncIterator[httpx.AsyncClient]:
    store = SearchStore(f"sqlite:///{tmp_path / 'records.sqlite3'}")
    searcher = Searcher(handlers={"kb": Shelf()}, store=store)
    transport = httpx.ASGITransport(app=create_app(searcher, store))
    async with httpx.AsyncClient(transport=transport, base_url="http://localhost") as http:
        yield http
    await searcher.aclose()


async def search(client: httpx.AsyncClient, query: str, **body: Any) -> httpx.Response:
    return await client.post(
        "/api/search", json={"query": query, "types": ["kb"], "chat_id": "c1", **body}
    )


@pytest.mark.parametrize("raw", NOT_ASCII_DIGITS)
async def test_a_reference_index_in_any_digits_but_ascii_is_422(
    client: httpx.AsyncClient, raw: str
) -> None:
    found = (await search(client, "battery")).json()
    response = await client.get(f"/api/chat/c1/request/{found['request_id']}/reference/{raw}")
    assert response.status_code == 422, response.text
    assert response.json()["detail"] == [
        {"field": "index", "message": "must be a whole number from 1 to 2147483647"}
    ]


@pytest.mark.parametrize("raw", NOT_ASCII_DIGITS)
async def test_a_history_limit_in_any_digits_but_ascii_is_422(
    client: httpx.AsyncClient, raw: str
) -> None:
    response = await client.get("/api/chat/c1/searches", params={"limit": raw})
    assert response.status_code == 422
    assert response.json()["detail"][0]["field"] == "limit"


@pytest.mark.parametrize("top_n", ["5", "١", True, 5.0, "1_0"])
async def test_body_integers_are_json_numbers(client: httpx.AsyncClient, top_n: Any) -> None:
    response = await search(client, "battery", top_n=top_n)
    assert response.status_code == 422
    assert response.json()["detail"][0]["field"] == "top_n"
    assert (await search(client, "battery", top_n=5)).status_code == 200


@pytest.mark.parametrize("query", INVISIBLE)
async def test_a_query_with_nothing_visible_is_422_naming_query(
    client: httpx.AsyncClient, query: str
) -> None:
    response = await search(client, query)
    assert response.status_code == 422
    [problem] = response.json()["detail"]
    assert problem["field"] == "query" and "visible character" in problem["message"]


async def test_fullwidth_queries_search_as_what_they_stand_for(client: httpx.AsyncClient) -> None:
    plain = (await search(client, "battery returns")).json()
    wide = (await search(client, "ｂａｔｔｅｒｙ ｒｅｔｕｒｎｓ")).json()
    assert [r["title"] for r in wide["references"]] == [r["title"] for r in plain["references"]]
    assert Shelf.seen[-1] == "battery returns"


async def test_a_query_with_terminal_controls_is_searched_and_stored_escaped(
    client: httpx.AsyncClient,
) -> None:
    planted = "battery \x1b[2J\x1b]8;;http://evil.example\x07link\x1b]8;;\x07 \u202eevil"
    found = await search(client, planted)
    assert found.status_code == 200 and found.json()["references"]
    stored = (await client.get("/api/chat/c1/searches")).json()["searches"][-1]["query"]
    assert stored == (
        "battery \\x1b[2J\\x1b]8;;http://evil.example\\x07link\\x1b]8;;\\x07 \\u202eevil"
    )
