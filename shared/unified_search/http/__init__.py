"""The one HTTP layer of every remote call: web providers, the reader, rerank and embedding APIs.

``HttpClient`` sends (pooled, timed, rate-limited, retried, redacted);
``Rule`` tables give each API's own meaning of a status; ``Deadline`` bounds
a whole call, waits included; ``RetryPolicy`` says how often to try again.
"""

from unified_search.http.client import USER_AGENT, HttpClient, SendOptions, scrubbed
from unified_search.http.errors import (
    DEFAULT_STATUS_CODES,
    EXCERPT_CHARS,
    Rule,
    bad_payload,
    error_from_exception,
    error_from_response,
    excerpt,
    json_body,
    retry_after,
)
from unified_search.http.retry import Clock, Deadline, OnBackoff, RetryPolicy, Sleep, with_retries

__all__ = [
    "DEFAULT_STATUS_CODES",
    "EXCERPT_CHARS",
    "USER_AGENT",
    "Clock",
    "Deadline",
    "HttpClient",
    "OnBackoff",
    "RetryPolicy",
    "Rule",
    "SendOptions",
    "Sleep",
    "bad_payload",
    "error_from_exception",
    "error_from_response",
    "excerpt",
    "json_body",
    "retry_after",
    "scrubbed",
    "with_retries",
]
