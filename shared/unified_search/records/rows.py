"""Turn search records into table rows, ready for ``store_engine.PlainInsert``.

This is the record writer's hot path, so it avoids per-value work: JSON
columns are encoded once per value by pydantic's Rust encoder (models, enums
and dates as pydantic writes them), and a row is a tuple of plain values in
its table's column order (``RECORD_COLUMNS``, ``REFERENCE_COLUMNS``): cheap to
send to the writer process, and passed to the driver as it is.

A record's rows are built straight from the engine's objects
(``unified_search.records.model.record_fields``), which are already validated: no
``SearchRecord`` is built on the way.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pydantic_core import to_json

from unified_search.config.search import SearchConfig
from unified_search.contract.response import SearchResponse
from unified_search.records.model import SearchRecord, record_fields, remember_last
from unified_search.types import Reference

#: The records table's columns a record row holds, in order (``id`` comes first, once drawn).
RECORD_COLUMNS = (
    "request_id",
    "chat_id",
    "query",
    "type",
    "source",
    "config",
    "keywords",
    "entities",
    "relations",
    "dsl",
    "reference_indices",
    "graph",
    "xml",
    "prompt",
    "duration_ms",
    "error",
    "created_at",
    "deleted_at",
)
#: The references table's columns a reference row holds, in order (after ``record_id``).
REFERENCE_COLUMNS = (
    "request_id",
    "ref_index",
    "citation_id",
    "type",
    "title",
    "url",
    "content",
    "extra",
)
# The reference fields that have their own column; the rest is kept as JSON in ``extra``.
_REF_COLUMNS = {"id", "index", "type", "title", "url", "content"}
_REF_EXTRA = {name for name in Reference.model_fields if name not in _REF_COLUMNS}
_encode_reference = Reference.__pydantic_serializer__.to_json


@dataclass(frozen=True)
class RecordRows:
    """One record's row and its references' rows (without ids, known once inserted)."""

    record: tuple[Any, ...]
    references: list[tuple[Any, ...]]


def rows_from_response(response: SearchResponse, config: SearchConfig) -> list[RecordRows]:
    """The rows of the records of ``response`` (see ``records_from_response``)."""
    return [record_rows(fields) for fields in record_fields(response, config)]


def rows_of_record(record: SearchRecord) -> RecordRows:
    """The rows of a validated ``SearchRecord``."""
    return record_rows({name: getattr(record, name) for name in SearchRecord.model_fields})


def record_rows(fields: Mapping[str, Any]) -> RecordRows:
    """The rows of a record given as its ``SearchRecord`` fields."""
    references: list[Reference] = fields["references"]
    request_id = fields["request_id"]
    record = (  # in RECORD_COLUMNS order
        request_id,
        fields["chat_id"],
        _text(fields["query"]),
        fields["type"].value,
        fields["source"].value,
        _config_text(fields["config"]),
        _json(fields["keywords"]),
        _json(fields["entities"]),
        _json(fields["relations"]),
        _json_or_null(fields["dsl"]),
        _json([ref.index for ref in references]),
        _json(fields["graph"]),
        _text(fields["xml"]),
        _text(fields["prompt"]),
        fields["duration_ms"],
        _json_or_null(fields["error"]),
        fields["created_at"],
        fields["deleted_at"],
    )
    return RecordRows(record, [_reference_row(request_id, ref) for ref in references])


def _reference_row(request_id: str, ref: Reference) -> tuple[Any, ...]:
    return (  # in REFERENCE_COLUMNS order
        request_id,
        ref.index,
        ref.id,
        ref.type.value,
        _text(ref.title),
        None if ref.url is None else _text(ref.url),
        _text(ref.content),
        _encode_reference(ref, include=_REF_EXTRA).decode(),
    )


def _text(value: str) -> str:
    # PostgreSQL text cannot hold NUL; store U+FFFD everywhere so both dialects agree.
    return value.replace("\x00", "\ufffd")


def _json(value: Any) -> str:
    return to_json(value).decode()


def _json_or_null(value: Any) -> str | None:
    return None if value is None else _json(value)


@remember_last
def _config_text(config: Any) -> str:
    """Encode the configuration, once for a service that records the same one every time."""
    return _json(config)
