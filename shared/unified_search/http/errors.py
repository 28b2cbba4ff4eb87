"""HTTP failures of remote APIs, mapped to ``SearchError`` codes in one place.

APIs disagree on what a status means: a bad key is 401 for most, 403 for
Serper, 422 for Brave (whose 422 is also a plain validation error) and 498 for
Cohere; an exhausted quota is 432/433 for Tavily, 400 for Serper, 402 for Exa
and Jina and 429 with a quota message for Brave and SerpAPI. Each API
therefore lists a few ``Rule``s (its status table); whatever no rule matches
falls back to ``DEFAULT_STATUS_CODES``.

Messages quote at most ``EXCERPT_CHARS`` characters of the body, as plain text
(tags, scripts and entities removed), with every known key removed first
(``unified_search.auth.redact``), so that not even the start of a key echoed
by a server survives the cut. Only the first ``SCANNED_CHARS`` of a body are
read for that, in linear time: an error page is untrusted input, and a few
hundred kilobytes of unclosed tags must not hold the event loop.

How long to wait comes from ``Retry-After`` (seconds or an HTTP date), else
``Retry-After-Ms``, else the ``X-RateLimit-Remaining``/``X-RateLimit-Reset``
pair of an exhausted window (Brave lists one value per window).
"""

from __future__ import annotations

import html
import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any

import httpx

from unified_search.auth import redact
from unified_search.errors import ErrorCode, SearchError

#: The meaning of a status when no rule of the API says otherwise.
DEFAULT_STATUS_CODES: dict[int, ErrorCode] = {
    400: ErrorCode.INVALID_QUERY,
    401: ErrorCode.INVALID_API_KEY,
    402: ErrorCode.QUOTA_EXCEEDED,
    403: ErrorCode.INVALID_API_KEY,
    408: ErrorCode.TIMEOUT,
    422: ErrorCode.INVALID_QUERY,
    429: ErrorCode.RATE_LIMITED,
}
#: Statuses worth trying again; every other 4xx fails at once.
RETRYABLE_STATUSES = frozenset({408, 429, 500, 502, 503, 504})
EXCERPT_CHARS = 200
#: Characters of a body read to find its message (the message is near the start).
SCANNED_CHARS = 64_000
#: A reset this large is a Unix time, not a number of seconds.
EPOCH_RESET = 1_000_000_000
_HIDDEN = re.compile(r"<(script|style|head|noscript)\b", re.I)
#: A tag starts with a letter, ``/`` or ``!``: ``a < b`` in a message is text, not markup.
_TAGS = re.compile(r"</?[A-Za-z!][^<>]*>")
_SPACE = re.compile(r"\s+")


@dataclass(frozen=True)
class Rule:
    """An API's own meaning of a status, optionally only when the body contains ``match``.

    Example:
        >>> Rule(429, ErrorCode.QUOTA_EXCEEDED, match="QUOTA_LIMITED")
        Rule(status=429, code=<ErrorCode.QUOTA_EXCEEDED: 'QUOTA_EXCEEDED'>, match='QUOTA_LIMITED', hint='')
    """

    status: int
    code: ErrorCode
    match: str = ""
    """Case-insensitive text the body must contain; empty matches any body."""
    hint: str = ""
    """What the user can do about it, appended to the message."""

    def applies(self, status: int, body: str) -> bool:
        """Tell whether this rule explains ``status`` with ``body``."""
        return status == self.status and self.match.lower() in body.lower()


def error_from_response(
    response: httpx.Response, *, provider: str, rules: Sequence[Rule] = ()
) -> SearchError:
    """Translate a non-success response into the most specific ``SearchError``."""
    status = response.status_code
    body = redact(safe_text(response))
    rule = next((r for r in rules if r.applies(status, body)), None)
    code = rule.code if rule else DEFAULT_STATUS_CODES.get(status, ErrorCode.PROVIDER_ERROR)
    message = f"HTTP {status}: {provider_message(body)}"
    if rule and rule.hint:
        message += f" ({rule.hint})"
    return SearchError(
        code,
        message,
        provider=provider,
        retryable=code is not ErrorCode.QUOTA_EXCEEDED and status in RETRYABLE_STATUSES,
        retry_after=retry_after(response.headers),
    )


def error_from_exception(exc: httpx.HTTPError, *, provider: str) -> SearchError:
    """Translate an httpx transport failure (timeout, connection, protocol) into a ``SearchError``.

    Only the exception's type is quoted: its text may hold the request URL, and
    with it a key sent as a query parameter.
    """
    detail = type(exc).__name__
    if isinstance(exc, httpx.TimeoutException):
        return SearchError(ErrorCode.TIMEOUT, f"no answer in time ({detail})", provider=provider)
    return SearchError(
        ErrorCode.NETWORK_ERROR, f"cannot reach the provider ({detail})", provider=provider
    )


def bad_payload(provider: str, reason: str, body: str) -> SearchError:
    """Report an answer that is not what the API documents, with a short excerpt."""
    return SearchError(
        ErrorCode.PROVIDER_ERROR,
        f"{excerpt(reason, EXCERPT_CHARS // 2)}: {excerpt(redact(body))!r}",
        provider=provider,
        retryable=False,
    )


def json_body(response: httpx.Response, *, provider: str) -> dict[str, Any]:
    """Parse a JSON object out of ``response`` or raise PROVIDER_ERROR quoting the start of it."""
    try:
        data = response.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise bad_payload(provider, "answer is not JSON", safe_text(response)) from None
    if not isinstance(data, dict):
        raise bad_payload(provider, "answer is not a JSON object", safe_text(response))
    return data


def provider_message(body: str) -> str:
    """Pull the human message out of the error envelopes the APIs use."""
    try:
        data = json.loads(body)
    except ValueError:
        return excerpt(body) or "empty answer"
    found = _find_message(data)
    return excerpt(found) if found else excerpt(body)


def excerpt(text: str, limit: int = EXCERPT_CHARS) -> str:
    """Shorten ``text`` to one line of at most ``limit`` characters of plain text, keys removed.

    Example:
        >>> excerpt("<html><style>p{}</style><p>Bad&nbsp;<b>gateway</b></p></html>")
        'Bad gateway'
    """
    visible = _TAGS.sub(" ", _without_hidden(text[:SCANNED_CHARS]))
    flat = redact(_SPACE.sub(" ", html.unescape(visible)).strip())  # entities may spell a key
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _without_hidden(markup: str) -> str:
    """Drop scripts, styles and the head in one pass (an unclosed one hides the rest)."""
    lowered = markup.lower()
    kept = []
    start = 0
    while found := _HIDDEN.search(markup, start):
        kept.append(markup[start : found.start()])
        close = lowered.find("</" + found.group(1).lower(), found.end())
        end = lowered.find(">", close) if close >= 0 else -1
        start = end + 1 if end >= 0 else len(markup)
    kept.append(markup[start:])
    return " ".join(kept)


def retry_after(headers: httpx.Headers, now: datetime | None = None) -> float | None:
    """Seconds the server asks to wait before the next request; ``None`` when it does not say.

    Example:
        >>> retry_after(httpx.Headers({"X-RateLimit-Remaining": "0, 1873", "X-RateLimit-Reset": "1, 1419704"}))
        1.0
    """
    now = now or datetime.now(UTC)
    value = headers.get("retry-after")
    if value is not None:
        seconds = _number(value)
        return seconds if seconds is not None else _until(value, now)
    millis = _number(headers.get("retry-after-ms", ""))
    if millis is not None:
        return millis / 1000
    return _exhausted_window(headers, now)


def _number(text: str) -> float | None:
    """A finite, non-negative number, or ``None``."""
    try:
        value = float(text)
    except ValueError:
        return None
    return max(0.0, value) if math.isfinite(value) else None


def _until(value: str, now: datetime) -> float | None:
    """Seconds from ``now`` to an HTTP date (``None`` when it is not one)."""
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - now).total_seconds())


def _exhausted_window(headers: httpx.Headers, now: datetime) -> float | None:
    """The longest reset among the rate-limit windows with nothing remaining."""
    remaining = headers.get("x-ratelimit-remaining", "").split(",")
    resets = headers.get("x-ratelimit-reset", "").split(",")
    waits = []
    for left, reset in zip(remaining, resets, strict=False):
        seconds = _number(reset.strip())
        if _number(left.strip()) == 0 and seconds is not None:
            waits.append(seconds - now.timestamp() if seconds > EPOCH_RESET else seconds)
    return max(0.0, max(waits)) if waits else None


def safe_text(response: httpx.Response) -> str:
    """The body as text, whatever its declared encoding."""
    try:
        return response.text
    except (UnicodeDecodeError, LookupError):
        return response.content.decode("utf-8", errors="replace")


def _find_message(data: Any) -> str:
    """Walk the known envelopes: Tavily ``detail.error``, Brave ``error.detail``, ``message`` ..."""
    if isinstance(data, str):
        return data
    if isinstance(data, list):
        return _find_message(data[0]) if data else ""
    if not isinstance(data, dict):
        return ""
    for key in ("detail", "error", "errors", "message", "readableMessage"):
        if key in data and (found := _find_message(data[key])):
            return found
    return ""
