"""API keys as secrets: read from the environment when needed, never shown.

Every key a ``Secret`` hands out is remembered, so that ``redact`` can remove
it from any text built from what a server sent back (an error body that echoes
the request headers, a log line that prints the URL). That is the one
redaction step: the HTTP layer applies it to every error it raises and
``RedactingFilter`` to the log records of the HTTP libraries.
"""

from __future__ import annotations

import functools
import logging
import os
import re
import threading
from collections.abc import Mapping
from typing import Any, overload
from urllib.parse import quote, quote_plus

from pydantic_core import core_schema

from unified_search.errors import ErrorCode, SearchError

#: Shorter values are not treated as secrets: replacing them would garble ordinary text.
MIN_SECRET_CHARS = 6
MASK = "***"
_HEX = re.compile(r"%[0-9A-F]{2}")
# A key whose words name a credential: api_key, apiKey, X-API-Key, client_secret, token, password ...
_SENSITIVE_KEY = re.compile(
    r"(?:^|_)(?:api_?key|access_?key|secret|token|password|passwd|authorization|bearer)(?:_|$)"
)
# What an environment variable name looks like; a credential key holding one is a reference, not a key.
_ENV_NAME = re.compile(r"[A-Z_][A-Z0-9_]*")
_known: set[str] = set()
_known_lock = threading.Lock()


def remember(value: str) -> None:
    """Add ``value`` (and its URL-encoded forms, either case of hex) to the texts ``redact`` removes."""
    if len(value) < MIN_SECRET_CHARS:
        return
    encoded = {quote(value, safe=""), quote_plus(value)}
    lower = {_HEX.sub(lambda m: m.group().lower(), form) for form in encoded}
    with _known_lock:
        _known.update({value, *encoded, *lower})


@overload
def redact(value: str) -> str: ...


@overload
def redact(value: Any) -> Any: ...


def redact(value: Any) -> Any:
    """Remove secrets from ``value``: the one redaction step for text, errors, logs and records.

    Text loses every key handed out so far (replaced by ``***``). Mappings, at any
    depth, lose each credential-named entry (``api_key``, ``apiKey``, ``password`` ...)
    whose value is a raw key rather than the name of an environment variable.

    Example:
        >>> remember("sk-example-123")
        >>> redact("echo: Authorization: Bearer sk-example-123")
        'echo: Authorization: Bearer ***'
        >>> redact({"api_key": "tvly-123", "api_key_env": "TAVILY_API_KEY", "max_tokens": 8000})
        {'api_key_env': 'TAVILY_API_KEY', 'max_tokens': 8000}
    """
    if isinstance(value, str):
        return _without_known_keys(value)
    if isinstance(value, Mapping):
        return {
            str(key): redact(item)
            for key, item in value.items()
            if not (is_sensitive_key(str(key)) and _is_raw_secret(item))
        }
    if isinstance(value, list | tuple):
        return [redact(item) for item in value]
    return value


def _without_known_keys(text: str) -> str:
    with _known_lock:
        secrets = sorted(_known, key=len, reverse=True)  # longest first: no partial leftovers
    for secret in secrets:
        if secret in text:
            text = text.replace(secret, MASK)
    return text


@functools.lru_cache(maxsize=4096)
def is_sensitive_key(key: str) -> bool:
    """Tell whether a configuration key names a credential (``TAVILY_API_KEY``, ``apiKey`` ...)."""
    words = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", key).replace("-", "_").lower()
    return _SENSITIVE_KEY.search(words) is not None


def _is_raw_secret(value: Any) -> bool:
    return isinstance(value, str) and bool(value) and _ENV_NAME.fullmatch(value) is None


class RedactingFilter(logging.Filter):
    """A logging filter that removes known keys from every record it sees.

    Example:
        Not run here: it changes a logger of the whole process.

        >>> logging.getLogger("httpx").addFilter(RedactingFilter())  # doctest: +SKIP
    """

    def filter(self, record: logging.LogRecord) -> bool:
        """Rewrite the record's message without secrets; never drop the record."""
        message = record.getMessage()
        cleaned = redact(message)
        if cleaned != message:
            record.msg, record.args = cleaned, None
        return True


class Secret:
    """An API key taken from an environment variable or given directly.

    The value is read only when ``resolve()`` is called, its repr is redacted,
    and a secret given as a raw token refuses to serialise.

    Example:
        >>> key = Secret.from_env("TAVILY_API_KEY")
        >>> key
        Secret(env='TAVILY_API_KEY')
    """

    __slots__ = ("_env", "_token")

    def __init__(self, *, env: str | None = None, token: str | None = None) -> None:
        if (env is None) == (token is None):
            raise ValueError("a Secret needs exactly one of env or token")
        self._env = env
        self._token = token

    @classmethod
    def from_env(cls, name: str) -> Secret:
        """Refer to the environment variable ``name``."""
        return cls(env=name)

    @classmethod
    def from_token(cls, token: str) -> Secret:
        """Hold a key given directly (kept in memory only)."""
        return cls(token=token)

    @classmethod
    def of(cls, value: Secret | str) -> Secret:
        """A ``Secret`` as is, or the name of an environment variable as one."""
        return value if isinstance(value, Secret) else cls.from_env(value)

    @property
    def env(self) -> str | None:
        """The environment variable name, if the key comes from one."""
        return self._env

    def resolve(self, *, provider: str | None = None) -> str:
        """Return the key, or raise ``NO_API_KEY`` naming where it was expected."""
        value = self._token if self._token is not None else os.environ.get(self._env or "", "")
        if not value or not value.strip():
            where = f"environment variable {self._env}" if self._env else "the given token"
            raise SearchError(
                ErrorCode.NO_API_KEY, f"no API key: {where} is empty", provider=provider
            )
        remember(value.strip())
        return value.strip()

    def is_set(self) -> bool:
        """Tell whether a non-empty key is available, without revealing it."""
        try:
            self.resolve()
        except SearchError:
            return False
        return True

    def __repr__(self) -> str:
        return f"Secret(env={self._env!r})" if self._env else "Secret(token='***')"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Secret) and (self._env, self._token) == (other._env, other._token)

    def __hash__(self) -> int:
        return hash((self._env, self._token))

    def to_json(self) -> str:
        """Serialise as the variable name; raw tokens are refused."""
        if self._env is None:
            raise ValueError("a Secret built from a raw token cannot be serialised")
        return self._env

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: Any) -> core_schema.CoreSchema:
        """Accept a Secret or an env var name; serialise as the env var name."""

        def build(value: Any) -> Secret:
            if isinstance(value, Secret):
                return value
            if isinstance(value, str) and value.strip():
                return cls.from_env(value.strip())
            raise ValueError("expected the name of an environment variable")

        return core_schema.no_info_plain_validator_function(
            build, serialization=core_schema.plain_serializer_function_ser_schema(cls.to_json)
        )
