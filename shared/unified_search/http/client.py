"""The pooled HTTP client every remote call goes through.

One ``httpx.AsyncClient`` per event loop (the sync twins run on their own
loop), explicit timeouts, an optional request rate per API (aiolimiter),
retries from ``unified_search.http.retry``, and one redaction step: every
error leaving the client has the known keys removed (``unified_search.auth``),
and so do the log records of httpx and httpcore, which print request URLs.

A server's ``Retry-After`` holds for every request to that API, not only the
one that got it: until it has passed, a request waits (when waiting is
allowed) or fails at once with the server's error, nothing sent. So
concurrent searches, and searches that follow, never call sooner than asked.
"""

from __future__ import annotations

import asyncio
import base64
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypedDict, TypeVar, Unpack

import httpx
from aiolimiter import AsyncLimiter

from unified_search._loops import PerLoop
from unified_search.auth import RedactingFilter, redact, remember
from unified_search.errors import ErrorCode, SearchError
from unified_search.http.errors import Rule, error_from_exception, error_from_response, safe_text
from unified_search.http.retry import (
    Clock,
    Deadline,
    OnBackoff,
    RetryPolicy,
    Sleep,
    with_retries,
)

if TYPE_CHECKING:
    from unified_search.config.search import SearchConfig

T = TypeVar("T")
USER_AGENT = "unified-search/0.1 (+https://pypi.org/project/unified-search/)"
_LOGGERS = ("httpx", "httpcore")
#: Headers describing the encoded body, dropped when the body is rewritten.
_BODY_HEADERS = frozenset({"content-encoding", "content-length", "transfer-encoding"})
_redacting = RedactingFilter()


class SendOptions(TypedDict, total=False):
    """What ``HttpClient.send`` and ``call`` accept besides the request and the API's name."""

    rules: Sequence[Rule]
    """The API's own status table (see ``unified_search.http.errors``)."""
    deadline: Deadline | None
    """No attempt, wait or retry runs past it."""
    timeout: float | None
    """Seconds for each exchange, instead of the client's."""
    requests_per_second: float | None
    """Most requests per second sent to this API (one limiter per API name)."""
    on_backoff: OnBackoff | None
    """Told when a wait before a retry starts and ends."""


@dataclass(frozen=True)
class _Pause:
    """An API that asked for no request before ``until`` (on the client's clock), and why."""

    until: float
    error: SearchError


@dataclass
class _LoopState:
    client: httpx.AsyncClient
    limiters: dict[str, AsyncLimiter] = field(default_factory=dict)


class HttpClient:
    """Send requests to remote APIs: pooled, bounded in time, retried, redacted.

    Build one per Searcher (or per handler) and close it with ``aclose``.

    Example:
        >>> http = HttpClient(transport=httpx.MockTransport(lambda r: httpx.Response(200)))
        >>> async def ping():
        ...     response = await http.send(httpx.Request("GET", "https://x.io"), provider="x")
        ...     await http.aclose()
        ...     return response.status_code
        >>> asyncio.run(ping())
        200
    """

    def __init__(
        self,
        *,
        timeout: float = 10.0,
        policy: RetryPolicy | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        sleep: Sleep = asyncio.sleep,
        clock: Clock = time.monotonic,
    ) -> None:
        self.timeout = httpx.Timeout(timeout)
        self.policy = policy or RetryPolicy()
        self.sleep = sleep
        self.clock = clock
        self._transport = transport
        self._states: PerLoop[_LoopState] = PerLoop(self._new_state, _close_state)
        self._pauses: dict[str, _Pause] = {}
        _protect_logs()

    @classmethod
    def from_config(
        cls,
        config: SearchConfig,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        sleep: Sleep = asyncio.sleep,
        clock: Clock = time.monotonic,
    ) -> HttpClient:
        """Build the client the ``web`` section describes (timeout, retries, backoff, longest wait)."""
        web = config.web
        policy = RetryPolicy(web.retries, web.backoff, web.max_retry_wait)
        return cls(
            timeout=web.timeout, policy=policy, transport=transport, sleep=sleep, clock=clock
        )

    def client(self) -> httpx.AsyncClient:
        """Return the pooled client of the running loop."""
        return self._states.get().client

    def deadline(self, seconds: float) -> Deadline:
        """A deadline ``seconds`` from now, on this client's clock."""
        return Deadline.after(seconds, clock=self.clock)

    async def send(
        self, request: httpx.Request, *, provider: str, **options: Unpack[SendOptions]
    ) -> httpx.Response:
        """Send ``request`` with retries; return a 2xx response or raise a redacted ``SearchError``.

        ``provider`` names the API on errors and shares its rate limiter; ``options``
        are described by ``SendOptions``.
        """
        remember_credentials(request.url)
        timeout = options.get("timeout")
        if timeout is not None:
            request.extensions["timeout"] = httpx.Timeout(timeout).as_dict()
        deadline = options.get("deadline")
        rules = options.get("rules", ())
        rate = options.get("requests_per_second")

        async def attempt() -> httpx.Response:
            return await self._attempt(request, provider, rules, deadline, rate)

        try:
            return await with_retries(
                attempt,
                self.policy,
                sleep=self.sleep,
                deadline=deadline,
                on_backoff=options.get("on_backoff"),
            )
        except SearchError as error:
            raise scrubbed(error) from None

    async def call(
        self,
        request: httpx.Request,
        parse: Callable[[httpx.Response], T],
        *,
        provider: str,
        **options: Unpack[SendOptions],
    ) -> T:
        """``send``, then ``parse`` the answer; keys echoed in the body are removed before parsing."""
        response = await self.send(request, provider=provider, **options)
        try:
            return parse(_without_secrets(response))
        except SearchError as error:
            raise scrubbed(error) from None

    async def open(self, request: httpx.Request, *, provider: str) -> httpx.Response:
        """Send once and return the response unread (``stream=True``); the caller closes it."""
        remember_credentials(request.url)
        try:
            return await self.client().send(request, stream=True)
        except httpx.HTTPError as exc:
            raise scrubbed(error_from_exception(exc, provider=provider)) from None

    async def aclose(self) -> None:
        """Close the pooled clients of every loop."""
        await self._states.aclose()

    async def __aenter__(self) -> HttpClient:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    async def _attempt(
        self,
        request: httpx.Request,
        provider: str,
        rules: Sequence[Rule],
        deadline: Deadline | None,
        rate: float | None,
    ) -> httpx.Response:
        api = f"{provider} {request.url.host}"
        self._check_pause(api)
        try:
            async with asyncio.timeout(deadline.remaining() if deadline else None):
                if rate:
                    await self._limiter(provider, rate).acquire()
                response = await self.client().send(request)
        except TimeoutError:
            raise SearchError(
                ErrorCode.TIMEOUT,
                "no answer before the deadline",
                provider=provider,
                retryable=False,
            ) from None
        except httpx.HTTPError as exc:
            raise error_from_exception(exc, provider=provider) from None
        if response.is_success:
            return response
        error = error_from_response(response, provider=provider, rules=rules)
        if error.retry_after:
            until = self.clock() + error.retry_after
            if until > self._pause_until(api):
                self._pauses[api] = _Pause(until, error)
        raise error

    def _pause_until(self, api: str) -> float:
        pause = self._pauses.get(api)
        return pause.until if pause else 0.0

    def _check_pause(self, api: str) -> None:
        """Refuse to send while the API's ``Retry-After`` runs: its error, with the wait left."""
        pause = self._pauses.get(api)
        if pause is None:
            return
        left = pause.until - self.clock()
        if left <= 0:
            self._pauses.pop(api, None)
            return
        error = pause.error
        raise SearchError(
            error.code,
            f"{error.message} (nothing sent: {left:.1f} s of its Retry-After are left)",
            provider=error.provider,
            retryable=error.retryable,
            retry_after=left,
        )

    def _limiter(self, provider: str, rate: float) -> AsyncLimiter:
        limiters = self._states.get().limiters
        key = f"{provider}@{rate:g}"
        if key not in limiters:
            # A rate under one per second is one request per 1/rate seconds (no bursts).
            limiters[key] = AsyncLimiter(rate, 1.0) if rate >= 1 else AsyncLimiter(1, 1.0 / rate)
        return limiters[key]

    def _new_state(self) -> _LoopState:
        client = httpx.AsyncClient(
            timeout=self.timeout,
            transport=self._transport,
            follow_redirects=False,
            headers={"User-Agent": USER_AGENT},
        )
        return _LoopState(client)


def remember_credentials(url: httpx.URL) -> None:
    """Treat a password written in a URL (``https://user:pw@searx.example``) as a key.

    httpx sends it as Basic auth and prints it in its log lines; from here on
    the redaction step removes it, and its Basic form, wherever it shows.
    """
    if url.password:
        remember(url.password)
        remember(base64.b64encode(f"{url.username}:{url.password}".encode()).decode())


def scrubbed(error: SearchError) -> SearchError:
    """Return ``error`` with every known key removed from its message (the one redaction step)."""
    message = redact(error.message)
    if message == error.message:
        return error
    return SearchError(
        error.code,
        message,
        provider=error.provider,
        query=error.query,
        retryable=error.retryable,
        retry_after=error.retry_after,
    )


def _without_secrets(response: httpx.Response) -> httpx.Response:
    """The response itself, or a copy whose body no longer holds a known key."""
    text = safe_text(response)
    clean = redact(text)
    if clean == text:
        return response
    kept = {k: v for k, v in response.headers.items() if k.lower() not in _BODY_HEADERS}
    return httpx.Response(
        response.status_code, headers=kept, content=clean.encode(), request=response.request
    )


def _protect_logs() -> None:
    """Redact the request lines httpx and httpcore log (a key may ride in the URL)."""
    for name in _LOGGERS:
        logger = logging.getLogger(name)
        if _redacting not in logger.filters:
            logger.addFilter(_redacting)


async def _close_state(state: _LoopState) -> None:
    await state.client.aclose()
