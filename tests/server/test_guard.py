"""What the HTTP API refuses before searching: bodies over the limits, bad JSON, other media
types, foreign hosts, missing tokens, browsers from unlisted origins; always a JSON 4xx."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from unified_search.contract.handler import SearchContext
from unified_search.engine.searcher import Searcher
from unified_search.records.store import SearchStore
from unified_search.server.app import create_app
from unified_search.types import ResultItem, SearchRequest, SearchResult

TOKEN = "s3cret-token-0123456789"
LIMITS = {"max_body_bytes": 4096, "max_query_chars": 100}

Api = Callable[..., Awaitable[httpx.AsyncClient]]


class Echo:
    async def asearch(self, request: SearchRequest, ctx: SearchContext) -> SearchResult:
        item = ResultItem(type="kb", title=request.query[:40], document_id="d", score=0.5)
        return SearchResult(type="kb", query=request.query, items=[item])


@pytest.fixture
async def api(tmp_path: Path) -> AsyncIterator[Api]:
    """Build clients of an app with the given ``server`` section and token."""
    opened: list[tuple[httpx.AsyncClient, Searcher]] = []

    async def build(
        server: dict[str, Any] | None = None,
        token: str | None = None,
        host: str = "localhost",
        store: SearchStore | None = None,
    ) -> httpx.AsyncClient:
        store = store or SearchStore(f"sqlite:///{tmp_path / f'r{len(opened)}.sqlite3'}")
        searcher = Searcher(
            {"server": {**LIMITS, **(server or {})}}, handlers={"kb": Echo()}, store=store
        )
        transport = httpx.ASGITransport(
            app=create_app(searcher, store, token=token), raise_app_exceptions=False
        )
        client = httpx.AsyncClient(transport=transport, base_url=f"http://{host}")
        opened.append((client, searcher))
        return client

    yield build
    for client, searcher in opened:
        await client.aclose()
        await searcher.aclose()


def blamed(response: httpx.Response) -> list[str]:
    """The fields a JSON refusal names (its body must be JSON whatever went wrong)."""
    assert response.headers["content-type"] == "application/json", response.text
    return [problem["field"] for problem in response.json()["detail"]]


def json_post(
    client: httpx.AsyncClient, content: bytes, **headers: str
) -> Awaitable[httpx.Response]:
    return client.post(
        "/api/search", content=content, headers={"content-type": "application/json", **headers}
    )


# -- sizes ------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [4097, 100_000, 10_000_000])
async def test_a_body_over_the_limit_is_413_naming_it(api: Api, size: int) -> None:
    client = await api()
    body = b'{"query": "' + b"x" * size + b'"}'
    response = await json_post(client, body)
    assert response.status_code == 413
    assert blamed(response) == ["body"]
    assert "4096 bytes (server.max_body_bytes)" in response.json()["detail"][0]["message"]


async def test_a_streamed_body_without_length_is_cut_at_the_limit(api: Api) -> None:
    """Chunked uploads declare no size: the limit is counted as the bytes arrive."""
    client = await api()
    sent: list[int] = []

    async def chunks() -> AsyncIterator[bytes]:
        for _ in range(1000):
            sent.append(1024)
            yield b" " * 1024

    response = await client.post(
        "/api/search", content=chunks(), headers={"content-type": "application/json"}
    )
    assert response.status_code == 413 and blamed(response) == ["body"]
    assert sum(sent) < 100 * 1024  # it stopped reading, far before the 1 MB sent


@pytest.mark.parametrize("length", [101, 1_000, 4_000])
async def test_a_query_over_the_limit_is_422_naming_it(api: Api, length: int) -> None:
    client = await api()
    response = await client.post("/api/search", json={"query": "q" * length, "types": ["kb"]})
    assert response.status_code == 422
    assert blamed(response) == ["query"]
    assert "100 characters (server.max_query_chars)" in response.json()["detail"][0]["message"]


async def test_a_query_at_the_limit_is_searched(api: Api) -> None:
    client = await api()
    response = await client.post("/api/search", json={"query": "q" * 100, "types": ["kb"]})
    assert response.status_code == 200, response.text


# -- JSON -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        b"[" * 1000 + b"]" * 1000,
        b'{"query": "q", "types": ' + b"[" * 1500 + b"]" * 1500 + b"}",
        b'{"query": "q", "x": ' + b'{"a": ' * 600 + b"1" + b"}" * 600 + b"}",
        b"{not json",
        b"\xff\xfe\x00",
        b'{"query": "\\ud800"}',
        b"",
        b"[1, 2]",
        b'"a string"',
    ],
    ids=[
        "deep-array",
        "deep-field",
        "deep-object",
        "broken",
        "not-utf8",
        "lone-surrogate",
        "empty",
        "array",
        "string",
    ],
)
async def test_bad_json_is_a_422_naming_the_body(api: Api, body: bytes) -> None:
    client = await api({"max_body_bytes": 64_000})
    response = await json_post(client, body)
    assert response.status_code == 422, response.text
    assert blamed(response)[0] in ("body", "x")
    assert "Traceback" not in response.text


@pytest.mark.parametrize(
    "media_type",
    [
        "text/plain",
        "text/plain;charset=UTF-8",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "application/jsonp",
        "",
    ],
)
async def test_only_json_bodies_are_read(api: Api, media_type: str) -> None:
    """A browser posts text/plain or a form cross-site without asking first: refused."""
    client = await api()
    headers = {"content-type": media_type} if media_type else {}
    response = await client.post(
        "/api/search", content=b'{"query": "returns", "types": ["kb"]}', headers=headers
    )
    assert response.status_code == 415
    assert blamed(response) == ["Content-Type"]


async def test_json_with_a_charset_is_read(api: Api) -> None:
    client = await api()
    body = b'{"query": "returns", "types": ["kb"]}'
    response = await json_post(client, body, **{"content-type": "application/json; charset=utf-8"})
    assert response.status_code == 200, response.text


# -- hosts ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "host", ["evil.example", "localhost.evil.example", "127.0.0.1.nip.io", "10.0.0.7", "[::2]"]
)
async def test_a_foreign_host_is_400_naming_the_header(api: Api, host: str) -> None:
    """DNS rebinding: a page on another name reaching the loopback server is refused."""
    client = await api(host=host)
    for response in (
        await client.post("/api/search", json={"query": "returns", "types": ["kb"]}),
        await client.get("/api/chat/c/request/r/references"),
    ):
        assert response.status_code == 400
        assert blamed(response) == ["Host"]


@pytest.mark.parametrize(
    "header", ["localhost@evil.example", "evil.example#@localhost", "localhost.", "", "[::1"]
)
async def test_host_headers_dressed_as_loopback_are_refused(api: Api, header: str) -> None:
    client = await api()
    response = await client.post(
        "/api/search", json={"query": "q", "types": ["kb"]}, headers={"host": header}
    )
    assert response.status_code == 400 and blamed(response) == ["Host"]


@pytest.mark.parametrize("host", ["localhost", "127.0.0.1", "[::1]", "localhost:8000", "LocalHost"])
async def test_loopback_names_are_served_by_default(api: Api, host: str) -> None:
    client = await api(host=host)
    response = await client.post("/api/search", json={"query": "returns", "types": ["kb"]})
    assert response.status_code == 200, response.text


async def test_configured_hosts_replace_the_loopback_names(api: Api) -> None:
    hosts = {"allowed_hosts": ["search.example.com", "*.example.org"]}
    for host, status in [
        ("search.example.com", 200),
        ("api.example.org", 200),
        ("example.org.evil.net", 400),
        ("localhost", 400),
    ]:
        client = await api(hosts, host=host)
        response = await client.post("/api/search", json={"query": "q", "types": ["kb"]})
        assert response.status_code == status, host


# -- token ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "authorization",
    [
        None,
        "",
        "Bearer",
        "Bearer wrong",
        f"Basic {TOKEN}",
        f"Bearer {TOKEN[:-1]}",
        f"Bearer {TOKEN}x",
    ],
)
async def test_without_the_token_every_route_is_401(api: Api, authorization: str | None) -> None:
    client = await api(token=TOKEN)
    headers = {"authorization": authorization} if authorization is not None else {}
    for response in (
        await client.post("/api/search", json={"query": "q", "types": ["kb"]}, headers=headers),
        await client.get("/api/chat/c/request/c/references", headers=headers),
        await client.get("/api/chat/c/searches", headers=headers),
    ):
        assert response.status_code == 401
        assert blamed(response) == ["Authorization"]
        assert response.headers["www-authenticate"] == "Bearer"
        assert TOKEN not in response.text


async def test_the_token_opens_every_route(api: Api) -> None:
    client = await api(token=TOKEN)
    headers = {"authorization": f"Bearer {TOKEN}"}
    found = await client.post(
        "/api/search", json={"query": "q", "types": ["kb"], "chat_id": "c"}, headers=headers
    )
    assert found.status_code == 200, found.text
    listed = await client.get("/api/chat/c/request/c/references", headers=headers)
    assert listed.status_code == 200 and len(listed.json()["references"]) == 1


# -- CORS -------------------------------------------------------------------------------


async def test_cors_is_off_unless_origins_are_configured(api: Api) -> None:
    client = await api()
    origin = {"origin": "https://app.example.com"}
    answered = await client.post(
        "/api/search", json={"query": "q", "types": ["kb"]}, headers=origin
    )
    assert "access-control-allow-origin" not in answered.headers
    preflight = await client.options(
        "/api/search", headers={**origin, "access-control-request-method": "POST"}
    )
    assert "access-control-allow-origin" not in preflight.headers


async def test_configured_origins_pass_preflight_before_the_token(api: Api) -> None:
    client = await api({"cors_origins": ["https://app.example.com"]}, token=TOKEN)
    asked = {
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization, content-type",
    }
    allowed = await client.options(
        "/api/search", headers={"origin": "https://app.example.com", **asked}
    )
    assert allowed.status_code == 200
    assert allowed.headers["access-control-allow-origin"] == "https://app.example.com"
    other = await client.options("/api/search", headers={"origin": "https://evil.example", **asked})
    assert other.status_code == 400
    assert "access-control-allow-origin" not in other.headers


# -- IDs in the URL -------------------------------------------------------------------------


@pytest.fixture(params=["sqlite", "postgresql"])
def any_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[SearchStore]:
    """A SQLite store, and one on the local PostgreSQL server (its own tables, dropped after)."""
    if request.param == "sqlite":
        url, prefix = f"sqlite:///{tmp_path / 'ids.sqlite3'}", ""
    else:
        url, prefix = request.getfixturevalue("postgres_url"), f"srv{uuid.uuid4().hex[:8]}_"
    store = SearchStore(url, table_prefix=prefix)
    yield store
    if prefix:
        store.metadata.drop_all(store.engine)
    store.close()


BAD_IDS = ["%00", "a%0Ab", "x" * 256]


@pytest.mark.parametrize("bad", BAD_IDS)
async def test_ids_no_search_can_have_are_422_naming_them(
    api: Api, any_store: SearchStore, bad: str
) -> None:
    """A NUL would be a database error on PostgreSQL: it never reaches the store."""
    client = await api(store=any_store)
    for path, field in [
        (f"/api/chat/{bad}/request/r/references", "chat_id"),
        (f"/api/chat/c/request/{bad}/references", "request_id"),
        (f"/api/chat/c/request/{bad}/reference/1", "request_id"),
        (f"/api/chat/{bad}/searches", "chat_id"),
    ]:
        response = await client.get(path)
        assert response.status_code == 422, (path, response.text)
        assert blamed(response) == [field]


@pytest.mark.parametrize("index", ["0", "-1", "1.5", "abc", "99999999999999999999", "2147483648"])
async def test_a_reference_index_out_of_range_is_422(
    api: Api, any_store: SearchStore, index: str
) -> None:
    client = await api(store=any_store)
    response = await client.get(f"/api/chat/c/request/r/reference/{index}")
    assert response.status_code == 422 and blamed(response) == ["index"]


# -- everything else is JSON too ------------------------------------------------------------


async def test_unknown_routes_and_methods_answer_json(api: Api) -> None:
    client = await api()
    missing = await client.get("/api/nothing")
    assert missing.status_code == 404 and missing.json() == {"detail": "Not Found"}
    wrong = await client.put("/api/search", json={})
    assert wrong.status_code == 405 and wrong.json() == {"detail": "Method Not Allowed"}


class BrokenStore(SearchStore):
    async def aget_searches(self, request_id: str, *, include_deleted: bool = False) -> Any:
        raise RuntimeError("disk on fire at /var/lib/secret/path")


async def test_a_bug_is_a_json_500_without_the_traceback(api: Api, tmp_path: Path) -> None:
    client = await api(store=BrokenStore(f"sqlite:///{tmp_path / 'broken.sqlite3'}"))
    response = await client.get("/api/chat/c/request/r/references")
    assert response.status_code == 500
    assert response.json() == {"detail": "internal server error"}
    assert "disk on fire" not in response.text and "Traceback" not in response.text
