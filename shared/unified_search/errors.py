"""Every error the library raises, in one place.

Hierarchy::

    Exception
    ├── SearchError                 a search could not be done; carries an ErrorCode
    └── ValueError
        └── ConfigurationError      a configuration value or file is wrong

Third-party exceptions are translated into these at the boundary that calls the
third party, chained with ``from``. Inside a fan-out a ``SearchError`` never
escapes: the engine records it as ``ErrorInfo`` on the request's result.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, SerializerFunctionWrapHandler, model_serializer


class ErrorCode(StrEnum):
    """Why a search (or a store's write) failed, in terms a caller can act on.

    The last three name faults of this machine's storage, so an operator is not sent
    looking at the network: ``STORAGE_FULL``, the disk (or database) holding a store has
    no room left, and writes resume once space is freed; ``READ_ONLY``, a store can be
    read but not written (a read-only file, mount or database); ``NOT_FOUND``, what a
    long operation works on is gone (a collection dropped while it was being indexed).
    """

    NO_API_KEY = "NO_API_KEY"
    INVALID_API_KEY = "INVALID_API_KEY"
    RATE_LIMITED = "RATE_LIMITED"
    QUOTA_EXCEEDED = "QUOTA_EXCEEDED"
    NETWORK_ERROR = "NETWORK_ERROR"
    PROVIDER_ERROR = "PROVIDER_ERROR"
    TIMEOUT = "TIMEOUT"
    INVALID_QUERY = "INVALID_QUERY"
    UNSUPPORTED = "UNSUPPORTED"
    STORAGE_FULL = "STORAGE_FULL"
    READ_ONLY = "READ_ONLY"
    NOT_FOUND = "NOT_FOUND"
    UNKNOWN = "UNKNOWN"


#: Refusals: the input cannot be served as given (a question a source cannot read, an option it
#: lacks). The caller changes the input; trying again changes nothing. Every exit code, HTTP
#: status and trace summary treats them alike: bad input when every source refuses.
REFUSALS = frozenset({ErrorCode.INVALID_QUERY, ErrorCode.UNSUPPORTED})

#: Failures that may succeed when tried again later.
RETRYABLE_CODES = frozenset(
    {
        ErrorCode.RATE_LIMITED,
        ErrorCode.NETWORK_ERROR,
        ErrorCode.PROVIDER_ERROR,
        ErrorCode.TIMEOUT,
        ErrorCode.STORAGE_FULL,
    }
)


class ErrorInfo(BaseModel):
    """A serialisable record of a failure, as stored on a ``SearchResult``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    code: ErrorCode
    message: str
    provider: str | None = None
    retryable: bool = False
    retry_after: float | None = None
    """Seconds the provider asked to wait before trying again (``Retry-After``), when it said."""

    @model_serializer(mode="wrap")
    def _without_unset_wait(self, handler: SerializerFunctionWrapHandler) -> Any:
        """Leave ``retry_after`` out when the provider gave none: stored errors keep their shape."""
        data = handler(self)
        if isinstance(data, dict) and data.get("retry_after") is None:
            data.pop("retry_after", None)
        return data


class SearchError(Exception):
    """A search failed for a reason named by ``code``.

    Example:
        >>> err = SearchError(ErrorCode.RATE_LIMITED, "slow down", provider="tavily")
        >>> err.retryable
        True
    """

    def __init__(
        self,
        code: ErrorCode | str,
        message: str,
        *,
        provider: str | None = None,
        query: str | None = None,
        retryable: bool | None = None,
        retry_after: float | None = None,
    ) -> None:
        self.code = ErrorCode(code)
        self.message = message
        self.provider = provider
        self.query = query
        self.retryable = self.code in RETRYABLE_CODES if retryable is None else retryable
        self.retry_after = retry_after
        super().__init__(message)

    def __str__(self) -> str:
        where = f" [{self.provider}]" if self.provider else ""
        return f"{self.code.value}{where}: {self.message}"

    def __repr__(self) -> str:
        return f"SearchError(code={self.code.value!r}, message={self.message!r}, provider={self.provider!r})"

    def info(self) -> ErrorInfo:
        """Return the serialisable form stored on results and records."""
        return ErrorInfo(
            code=self.code,
            message=self.message,
            provider=self.provider,
            retryable=self.retryable,
            retry_after=self.retry_after,
        )

    @classmethod
    def from_info(cls, info: ErrorInfo) -> SearchError:
        """Rebuild an error from its stored form (for strict callers that want to raise)."""
        return cls(
            info.code,
            info.message,
            provider=info.provider,
            retryable=info.retryable,
            retry_after=info.retry_after,
        )


class ConfigurationError(ValueError):
    """A configuration key, value or file is wrong; the message names which."""

    def __init__(self, message: str, *, key: str | None = None, file: str | None = None) -> None:
        self.key = key
        self.file = file
        super().__init__(message)


def as_search_error(exc: BaseException, *, provider: str | None = None) -> SearchError:
    """Turn any exception escaping a handler into a ``SearchError`` (kept as is if it is one)."""
    if isinstance(exc, SearchError):
        return exc
    if isinstance(exc, TimeoutError):
        return SearchError(ErrorCode.TIMEOUT, "the search timed out", provider=provider)
    if isinstance(exc, ValueError):
        return SearchError(ErrorCode.INVALID_QUERY, str(exc), provider=provider)
    if isinstance(exc, ImportError):  # an optional dependency: the message names its extra
        return SearchError(ErrorCode.UNSUPPORTED, str(exc), provider=provider)
    text = str(exc) or type(exc).__name__
    return SearchError(ErrorCode.UNKNOWN, f"{type(exc).__name__}: {text}", provider=provider)


def provider_failure(exc: BaseException, provider: str) -> SearchError:
    """PROVIDER_ERROR for what a provider or a delegate (agent, MCP tool) raised, named by type.

    Example:
        >>> provider_failure(KeyError("items"), "my-agent")
        SearchError(code='PROVIDER_ERROR', message="KeyError: 'items'", provider='my-agent')
    """
    return SearchError(ErrorCode.PROVIDER_ERROR, f"{type(exc).__name__}: {exc}", provider=provider)
