"""Rate limits honoured: never retried before Retry-After, never waited past the deadline, never holding others."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from unified_search.errors import ErrorCode, SearchError
from unified_search.types import SearchRequest
from unified_search.web.handler import WebHandler

TAVILY, BRAVE, EXA = "api.tavily.com", "api.search.brave.com", "api.exa.ai"


def limited(seconds: str) -> httpx.Response:
    return httpx.Response(
        429, json={"detail": {"error": "slow down"}}, headers={"Retry-After": seconds}
    )


@pytest.mark.usefixtures("keys")
@pytest.mark.parametrize(
    ("asked", "web"),
    [
        ("12", {}),  # beyond max_retry_wait (10 s): never retried before the server allows it
        ("5", {"deadline": 2.0}),  # within max_retry_wait, but past the search's deadline
    ],
)
async def test_a_wait_that_is_not_allowed_fails_at_once_with_retry_after(
    asked: str, web: dict[str, Any], kit: Any, api: Any, make_handler: Any, sleeps: Any
) -> None:
    api.on(TAVILY, limited(asked), kit.replay("tavily_search_success"))
    config = kit.web_config(["tavily"], **web)
    handler = make_handler(config)
    with pytest.raises(SearchError) as caught:
        await handler.asearch(SearchRequest(query="q"), kit.context(config))
    await handler.aclose()
    assert caught.value.code is ErrorCode.RATE_LIMITED
    assert caught.value.retry_after == float(asked) == caught.value.info().retry_after
    assert len(api.requests) == 1 and sleeps.waits == []


@pytest.mark.usefixtures("keys")
async def test_a_wait_within_the_deadline_is_exactly_the_one_asked(
    kit: Any, api: Any, make_handler: Any, sleeps: Any
) -> None:
    api.on(TAVILY, limited("4.5"), kit.replay("tavily_search_success"))
    config = kit.web_config(["tavily"])
    handler = make_handler(config)
    result = await handler.asearch(SearchRequest(query="q"), kit.context(config))
    await handler.aclose()
    assert len(result.items) == 4 and sleeps.waits == [4.5]


@pytest.mark.usefixtures("keys")
async def test_a_provider_in_backoff_never_holds_the_others(
    kit: Any, api: Any, hang_guard: Any
) -> None:
    """Exa keeps asking for 5 s; the two healthy answers return at once and Exa is reported."""
    api.on(EXA, limited("5"))
    api.on(TAVILY, kit.replay("tavily_search_success"))
    api.on(BRAVE, kit.replay("brave_search_success"))
    config = kit.web_config(["tavily", "brave", "exa"])
    backoff = kit.HeldSleep()  # never released: a search waiting for it would never return
    handler = WebHandler(
        config, transport=api.transport, cache=None, sleep=backoff, clock=backoff.clock
    )
    result = await hang_guard(
        handler.asearch(SearchRequest(query="q"), kit.context(config)), "the search"
    )
    await handler.aclose()
    assert backoff.waits == [5] and backoff.cancelled == 1  # Exa's wait began and was cut short
    assert {i.metadata["provider"] for i in result.items} == {"tavily", "brave"}
    (failure,) = result.failures
    assert failure.provider == "exa" and failure.code is ErrorCode.RATE_LIMITED
    assert failure.retry_after == 5 and "other providers had answered" in failure.message


@pytest.mark.usefixtures("keys")
async def test_at_the_deadline_the_results_in_hand_return(
    kit: Any, api: Any, sleeps: Any, hang_guard: Any
) -> None:
    """Exa never answers; once the clock reaches the deadline, Tavily's results return."""
    exa_asked, exa_cancelled = asyncio.Event(), asyncio.Event()

    async def stuck(request: httpx.Request) -> httpx.Response:
        exa_asked.set()
        try:
            await asyncio.Event().wait()
        finally:
            exa_cancelled.set()
        raise AssertionError("a hung provider never answers")

    async def answered_at_the_deadline(request: httpx.Request) -> httpx.Response:
        await exa_asked.wait()
        sleeps.now += 10  # the web deadline passes while Exa still works
        return kit.replay("tavily_search_success")

    api.on(EXA, stuck)
    api.on(TAVILY, answered_at_the_deadline)

    async def serve(request: httpx.Request) -> httpx.Response:
        reply = api(request)
        return await reply if asyncio.iscoroutine(reply) else reply

    config = kit.web_config(["tavily", "exa"], deadline=10.0)
    handler = WebHandler(
        config, transport=httpx.MockTransport(serve), cache=None, clock=sleeps.clock
    )
    result = await hang_guard(
        handler.asearch(SearchRequest(query="q"), kit.context(config)), "the search"
    )
    await handler.aclose()
    assert exa_cancelled.is_set()  # the hung call was cancelled, not left running
    assert len(result.items) == 4
    (failure,) = result.failures
    assert failure.provider == "exa" and failure.code is ErrorCode.TIMEOUT


@pytest.mark.usefixtures("keys")
async def test_the_web_deadline_stays_under_the_search_timeout(kit: Any) -> None:
    from unified_search.web.handler import web_deadline

    assert web_deadline(kit.web_config([])) == pytest.approx(29.0)
    assert web_deadline(kit.web_config([], deadline=5)) == 5
    short = kit.web_config([], deadline=50).merged({"options": {"timeout": 2.0}})
    assert web_deadline(short) == pytest.approx(1.8)


@pytest.mark.usefixtures("keys")
async def test_requests_per_second_spaces_the_calls_to_one_provider(
    kit: Any, api: Any, loop_clock: Any
) -> None:
    """Two a second: a burst of two, the third half a second on the limiter's clock."""
    sent: list[float] = []

    def stamp(request: httpx.Request) -> httpx.Response:
        sent.append(loop_clock.time())
        return kit.replay("tavily_search_success")

    api.on(TAVILY, stamp)
    config = kit.web_config(["tavily"], tavily={"requests_per_second": 2})
    handler = WebHandler(config, transport=api.transport, cache=None)
    ctx = kit.context(config)
    searches = (handler.asearch(SearchRequest(query=f"q{n}"), ctx) for n in range(3))
    await loop_clock.run(asyncio.gather(*searches))
    await loop_clock.run(handler.aclose())
    first, second, third = sent
    assert second - first < 0.5 <= third - first
