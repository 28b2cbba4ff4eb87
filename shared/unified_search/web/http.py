"""The HTTP side of web search: pooled clients, explicit timeouts, retries that honour Retry-After.

Providers only build requests and parse responses; this module sends them. A
failure becomes a ``SearchError`` (see ``unified_search.web.errors``); only
retryable ones (rate limit, 5xx, timeout, network) are tried again, after an
exponential backoff or the provider's ``Retry-After``, whichever it gives,
capped by ``max_wait``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

import httpx

from unified_search.errors import SearchError
from unified_search.web.config import WebConfig
from unified_search.web.errors import Rule, error_from_exception, error_from_response, redact
from unified_search.web.loops import PerLoop

T = TypeVar("T")
Sleep = Callable[[float], Awaitable[None]]
USER_AGENT = "unified-search/0.1 (+https://pypi.org/project/unified-search/)"


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how long to wait before trying a retryable failure again.

    Example:
        >>> RetryPolicy(retries=3, backoff=0.5).delay(2, retry_after=None)
        2.0
    """

    retries: int = 2
    """Extra attempts after the first one."""
    backoff: float = 0.5
    """Delay before the first retry; doubled for each further one."""
    max_wait: float = 10.0
    """Upper bound of any single wait, including one asked for by ``Retry-After``."""

    def delay(self, attempt: int, *, retry_after: float | None) -> float:
        """Return the wait before retry number ``attempt + 1`` (0-based ``attempt``)."""
        wanted = retry_after if retry_after is not None else self.backoff * 2**attempt
        return min(wanted, self.max_wait)


async def with_retries(
    attempt: Callable[[], Awaitable[T]], policy: RetryPolicy, sleep: Sleep = asyncio.sleep
) -> T:
    """Run ``attempt`` until it succeeds, fails for good, or the retries are spent."""
    for number in range(policy.retries + 1):
        try:
            return await attempt()
        except SearchError as error:
            if not error.retryable or number == policy.retries:
                raise
            await sleep(policy.delay(number, retry_after=error.retry_after))
    raise AssertionError("unreachable: the last attempt returns or raises")


class HttpClient:
    """One ``httpx.AsyncClient`` per event loop, with retries and error mapping.

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
    ) -> None:
        self.timeout = httpx.Timeout(timeout)
        self.policy = policy or RetryPolicy()
        self.sleep = sleep
        self._transport = transport
        self._clients: PerLoop[httpx.AsyncClient] = PerLoop(self._new_client, _close_client)

    @classmethod
    def from_config(
        cls,
        config: WebConfig,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        sleep: Sleep = asyncio.sleep,
    ) -> HttpClient:
        """Build the client described by the ``web`` section."""
        policy = RetryPolicy(config.retries, config.backoff, config.max_retry_wait)
        return cls(timeout=config.timeout, policy=policy, transport=transport, sleep=sleep)

    def client(self) -> httpx.AsyncClient:
        """Return the pooled client of the running loop."""
        return self._clients.get()

    async def send(
        self,
        request: httpx.Request,
        *,
        provider: str,
        rules: Sequence[Rule] = (),
        secrets: Iterable[str] = (),
    ) -> httpx.Response:
        """Send ``request`` with retries; return a 2xx response or raise ``SearchError``.

        ``secrets`` are scrubbed from every error message built from the exchange.
        """
        hidden = tuple(secrets)

        async def attempt() -> httpx.Response:
            return await self._send_once(request, provider, rules, hidden)

        return await with_retries(attempt, self.policy, self.sleep)

    async def _send_once(
        self, request: httpx.Request, provider: str, rules: Sequence[Rule], secrets: tuple[str, ...]
    ) -> httpx.Response:
        try:
            response = await self.client().send(request)
        except httpx.HTTPError as exc:
            raise scrubbed(error_from_exception(exc, provider=provider), secrets) from None
        if response.is_success:
            return response
        raise scrubbed(error_from_response(response, provider=provider, rules=rules), secrets)

    async def aclose(self) -> None:
        """Close the pooled clients of every loop."""
        await self._clients.aclose()

    def _new_client(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(
            timeout=self.timeout,
            transport=self._transport,
            follow_redirects=False,
            headers={"User-Agent": USER_AGENT},
        )


def scrubbed(error: SearchError, secrets: Iterable[str]) -> SearchError:
    """Return ``error`` with every secret removed from its message."""
    message = redact(error.message, secrets)
    if message == error.message:
        return error
    return SearchError(
        error.code,
        message,
        provider=error.provider,
        retryable=error.retryable,
        retry_after=error.retry_after,
    )


async def _close_client(client: httpx.AsyncClient) -> None:
    await client.aclose()
