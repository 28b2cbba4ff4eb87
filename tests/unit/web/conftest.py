"""Helpers for the web tests: recorded API exchanges replayed through httpx.MockTransport."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest

from unified_search.config import SearchConfig
from unified_search.contract.delegates import Delegates
from unified_search.contract.handler import SearchContext
from unified_search.web.handler import WebHandler

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "web"
KEYS = {
    "TAVILY_API_KEY": "tvly-secret-123",
    "SERPER_API_KEY": "serper-secret-123",
    "SERPAPI_API_KEY": "serpapi-secret-123",
    "BRAVE_API_KEY": "brave-secret-123",
    "EXA_API_KEY": "exa-secret-123",
}
SEARXNG_URL = "http://searx.test:8888"
#: The host each provider is reached at in these tests.
HOSTS = {
    "tavily": "api.tavily.com",
    "serper": "google.serper.dev",
    "serpapi": "serpapi.com",
    "brave": "api.search.brave.com",
    "exa": "api.exa.ai",
    "searxng": "searx.test",
}

T = TypeVar("T")
Reply = httpx.Response | Callable[[httpx.Request], httpx.Response] | Exception


def exchange(name: str) -> dict[str, Any]:
    """Load one recorded exchange (request, status, response, headers)."""
    return json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))


def replay(name: str) -> httpx.Response:
    """Build the response of a recorded exchange."""
    data = exchange(name)
    headers = dict(data.get("response_headers", {}))
    body = data["response"]
    if isinstance(body, str):
        headers.setdefault("Content-Type", "text/plain")
        return httpx.Response(data["status"], text=body, headers=headers)
    return httpx.Response(data["status"], json=body, headers=headers)


class FakeAPI:
    """A MockTransport handler that answers from a queue per host and records every request."""

    def __init__(self) -> None:
        self.queues: dict[str, list[Reply]] = {}
        self.requests: list[httpx.Request] = []

    def on(self, host: str, *replies: Reply) -> FakeAPI:
        self.queues.setdefault(host, []).extend(replies)
        return self

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        queue = self.queues.get(request.url.host)
        if not queue:
            raise AssertionError(f"unexpected request to {request.url.host}")
        reply = queue.pop(0) if len(queue) > 1 else queue[0]
        if isinstance(reply, Exception):
            raise reply
        return reply(request) if callable(reply) else reply

    def hosts(self) -> list[str]:
        return [r.url.host for r in self.requests]

    @property
    def transport(self) -> httpx.MockTransport:
        return httpx.MockTransport(self)


class Sleeps:
    """An injected sleep that records the waits and moves its own clock instead of sleeping."""

    def __init__(self) -> None:
        self.waits: list[float] = []
        self.now = 1000.0

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)
        self.now += seconds

    def clock(self) -> float:
        return self.now


class HeldSleep(Sleeps):
    """An injected sleep that holds each wait until ``release`` is set, then moves its clock.

    A search that returns while the sleep is still held did not wait for it;
    ``cancelled`` counts the waits cut short.
    """

    def __init__(self) -> None:
        super().__init__()
        self.cancelled = 0
        self.release = asyncio.Event()

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)
        try:
            await self.release.wait()
        except asyncio.CancelledError:
            self.cancelled += 1
            raise
        self.now += seconds


class LoopClock:
    """The running event loop's clock, made virtual: it moves only while ``run`` drives it.

    Timers (``asyncio.sleep``, aiolimiter's waits, timeouts) then fire in an order
    set by the code under test, never by how fast the machine is. Everything the
    test awaits with timers in it must go through ``run``: nothing else moves the clock.
    """

    STEP = 0.01

    def __init__(self, start: float) -> None:
        self.now = start

    def time(self) -> float:
        return self.now

    async def run(self, awaitable: Awaitable[T], limit: float = 60.0) -> T:
        """Await ``awaitable``, moving the clock ``STEP`` seconds each turn of the loop."""
        task = asyncio.ensure_future(awaitable)
        end = self.now + limit
        while not task.done():
            if self.now >= end:
                task.cancel()
                raise AssertionError(f"never returned within {limit:g} s on the loop's clock")
            self.now += self.STEP
            await asyncio.sleep(0)
        return task.result()


def web_config(providers: Iterable[str] = (), **web: Any) -> SearchConfig:
    section: dict[str, Any] = {"providers": list(providers), "searxng": {"base_url": SEARXNG_URL}}
    section.update(web)
    return SearchConfig.load(profile={"web": section})


def context(config: SearchConfig, delegates: Delegates | None = None) -> SearchContext:
    return SearchContext(config=config, request_id="test", delegates=delegates or Delegates())


@pytest.fixture
def api() -> FakeAPI:
    return FakeAPI()


@pytest.fixture
def sleeps() -> Sleeps:
    return Sleeps()


@pytest.fixture
def keys(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    for name, value in KEYS.items():
        monkeypatch.setenv(name, value)
    return KEYS


@pytest.fixture
async def loop_clock(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[LoopClock]:
    """The test's event loop on a virtual clock (see ``LoopClock``)."""
    loop = asyncio.get_running_loop()
    clock = LoopClock(loop.time())
    monkeypatch.setattr(loop, "time", clock.time)
    yield clock


@pytest.fixture
def make_handler(api: FakeAPI, sleeps: Sleeps) -> Callable[..., WebHandler]:
    def build(config: SearchConfig, **kwargs: Any) -> WebHandler:
        kwargs.setdefault("cache", None)
        return WebHandler(
            config, transport=api.transport, sleep=sleeps, clock=sleeps.clock, **kwargs
        )

    return build


@pytest.fixture
def kit() -> Any:
    """The helper functions above, for tests (conftest modules cannot be imported by name)."""
    from types import SimpleNamespace

    return SimpleNamespace(
        exchange=exchange,
        replay=replay,
        web_config=web_config,
        context=context,
        FakeAPI=FakeAPI,
        Sleeps=Sleeps,
        HeldSleep=HeldSleep,
        SEARXNG_URL=SEARXNG_URL,
        HOSTS=HOSTS,
    )
