"""How long a rate-limited API is left alone: every form servers use to say it, for every request.

A server's wait holds for the API, not for one request: a later or concurrent
search never calls sooner than asked, whichever search got the 429.
"""

from __future__ import annotations

import asyncio
import threading
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from typing import Any

import httpx
import pytest

from unified_search.errors import ErrorCode, SearchError
from unified_search.http import HttpClient, RetryPolicy, excerpt, retry_after
from unified_search.types import SearchRequest
from unified_search.web.handler import WebHandler

NOW = datetime(2026, 7, 10, 12, tzinfo=UTC)
TAVILY, BRAVE, EXA = "api.tavily.com", "api.search.brave.com", "api.exa.ai"


def http_date(seconds: float) -> str:
    return format_datetime(NOW + timedelta(seconds=seconds), usegmt=True)


@pytest.mark.parametrize(
    ("headers", "wait"),
    [
        ({"Retry-After": "12"}, 12.0),
        ({"Retry-After": " 2.5 "}, 2.5),
        ({"Retry-After": "0"}, 0.0),
        ({"Retry-After": "-5"}, 0.0),
        ({"Retry-After": http_date(40)}, 40.0),
        ({"Retry-After": http_date(-30)}, 0.0),  # a date already past: no wait
        ({"Retry-After": "Fri, 10 Jul 2026 12:00:07 +0000"}, 7.0),
        ({"Retry-After-Ms": "1500"}, 1.5),  # OpenAI-compatible servers
        ({"Retry-After": "3", "Retry-After-Ms": "1500"}, 3.0),
        # Brave: one value per window (per second, per month); the exhausted one counts.
        ({"X-RateLimit-Remaining": "0, 1873", "X-RateLimit-Reset": "1, 1419704"}, 1.0),
        ({"X-RateLimit-Remaining": "1, 0", "X-RateLimit-Reset": "1, 1419704"}, 1419704.0),
        ({"X-RateLimit-Remaining": "0", "X-RateLimit-Reset": str(int(NOW.timestamp()) + 9)}, 9.0),
        # Nothing usable: the jittered backoff decides.
        ({}, None),
        ({"Retry-After": "soon"}, None),
        ({"Retry-After": "inf"}, None),
        ({"Retry-After": "nan"}, None),
        ({"Retry-After": "Fri, 99 Foo 2026"}, None),
        ({"X-RateLimit-Remaining": "3, 1873", "X-RateLimit-Reset": "1, 1419704"}, None),
        ({"X-RateLimit-Reset": "7"}, None),  # a reset alone says nothing is exhausted
    ],
)
def test_every_form_of_the_wait_is_read(headers: dict[str, str], wait: float | None) -> None:
    assert retry_after(httpx.Headers(headers), NOW) == wait


def limited(asked: str) -> httpx.Response:
    return httpx.Response(
        429, json={"detail": {"error": "slow down"}}, headers={"Retry-After": asked}
    )


def in_seconds(seconds: float) -> str:
    """An HTTP date ``seconds`` from now, to the second (as servers send it)."""
    return format_datetime(datetime.now(UTC) + timedelta(seconds=seconds + 1), usegmt=True)


@pytest.mark.usefixtures("keys")
@pytest.mark.parametrize("form", ["seconds", "date"])
@pytest.mark.parametrize(
    ("asked", "web", "retried"),
    [
        (4, {}, True),  # below max_retry_wait (10 s): waited exactly, then retried
        (9, {}, True),
        (12, {}, False),  # above it: never retried sooner, so not retried at all
        (20, {"max_retry_wait": 60}, True),  # a longer allowed wait
        (5, {"deadline": 3.0}, False),  # allowed, but past the search's deadline
        (2, {"deadline": 3.0}, True),
    ],
)
async def test_the_wait_asked_is_honoured_or_the_search_fails_at_once(
    form: str,
    asked: int,
    web: dict[str, Any],
    retried: bool,
    kit: Any,
    api: Any,
    make_handler: Any,
    sleeps: Any,
) -> None:
    value = str(asked) if form == "seconds" else in_seconds(asked)
    api.on(TAVILY, limited(value), kit.replay("tavily_search_success"))
    config = kit.web_config(["tavily"], **web)
    handler = make_handler(config)
    try:
        if retried:
            result = await handler.asearch(SearchRequest(query="q"), kit.context(config))
            assert len(result.items) == 4 and len(api.requests) == 2
            (waited,) = sleeps.waits
            assert waited == pytest.approx(asked, abs=1.01) and waited >= asked - 0.001
        else:
            with pytest.raises(SearchError) as caught:
                await handler.asearch(SearchRequest(query="q"), kit.context(config))
            assert caught.value.code is ErrorCode.RATE_LIMITED
            assert caught.value.retry_after == pytest.approx(asked, abs=1.01)
            assert len(api.requests) == 1 and sleeps.waits == []
    finally:
        await handler.aclose()


@pytest.mark.usefixtures("keys")
async def test_brave_per_second_window_is_waited_out(
    kit: Any, api: Any, make_handler: Any, sleeps: Any
) -> None:
    """Brave's 429 carries no Retry-After, only its windows; the exhausted one is waited out."""
    api.on(BRAVE, kit.replay("brave_rate_limited"), kit.replay("brave_search_success"))
    config = kit.web_config(["brave"])
    handler = make_handler(config)
    result = await handler.asearch(SearchRequest(query="q"), kit.context(config))
    await handler.aclose()
    assert result.items and sleeps.waits == [1.0]


@pytest.mark.usefixtures("keys")
async def test_a_later_search_never_calls_before_the_wait_is_over(
    kit: Any, api: Any, make_handler: Any, sleeps: Any
) -> None:
    """The first search cannot wait 5 s within its 2 s; neither can the next, 2 s later."""
    api.on(TAVILY, limited("5"), kit.replay("tavily_search_success"))
    config = kit.web_config(["tavily"], deadline=2.0)
    handler = make_handler(config)
    ctx = kit.context(config)
    with pytest.raises(SearchError):
        await handler.asearch(SearchRequest(query="first"), ctx)
    sleeps.now += 2  # another question, 2 s later: 3 s are left, nothing is sent
    with pytest.raises(SearchError) as caught:
        await handler.asearch(SearchRequest(query="second"), ctx)
    assert caught.value.code is ErrorCode.RATE_LIMITED
    assert caught.value.retry_after == pytest.approx(3.0)
    assert "nothing sent" in caught.value.message and len(api.requests) == 1
    sleeps.now += 1.5  # 1.5 s left: within the deadline, so waited out, then sent
    result = await handler.asearch(SearchRequest(query="third"), ctx)
    await handler.aclose()
    assert result.items and sleeps.waits == [pytest.approx(1.5)] and len(api.requests) == 2


@pytest.mark.usefixtures("keys")
async def test_concurrent_searches_call_a_rate_limited_provider_once(kit: Any, api: Any) -> None:
    """Three different questions at once: Exa's 429 asks 5 s, so it is not called again."""
    api.on(EXA, limited("5"))
    api.on(TAVILY, kit.replay("tavily_search_success"))
    api.on(BRAVE, kit.replay("brave_search_success"))
    config = kit.web_config(["tavily", "brave", "exa"])
    handler = WebHandler(config, transport=api.transport, cache=None)  # real time
    ctx = kit.context(config)
    results = await asyncio.gather(
        *(handler.asearch(SearchRequest(query=f"question {n}"), ctx) for n in range(3))
    )
    await handler.aclose()
    assert api.hosts().count(EXA) == 1
    for result in results:
        assert len(result.items) == 8
        (failure,) = result.failures
        assert failure.provider == "exa" and failure.code is ErrorCode.RATE_LIMITED
        assert 0 < (failure.retry_after or 0) <= 5


async def waits_of_one_client() -> list[float]:
    """The waits of one request answered 429, then 503, then 200 (no wait asked)."""
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    replies = iter([httpx.Response(429), httpx.Response(503), httpx.Response(200)])
    http = HttpClient(
        transport=httpx.MockTransport(lambda r: next(replies)),
        sleep=sleep,
        policy=RetryPolicy(retries=2, backoff=0.5),
    )
    await http.send(httpx.Request("GET", "https://x.io"), provider="x")
    await http.aclose()
    return waits


async def test_without_a_wait_asked_backoff_is_exponential_with_full_jitter() -> None:
    """Waits are drawn from [0, 0.5 · 2^k]: bounded, and not the same for every client."""
    clients = [await waits_of_one_client() for _ in range(40)]
    firsts, seconds = [w[0] for w in clients], [w[1] for w in clients]
    assert all(0 <= w <= 0.5 for w in firsts) and all(0 <= w <= 1.0 for w in seconds)
    assert len(set(firsts)) > 30 and max(seconds) > 0.5


@pytest.mark.usefixtures("keys")
async def test_requests_per_second_holds_one_provider_and_not_the_others(
    kit: Any, api: Any, loop_clock: Any
) -> None:
    """Tavily at one a second, Brave unlimited: times on the limiter's (the loop's) clock."""
    sent: list[tuple[str, float]] = []

    def stamp(host: str, fixture: str) -> Any:
        def reply(request: httpx.Request) -> httpx.Response:
            sent.append((host, loop_clock.time()))
            return kit.replay(fixture)

        return reply

    api.on(TAVILY, stamp(TAVILY, "tavily_search_success"))
    api.on(BRAVE, stamp(BRAVE, "brave_search_success"))
    config = kit.web_config(["tavily", "brave"], tavily={"requests_per_second": 1})
    handler = WebHandler(config, transport=api.transport, cache=None)
    ctx = kit.context(config)
    searches = (handler.asearch(SearchRequest(query=f"q{n}"), ctx) for n in range(3))
    await loop_clock.run(asyncio.gather(*searches))
    await loop_clock.run(handler.aclose())
    hosts = [host for host, _ in sent]
    assert hosts.count(TAVILY) == 3 and hosts.count(BRAVE) == 3
    # Brave has no limit: all three are sent before Tavily's second, a second on.
    assert hosts.index(TAVILY, hosts.index(TAVILY) + 1) > max(
        n for n, host in enumerate(hosts) if host == BRAVE
    )
    tavily = [at for host, at in sent if host == TAVILY]
    assert tavily[1] - tavily[0] >= 1.0 and tavily[2] - tavily[1] >= 1.0


def test_excerpts_of_hostile_error_pages_end_with_what_is_visible(hang_guard: Any) -> None:
    """Unclosed scripts, styles and tags by the hundred thousand (their speed: benchmarks/web.py)."""
    pages = ["<script>" * 40_000, "<style" * 60_000, "<a" * 80_000, "<" * 200_000]
    texts: list[str] = []
    worker = threading.Thread(
        target=lambda: texts.extend(excerpt(page + "</body>") for page in pages), daemon=True
    )
    worker.start()
    worker.join(hang_guard.seconds)
    assert not worker.is_alive(), hang_guard.message("excerpt of a hostile page")
    assert texts[0] == texts[1] == "" and len(texts[3]) <= 200


def test_excerpts_keep_comparisons_that_are_not_tags() -> None:
    assert excerpt("<p>limit must be a < b and c > d</p>") == "limit must be a < b and c > d"
