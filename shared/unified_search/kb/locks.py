"""One writer per collection at a time, across processes and machines.

Embedded, the lock is a file beside the collection's side store; shared, a
PostgreSQL advisory lock held by one connection for the whole write. Both are
released by the operating system or the database when their holder dies, so a
killed writer never leaves a collection locked (its unfinished write is
repaired by the next one, see ``kb.consistency``). A second writer waits up to
``kb.write_wait`` seconds, then fails with TIMEOUT naming the collection.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterator
from contextlib import contextmanager

from filelock import FileLock
from filelock import Timeout as FileLockTimeout
from sqlalchemy import text

from unified_search.errors import ErrorCode, SearchError
from unified_search.kb.sidestore import SideStore
from unified_search.kb.store import PROVIDER

#: Seconds between two tries of a taken advisory lock.
_RETRY = 0.1


@contextmanager
def write_lock(side: SideStore, collection: str, wait: float) -> Iterator[None]:
    """Hold the write lock of ``collection`` (blocking), waiting at most ``wait`` seconds."""
    if side.path is not None:
        lock = FileLock(f"{side.path}.write-lock", thread_local=False)
        try:
            lock.acquire(timeout=wait)
        except FileLockTimeout as exc:
            raise _busy(collection, wait) from exc
        try:
            yield
        finally:
            lock.release()
        return
    key = int.from_bytes(hashlib.sha256(collection.encode()).digest()[:8], "big", signed=True)
    with side.engine.connect() as conn:
        deadline = time.monotonic() + wait
        while not conn.scalar(text("SELECT pg_try_advisory_lock(:key)"), {"key": key}):
            conn.rollback()
            if time.monotonic() >= deadline:
                raise _busy(collection, wait)
            time.sleep(_RETRY)
        conn.commit()
        try:
            yield
        finally:
            conn.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": key})
            conn.commit()


def _busy(collection: str, wait: float) -> SearchError:
    return SearchError(
        ErrorCode.TIMEOUT,
        f"collection {collection!r} is being written by another process; waited {wait:g} s "
        "(kb.write_wait): try again when it is done",
        provider=PROVIDER,
    )
