"""The searches whose records were given up on: listed in the store, counted for the operator.

A record the writer finally drops (it failed on its own, or the store was still
failing when it closed) is logged with its request ID (``records.writer``) and
listed here, in ``<prefix>search_drops``, which ``unified-search records --dropped``
and ``GET /api/store`` read. The list is written as soon as the database takes it:
a drop while the store is down (or full) waits in memory and is written after the
next batch that gets through, or at close; if the store never takes it, the log is
all that remains, and ``close`` says so.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from datetime import UTC, datetime

from pydantic import BaseModel, ConfigDict
from sqlalchemy import (
    Column,
    DateTime,
    MetaData,
    String,
    Table,
    Text,
    func,
    insert,
    select,
)

from unified_search.errors import ErrorCode, SearchError
from unified_search.records.model import Connect, search_table
from unified_search.records.writer import PendingWrite

logger = logging.getLogger(__name__)


class DroppedSearch(BaseModel):
    """A search whose record was not stored, and why."""

    model_config = ConfigDict(frozen=True)

    request_id: str
    code: ErrorCode
    message: str
    dropped_at: datetime


def define_drops(metadata: MetaData, prefix: str) -> Table:
    """Declare the table of dropped searches."""
    return search_table(
        metadata,
        f"{prefix}search_drops",
        Column("code", String(32), nullable=False),
        Column("message", Text, nullable=False),
        Column("dropped_at", DateTime(timezone=True), nullable=False),
    )


class DropList:
    """Dropped searches listed in ``table`` through ``connect``, or waiting to be."""

    def __init__(self, table: Table, connect: Connect) -> None:
        self.table = table
        self._connect = connect
        self._waiting: list[dict[str, object]] = []
        self._lock = threading.Lock()

    @property
    def waiting(self) -> list[str]:
        """Request IDs of drops not listed in the database yet."""
        with self._lock:
            return [str(row["request_id"]) for row in self._waiting]

    def add(self, writes: Sequence[PendingWrite], error: SearchError) -> None:
        """List ``writes`` as dropped because of ``error`` (the writer's ``on_drop``)."""
        now = datetime.now(UTC)
        rows: list[dict[str, object]] = [
            {
                "request_id": write.request_id,
                "code": error.code.value,
                "message": error.message.replace("\x00", "\ufffd"),
                "dropped_at": now,
            }
            for write in writes
        ]
        with self._lock:
            self._waiting += rows
        self.flush()

    def flush(self) -> None:
        """List the waiting drops, if the database takes them now (else they wait)."""
        with self._lock:
            rows, self._waiting = self._waiting, []
        if not rows:
            return
        try:
            with self._connect() as conn:
                conn.execute(insert(self.table), rows)
        except SearchError:
            with self._lock:
                self._waiting = rows + self._waiting

    def close(self) -> None:
        """List what waits; log the request IDs of drops the database would not take."""
        self.flush()
        if waiting := self.waiting:
            logger.error(
                "%d dropped searches could not be listed in the store either: %s",
                len(waiting),
                ", ".join(waiting),
            )

    def read(self, limit: int) -> tuple[int, list[DroppedSearch]]:
        """How many searches were dropped in all, and the latest ``limit`` of them, oldest first."""
        latest = select(self.table).order_by(self.table.c.id.desc()).limit(limit)
        with self._connect() as conn:
            total = int(conn.execute(select(func.count()).select_from(self.table)).scalar_one())
            rows = list(reversed(conn.execute(latest).mappings().all()))
        return total, [
            DroppedSearch(
                request_id=row["request_id"],
                code=ErrorCode(row["code"]),
                message=row["message"],
                dropped_at=_aware(row["dropped_at"]),
            )
            for row in rows
        ]


def _aware(moment: datetime) -> datetime:
    """SQLite gives back naive datetimes: they were written in UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


class StoreStatus(BaseModel):
    """How a store's writes are going, as an operator reads it (``GET /api/store``).

    Example:
        >>> StoreStatus(queued=0, dropped=0).ok
        True
    """

    model_config = ConfigDict(frozen=True)

    queued: int
    """Searches waiting to be written."""
    dropped: int
    """Searches this process gave up on (each logged with its request ID)."""
    dropped_total: int | None = None
    """Dropped searches listed in the store, by every process (``None``: it cannot be read)."""
    problem: str | None = None
    """Why writes are not getting through right now."""
    code: ErrorCode | None = None
    """The problem's error code (``STORAGE_FULL``, ``READ_ONLY``, ``NETWORK_ERROR`` ...)."""

    @property
    def ok(self) -> bool:
        """No write failing now and none given up on."""
        return self.problem is None and not self.dropped and not self.dropped_total
