"""Keep the citation checks of answers next to the searches they cite.

One row per checked answer, in ``<prefix>citation_checks``: the request (citation
scope) and chat it belongs to, the search whose references it cites when known,
how many sentences were flagged, and the whole ``CitationReport`` as JSON.
``SearchStore`` carries these methods (``save_checks``, ``get_checks`` and their
async twins); answers are not the store's to hold, only what was said about them.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import JSON as SQL_JSON
from sqlalchemy import (
    Column,
    DateTime,
    Integer,
    MetaData,
    String,
    Table,
    insert,
    select,
)

from unified_search.contract.checks import CitationReport
from unified_search.records.model import Connect, as_utc, search_table
from unified_search.records.outage import StoreGate, gated_twin


class StoredChecks(BaseModel):
    """The citation check of one answer, as stored.

    Example:
        >>> StoredChecks(request_id="r1", report=CitationReport()).flagged
        0
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: int | None = None
    request_id: str = Field(max_length=255)
    chat_id: str | None = Field(default=None, max_length=255)
    search_id: str | None = Field(default=None, max_length=64)
    flagged: int = 0
    """Sentences unsupported, uncited or citing an unknown ID."""
    report: CitationReport
    created_at: datetime = Field(default_factory=lambda: datetime.now(UTC))


def define_checks(metadata: MetaData, prefix: str) -> Table:
    """Declare the citation checks table."""
    return search_table(
        metadata,
        f"{prefix}citation_checks",
        Column("chat_id", String(255)),
        Column("search_id", String(64)),
        Column("flagged", Integer, nullable=False),
        Column("report", SQL_JSON, nullable=False),
        Column("created_at", DateTime(timezone=True), nullable=False),
    )


class CheckRecords:
    """The citation-check methods of ``SearchStore`` (it provides the table and connections)."""

    checks: Table
    _connection: Connect
    _gate: StoreGate

    def save_checks(
        self,
        request_id: str,
        report: CitationReport,
        *,
        chat_id: str | None = None,
        search_id: str | None = None,
    ) -> StoredChecks:
        """Store the check of one answer of ``request_id``; return it with its id."""
        if not isinstance(request_id, str) or not request_id.strip():
            raise ValueError("request_id must be a non-empty string")
        row = StoredChecks(
            request_id=request_id,
            chat_id=chat_id,
            search_id=search_id,
            flagged=len(report.flagged()),
            report=report,
        )
        values = row.model_dump(mode="json", exclude={"id"}) | {"created_at": row.created_at}
        with self._connection() as conn:
            result = conn.execute(insert(self.checks).values(**values))
            key = result.inserted_primary_key
        return row.model_copy(update={"id": int(key[0]) if key else None})

    def get_checks(self, request_id: str) -> list[StoredChecks]:
        """Every stored check of ``request_id``, oldest first."""
        statement = (
            select(self.checks)
            .where(self.checks.c.request_id == request_id)
            .order_by(self.checks.c.id)
        )
        with self._connection() as conn:
            return list(_rows(conn.execute(statement).mappings()))

    asave_checks = gated_twin(save_checks)
    aget_checks = gated_twin(get_checks)


def _rows(rows: Any) -> Iterator[StoredChecks]:
    for row in rows:
        data = dict(row)
        data["created_at"] = as_utc(data["created_at"])
        yield StoredChecks.model_validate(data)
