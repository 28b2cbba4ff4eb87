"""HTTP failures of each provider, mapped to SearchError codes; retries honour Retry-After."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from unified_search.errors import ErrorCode, SearchError
from unified_search.http import (
    HttpClient,
    RetryPolicy,
    error_from_response,
    retry_after,
    with_retries,
)
from unified_search.types import SearchRequest
from unified_search.web.registry import PROVIDERS


async def failing(kit: Any, provider: str, *replies: Any) -> tuple[SearchError, Any]:
    api = kit.FakeAPI()
    api.on(kit.HOSTS[provider], *replies)
    config = kit.web_config([provider])
    from unified_search.web.handler import WebHandler

    handler = WebHandler(config, transport=api.transport, sleep=_no_sleep, cache=None)
    try:
        with pytest.raises(SearchError) as caught:
            await handler.asearch(SearchRequest(query="q"), kit.context(config))
    finally:
        await handler.aclose()
    return caught.value, api


async def _no_sleep(seconds: float) -> None:
    return None


@pytest.mark.usefixtures("keys")
@pytest.mark.parametrize(
    ("provider", "fixture", "code"),
    [
        ("tavily", "tavily_invalid_key", ErrorCode.INVALID_API_KEY),
        ("serper", "serper_invalid_key", ErrorCode.INVALID_API_KEY),
        ("serpapi", "serpapi_invalid_key", ErrorCode.INVALID_API_KEY),
        ("brave", "brave_invalid_key", ErrorCode.INVALID_API_KEY),
        ("exa", "exa_invalid_key", ErrorCode.INVALID_API_KEY),
        ("serpapi", "serpapi_rate_limited", ErrorCode.QUOTA_EXCEEDED),
        ("searxng", "searxng_format_disabled", ErrorCode.PROVIDER_ERROR),
    ],
)
async def test_recorded_failures_map_to_codes_without_retrying(
    provider: str, fixture: str, code: ErrorCode, kit: Any
) -> None:
    error, api = await failing(kit, provider, kit.replay(fixture))
    assert error.code is code and error.provider == provider
    assert not error.retryable
    assert len(api.requests) == 1
    message = kit.exchange(fixture)["response"]
    if isinstance(message, dict):
        assert str(error.message).startswith(f"HTTP {kit.exchange(fixture)['status']}: ")


@pytest.mark.usefixtures("keys")
@pytest.mark.parametrize(
    ("provider", "status", "body", "code"),
    [
        (
            "tavily",
            432,
            {"detail": {"error": "This request exceeds your plan's set usage limit."}},
            ErrorCode.QUOTA_EXCEEDED,
        ),
        (
            "tavily",
            433,
            {"detail": {"error": "This request exceeds the pay-as-you-go limit."}},
            ErrorCode.QUOTA_EXCEEDED,
        ),
        (
            "serper",
            400,
            {"message": "Not enough credits", "statusCode": 400},
            ErrorCode.QUOTA_EXCEEDED,
        ),
        (
            "serper",
            400,
            {"message": "Query is required", "statusCode": 400},
            ErrorCode.INVALID_QUERY,
        ),
        (
            "exa",
            402,
            {"requestId": "r", "error": "You have run out of credits", "tag": "NO_MORE_CREDITS"},
            ErrorCode.QUOTA_EXCEEDED,
        ),
        (
            "brave",
            429,
            {
                "type": "ErrorResponse",
                "error": {
                    "status": 429,
                    "code": "QUOTA_LIMITED",
                    "detail": "Request quota limit exceeded for plan.",
                },
            },
            ErrorCode.QUOTA_EXCEEDED,
        ),
        (
            "brave",
            422,
            {
                "type": "ErrorResponse",
                "error": {
                    "status": 422,
                    "code": "VALIDATION",
                    "detail": "Unable to validate request parameter(s)",
                },
            },
            ErrorCode.INVALID_QUERY,
        ),
        (
            "brave",
            422,
            {
                "type": "ErrorResponse",
                "errors": [
                    {
                        "code": "SUBSCRIPTION_TOKEN_INVALID",
                        "detail": "The provided subscription token is invalid.",
                    }
                ],
            },
            ErrorCode.INVALID_API_KEY,
        ),
        ("searxng", 400, {"error": "No query"}, ErrorCode.INVALID_QUERY),
    ],
)
async def test_provider_specific_statuses(
    provider: str, status: int, body: dict[str, Any], code: ErrorCode, kit: Any
) -> None:
    error, api = await failing(kit, provider, httpx.Response(status, json=body))
    assert error.code is code
    assert len(api.requests) == 1


@pytest.mark.usefixtures("keys")
@pytest.mark.parametrize("provider", sorted(PROVIDERS))
async def test_429_with_retry_after_is_retried_after_the_asked_wait(
    provider: str, make_handler: Any, kit: Any, api: Any, sleeps: Any
) -> None:
    limited = httpx.Response(429, text="Too Many Requests", headers={"Retry-After": "3"})
    ok = kit.replay(
        {"serpapi": "serpapi_google_success"}.get(provider, f"{provider}_search_success")
    )
    api.on(kit.HOSTS[provider], limited, ok)
    config = kit.web_config([provider])
    handler = make_handler(config)
    result = await handler.asearch(SearchRequest(query="q"), kit.context(config))
    await handler.aclose()
    assert len(result.items) >= 4
    assert sleeps.waits == [3.0]
    assert len(api.requests) == 2


@pytest.mark.usefixtures("keys")
@pytest.mark.parametrize(
    ("fixture", "provider"),
    [
        ("tavily_rate_limited", "tavily"),
        ("brave_rate_limited", "brave"),
        ("exa_rate_limited", "exa"),
        ("serper_rate_limited", "serper"),
        ("searxng_rate_limited", "searxng"),
    ],
)
async def test_persistent_rate_limit_gives_up_with_rate_limited(
    fixture: str, provider: str, kit: Any
) -> None:
    error, api = await failing(kit, provider, kit.replay(fixture))
    assert error.code is ErrorCode.RATE_LIMITED and error.retryable
    assert len(api.requests) == 3  # 1 + web.retries (2)


@pytest.mark.usefixtures("keys")
async def test_5xx_then_success_backs_off_exponentially(
    make_handler: Any, kit: Any, api: Any, sleeps: Any
) -> None:
    api.on(
        kit.HOSTS["exa"],
        httpx.Response(500, json={"error": "boom"}),
        httpx.Response(503, text="unavailable"),
        kit.replay("exa_search_success"),
    )
    config = kit.web_config(["exa"])
    handler = make_handler(config)
    result = await handler.asearch(SearchRequest(query="q"), kit.context(config))
    assert len(result.items) == 4 and len(sleeps.waits) == 2
    # Full jitter: each wait is drawn below an exponentially growing bound.
    assert 0 <= sleeps.waits[0] <= 0.5 and 0 <= sleeps.waits[1] <= 1.0


@pytest.mark.usefixtures("keys")
async def test_html_error_page_is_a_provider_error_with_a_short_excerpt(kit: Any) -> None:
    page = (
        "<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1>"
        + "x" * 500
        + "</body></html>"
    )
    error, _ = await failing(kit, "tavily", httpx.Response(502, html=page))
    assert error.code is ErrorCode.PROVIDER_ERROR
    assert "502 Bad Gateway" in error.message and "<h1>" not in error.message
    assert len(error.message) < 260


@pytest.mark.usefixtures("keys")
async def test_timeout_and_network_errors(kit: Any) -> None:
    timeout, api = await failing(kit, "brave", httpx.ReadTimeout("slow"))
    assert timeout.code is ErrorCode.TIMEOUT and len(api.requests) == 3
    network, _ = await failing(
        kit, "brave", httpx.ConnectError("[Errno -2] Name or service not known")
    )
    assert network.code is ErrorCode.NETWORK_ERROR


@pytest.mark.usefixtures("keys")
async def test_keys_never_appear_in_errors(kit: Any, keys: dict[str, str]) -> None:
    echo = httpx.Response(401, json={"error": f"Invalid API key {keys['SERPAPI_API_KEY']}"})
    error, api = await failing(kit, "serpapi", echo)
    assert keys["SERPAPI_API_KEY"] not in str(error) and "***" in error.message
    assert api.requests[0].url.params["api_key"] == keys["SERPAPI_API_KEY"]


def test_retry_after_reads_seconds_and_http_dates() -> None:
    assert retry_after(httpx.Headers({"Retry-After": "7"})) == 7.0
    assert retry_after(httpx.Headers({"Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"})) == 0.0
    assert retry_after(httpx.Headers({"Retry-After": "soon"})) is None
    assert retry_after(httpx.Headers({})) is None


def test_unknown_4xx_is_not_retryable() -> None:
    error = error_from_response(httpx.Response(404, text="Not Found"), provider="x")
    assert error.code is ErrorCode.PROVIDER_ERROR and not error.retryable


async def test_a_retry_after_beyond_the_longest_wait_fails_at_once() -> None:
    """Never retried sooner than the server said: no retry at all, and the wait on the error."""
    sleeps: list[float] = []

    async def sleep(seconds: float) -> None:
        sleeps.append(seconds)

    calls = 0

    async def attempt() -> str:
        nonlocal calls
        calls += 1
        raise SearchError(ErrorCode.RATE_LIMITED, "wait", retry_after=12)

    with pytest.raises(SearchError) as caught:
        await with_retries(attempt, RetryPolicy(retries=3, max_wait=10), sleep=sleep)
    assert caught.value.code is ErrorCode.RATE_LIMITED and caught.value.retry_after == 12
    assert calls == 1 and sleeps == []


async def test_http_client_keeps_one_client_per_loop_and_closes_them() -> None:
    import asyncio
    import threading

    http = HttpClient(transport=httpx.MockTransport(lambda r: httpx.Response(200, json={})))
    mine = http.client()
    assert http.client() is mine
    other: list[httpx.AsyncClient] = []
    ready = threading.Event()
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()

    async def grab() -> None:
        other.append(http.client())
        ready.set()

    asyncio.run_coroutine_threadsafe(grab(), loop).result(5)
    assert other[0] is not mine
    await http.aclose()
    assert mine.is_closed and other[0].is_closed
    loop.call_soon_threadsafe(loop.stop)
    thread.join(5)
    loop.close()


async def test_each_attempt_ends_at_the_deadline() -> None:
    import asyncio

    from unified_search.http import Deadline

    async def slow(request: httpx.Request) -> httpx.Response:
        await asyncio.sleep(5)
        return httpx.Response(200)

    http = HttpClient(transport=httpx.MockTransport(slow))
    with pytest.raises(SearchError) as caught:
        await http.send(
            httpx.Request("GET", "https://x.io"), provider="x", deadline=Deadline.after(0.2)
        )
    await http.aclose()
    assert caught.value.code is ErrorCode.TIMEOUT and not caught.value.retryable


async def test_a_per_request_timeout_replaces_the_client_one() -> None:
    seen: list[dict[str, float]] = []

    def record(request: httpx.Request) -> httpx.Response:
        seen.append(request.extensions["timeout"])
        return httpx.Response(200)

    http = HttpClient(timeout=10, transport=httpx.MockTransport(record))
    await http.send(httpx.Request("GET", "https://x.io"), provider="x", timeout=30)
    await http.send(httpx.Request("GET", "https://x.io"), provider="x")
    await http.aclose()
    assert seen[0]["read"] == 30 and seen[1]["read"] == 10


async def test_backoff_is_reported_when_it_starts_and_ends() -> None:
    replies = iter([httpx.Response(503, headers={"Retry-After": "1"}), httpx.Response(200)])
    notes: list[str | None] = []

    async def no_wait(seconds: float) -> None:
        notes.append(f"sleep {seconds:g}")

    http = HttpClient(transport=httpx.MockTransport(lambda r: next(replies)), sleep=no_wait)
    await http.send(
        httpx.Request("GET", "https://x.io"),
        provider="x",
        on_backoff=lambda error: notes.append(error.code.value if error else None),
    )
    await http.aclose()
    assert notes == [None, "PROVIDER_ERROR", "sleep 1", None]


@pytest.mark.parametrize(
    ("status", "code"),
    [
        (498, ErrorCode.INVALID_API_KEY),
        (401, ErrorCode.INVALID_API_KEY),
        (503, ErrorCode.PROVIDER_ERROR),
    ],
)
async def test_api_status_tables_feed_the_one_mapping(status: int, code: ErrorCode) -> None:
    from unified_search.rerank.remote import RULES

    error = error_from_response(
        httpx.Response(status, json={"message": "m"}), provider="cohere", rules=RULES["cohere"]
    )
    assert error.code is code and error.provider == "cohere"
