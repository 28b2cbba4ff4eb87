"""Cohere and Jina rerank over httpx, with the providers' real response shapes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from unified_search.config import SearchConfig
from unified_search.engine.searcher import Searcher
from unified_search.errors import ErrorCode, SearchError
from unified_search.http import HttpClient
from unified_search.rerank.remote import Provider, RemoteReranker, reorder
from unified_search.types import ResultItem, SearchRequest, SearchResult

FIXTURES = Path(__file__).parents[2] / "fixtures" / "rerank"


def fixture(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((FIXTURES / f"{name}.json").read_text())
    return loaded


def items_of(case: dict[str, Any]) -> list[ResultItem]:
    docs = case["request"]["params_or_json"]["documents"]
    return [ResultItem(type="kb", document_id=str(n), content=text) for n, text in enumerate(docs)]


def replay(case: dict[str, Any], seen: list[httpx.Request]) -> httpx.MockTransport:
    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(
            case["status"], json=case["response"], headers=case.get("response_headers")
        )

    return httpx.MockTransport(handler)


def reranker(provider: Provider, case: dict[str, Any], seen: list[httpx.Request]) -> RemoteReranker:
    config = SearchConfig()
    section = config.rerank.cohere if provider == "cohere" else config.rerank.jina
    return RemoteReranker(provider, section, http=no_wait_client(replay(case, seen)))


def no_wait_client(transport: httpx.AsyncBaseTransport) -> HttpClient:
    """The shared HTTP layer whose retries wait on a clock of their own instead of the wall's."""
    now = [0.0]

    async def no_wait(seconds: float) -> None:
        now[0] += seconds

    return HttpClient(transport=transport, sleep=no_wait, clock=lambda: now[0])


@pytest.mark.parametrize(
    ("provider", "name", "order"),
    [
        ("cohere", "cohere_rerank_success", ["2", "3", "0", "1", "4"]),
        ("jina", "jina_rerank_success", ["0", "3", "1", "2", "4"]),
    ],
)
async def test_success_orders_items_and_keeps_the_unranked(
    provider: Provider, name: str, order: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fixtures rank 3 of 5 documents; the other two follow in their old order."""
    monkeypatch.setenv(f"{provider.upper()}_API_KEY", "secret-key")
    case = fixture(name)
    seen: list[httpx.Request] = []
    ranked = await reranker(provider, case, seen).arerank(
        case["request"]["params_or_json"]["query"], items_of(case)
    )
    assert [i.document_id for i in ranked] == order
    assert ranked[0].metadata["rerank_score"] == case["response"]["results"][0]["relevance_score"]
    request = seen[0]
    assert str(request.url) == case["request"]["url"]
    assert request.headers["Authorization"] == "Bearer secret-key"
    body = json.loads(request.content)
    assert body["model"] == case["request"]["params_or_json"]["model"]
    assert body["documents"] == case["request"]["params_or_json"]["documents"]
    assert body["top_n"] == 5


@pytest.mark.parametrize(
    ("provider", "name", "code"),
    [
        ("cohere", "cohere_rerank_invalid_key", ErrorCode.INVALID_API_KEY),
        ("cohere", "cohere_rerank_rate_limited", ErrorCode.RATE_LIMITED),
        ("jina", "jina_rerank_invalid_key", ErrorCode.INVALID_API_KEY),
        ("jina", "jina_rerank_rate_limited", ErrorCode.RATE_LIMITED),
    ],
)
async def test_errors_map_to_codes_with_the_provider_message(
    provider: Provider, name: str, code: ErrorCode, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(f"{provider.upper()}_API_KEY", "secret-key")
    case = fixture(name)
    with pytest.raises(SearchError) as info:
        await reranker(provider, case, []).arerank("q", items_of(case))
    assert info.value.code is code
    assert info.value.provider == provider
    message = case["response"].get("message") or case["response"].get("detail")
    assert message[:150] in info.value.message  # excerpts stop at 200 characters
    assert "secret-key" not in str(info.value)


async def test_missing_key_is_no_api_key_without_a_request() -> None:
    seen: list[httpx.Request] = []
    case = fixture("cohere_rerank_success")
    with pytest.raises(SearchError) as info:
        await reranker("cohere", case, seen).arerank("q", items_of(case))
    assert info.value.code is ErrorCode.NO_API_KEY
    assert "COHERE_API_KEY" in info.value.message
    assert seen == []


@pytest.mark.parametrize(
    ("status", "body", "code"),
    [
        (500, {"message": "boom"}, ErrorCode.PROVIDER_ERROR),
        (402, {"detail": "pay"}, ErrorCode.QUOTA_EXCEEDED),
        (200, {"oops": 1}, ErrorCode.PROVIDER_ERROR),
    ],
)
async def test_other_failures(
    status: int, body: dict[str, Any], code: ErrorCode, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("JINA_API_KEY", "k")
    transport = httpx.MockTransport(lambda request: httpx.Response(status, json=body))
    remote = RemoteReranker("jina", SearchConfig().rerank.jina, http=no_wait_client(transport))
    with pytest.raises(SearchError) as info:
        await remote.arerank("q", [ResultItem(type="kb", content="a")])
    assert info.value.code is code


async def test_network_failure_and_retry_after(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COHERE_API_KEY", "k")

    def down(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("refused", request=request)

    remote = RemoteReranker(
        "cohere", SearchConfig().rerank.cohere, transport=httpx.MockTransport(down)
    )
    with pytest.raises(SearchError) as info:
        await remote.arerank("q", [ResultItem(type="kb", content="a")])
    assert info.value.code is ErrorCode.NETWORK_ERROR
    limited = httpx.MockTransport(
        lambda r: httpx.Response(429, json={"message": "slow"}, headers={"Retry-After": "7"})
    )
    http = no_wait_client(limited)
    remote = RemoteReranker("cohere", SearchConfig().rerank.cohere, http=http)
    with pytest.raises(SearchError) as info:
        await remote.arerank("q", [ResultItem(type="kb", content="a")])
    assert info.value.retry_after == 7.0 and info.value.retryable
    await http.aclose()


async def test_a_shared_client_serves_the_reranker_with_the_api_timeout(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The Searcher's pooled client is used as is; the rerank section's timeout rides each request."""
    monkeypatch.setenv("COHERE_API_KEY", "secret-key")
    case = fixture("cohere_rerank_success")
    seen: list[httpx.Request] = []
    http = no_wait_client(replay(case, seen))
    config = SearchConfig.load(profile={"rerank": {"cohere": {"timeout": 12.5}}})
    remote = RemoteReranker.from_config("cohere", config, http=http)
    ranked = await remote.arerank("q", items_of(case))
    await http.aclose()
    assert len(ranked) == 5 and seen[0].extensions["timeout"]["read"] == 12.5


def test_reorder_skips_bad_and_repeated_indices() -> None:
    items = [ResultItem(type="kb", document_id=str(n)) for n in range(3)]
    ranked = reorder(items, [(2, 0.9), (7, 0.8), (-1, 0.7), (2, 0.5), (0, 0.4)], None)
    assert [i.document_id for i in ranked] == ["2", "0", "1"]


def test_key_env_is_configurable_and_never_shown() -> None:
    config = SearchConfig.load(profile={"rerank": {"cohere": {"api_key_env": "MY_RERANK_KEY"}}})
    assert repr(config.rerank.cohere.api_key_env) == "Secret(env='MY_RERANK_KEY')"
    assert config.model_dump(mode="json")["rerank"]["cohere"]["api_key_env"] == "MY_RERANK_KEY"


class Words:
    """A knowledge base that finds one item per word of the query."""

    async def asearch(self, request: SearchRequest, ctx: Any) -> SearchResult:
        items = [
            ResultItem(type="kb", collection="c", document_id=w, title=w, content=w)
            for w in request.query.split()
        ]
        return SearchResult(type="kb", query=request.query, items=items)


async def test_a_searcher_pools_one_client_for_every_rerank_call_and_its_waits(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Cohere asks for 30 s: later searches of the same searcher do not call it before then."""
    monkeypatch.setenv("COHERE_API_KEY", "k")
    paths: list[str] = []

    def limited(request: httpx.Request) -> httpx.Response:
        paths.append(request.url.path)
        return httpx.Response(429, json={"message": "slow"}, headers={"Retry-After": "30"})

    http = HttpClient(transport=httpx.MockTransport(limited))
    searcher = Searcher({"uses": {"rerank": "cohere"}}, handlers={"kb": Words()}, http=http)
    inner = searcher.reranker()
    assert getattr(inner, "inner", inner).http is searcher.http is http
    for n in range(3):
        response = await searcher.asearch({"query": f"alpha beta {n}", "type": "kb"})
        assert len(response.references) == 3  # the weighted order, as the fallback
    await searcher.aclose()
    assert paths == ["/v2/rerank"]
    assert http.client().is_closed is False  # a given client stays open for its owner
    await http.aclose()


async def test_a_searcher_closes_the_client_it_made() -> None:
    searcher = Searcher(handlers={"kb": Words()})
    client = searcher.http.client()
    await searcher.aclose()
    assert client.is_closed
