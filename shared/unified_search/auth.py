"""API keys as secrets: read from the environment when needed, never shown."""

from __future__ import annotations

import os
from typing import Any

from pydantic_core import core_schema

from unified_search.errors import ErrorCode, SearchError


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
