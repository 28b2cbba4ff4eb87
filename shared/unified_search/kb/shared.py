"""Where a collection's state lives on this machine, and the database shared by several.

Embedded, a collection keeps a SQLite file and its saved lexical indexes under
``data_dir``. With ``kb.store_url`` its rows live in PostgreSQL, and ``data_dir``
only caches the lexical index fetched from there (any of it may be deleted). A
database that is down or hung fails the knowledge-base source with a coded error
within ``kb.store_timeout``, naming the database without its password.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable, Coroutine, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

from sqlalchemy import Engine
from sqlalchemy import exc as sa_exc

from unified_search.config.kb import KBConfig
from unified_search.errors import ErrorCode, SearchError
from unified_search.kb.store import PROVIDER, data_dir
from unified_search.records.engine import open_engine, reason, safe_url

P = ParamSpec("P")
T = TypeVar("T")


def side_path(config: KBConfig, name: str) -> Path:
    """The SQLite file of an embedded collection."""
    return data_dir(config) / "collections" / f"{name}.sqlite"


def lexical_folder(config: KBConfig, name: str) -> Path:
    """The folder of a collection's saved lexical indexes (a cache with ``store_url``)."""
    if config.store_url is None:
        return data_dir(config) / "collections" / f"{name}.lexical"
    where = hashlib.sha256(f"{safe_url(config.store_url)}\x00{name}".encode()).hexdigest()[:24]
    return data_dir(config) / "cache" / where


def shared_engine(config: KBConfig) -> Engine:
    """The engine of ``kb.store_url``: every call bounded by ``kb.store_timeout``."""
    assert config.store_url is not None
    with coded_store_failure(config):
        return open_engine(
            config.store_url, echo=False, timeout=config.store_timeout, durable=False
        )


@contextmanager
def coded_store_failure(config: KBConfig) -> Iterator[None]:
    """Raise a failure of the shared database as a coded error (TIMEOUT or NETWORK_ERROR)."""
    try:
        yield
    except sa_exc.OperationalError as exc:
        where = safe_url(config.store_url or "")
        said = reason(exc)
        if "timeout" in said.lower() or "canceling statement" in said.lower():
            raise SearchError(
                ErrorCode.TIMEOUT,
                f"the knowledge-base store {where} did not answer in time "
                f"(kb.store_timeout): {said}",
                provider=PROVIDER,
            ) from exc
        raise SearchError(
            ErrorCode.NETWORK_ERROR,
            f"cannot reach the knowledge-base store {where}: {said}",
            provider=PROVIDER,
        ) from exc


def store_errors(
    method: Callable[P, Coroutine[Any, Any, T]],
) -> Callable[P, Coroutine[Any, Any, T]]:
    """Code the shared database's failures of a handler's method (its ``config.kb``)."""

    @functools.wraps(method)
    async def coded(*args: P.args, **kwargs: P.kwargs) -> T:
        handler: Any = args[0]
        with coded_store_failure(handler.config.kb):
            return await method(*args, **kwargs)

    return coded
