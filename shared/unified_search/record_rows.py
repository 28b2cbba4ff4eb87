"""Turn search records into table rows, ready for ``store_engine.PlainInsert``.

This is the record writer's hot path, so it avoids per-value work: JSON
columns are encoded once per value by pydantic's Rust encoder (models, enums
and dates as pydantic writes them), the rows then go to the driver as they are.

A record's rows are built straight from the engine's objects
(``unified_search.records.record_fields``), which are already validated: no
``SearchRecord`` is built on the way.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pydantic_core import to_json

from unified_search.config import SearchConfig
from unified_search.records import SearchRecord, record_fields, remember_last
from unified_search.response import SearchResponse
from unified_search.types import Reference

# The reference fields that have their own column; the rest is kept as JSON in ``extra``.
_REF_COLUMNS = {"id", "index", "type", "title", "url", "content"}
_REF_EXTRA = {name for name in Reference.model_fields if name not in _REF_COLUMNS}
_encode_reference = Reference.__pydantic_serializer__.to_json


@dataclass(frozen=True)
class RecordRows:
    """One record's row and its references' rows (without ``record_id``, known once inserted)."""

    record: dict[str, Any]
    references: list[dict[str, Any]]


def rows_from_response(response: SearchResponse, config: SearchConfig) -> list[RecordRows]:
    """The rows of the records of ``response`` (see ``records_from_response``)."""
    return [record_rows(fields) for fields in record_fields(response, config)]


def rows_of_record(record: SearchRecord) -> RecordRows:
    """The rows of a validated ``SearchRecord``."""
    return record_rows({name: getattr(record, name) for name in SearchRecord.model_fields})


def record_rows(fields: Mapping[str, Any]) -> RecordRows:
    """The rows of a record given as its ``SearchRecord`` fields."""
    references: list[Reference] = fields["references"]
    record = {
        "request_id": fields["request_id"],
        "chat_id": fields["chat_id"],
        "query": _text(fields["query"]),
        "type": fields["type"].value,
        "source": fields["source"].value,
        "config": _config_text(fields["config"]),
        "keywords": _json(fields["keywords"]),
        "entities": _json(fields["entities"]),
        "relations": _json(fields["relations"]),
        "dsl": _json_or_null(fields["dsl"]),
        "reference_indices": _json([ref.index for ref in references]),
        "graph": _json(fields["graph"]),
        "xml": _text(fields["xml"]),
        "prompt": _text(fields["prompt"]),
        "duration_ms": fields["duration_ms"],
        "error": _json_or_null(fields["error"]),
        "created_at": fields["created_at"],
        "deleted_at": fields["deleted_at"],
    }
    request_id = fields["request_id"]
    return RecordRows(record, [_reference_row(request_id, ref) for ref in references])


def _reference_row(request_id: str, ref: Reference) -> dict[str, Any]:
    return {
        "request_id": request_id,
        "ref_index": ref.index,
        "citation_id": ref.id,
        "type": ref.type.value,
        "title": _text(ref.title),
        "url": None if ref.url is None else _text(ref.url),
        "content": _text(ref.content),
        "extra": _encode_reference(ref, include=_REF_EXTRA).decode(),
    }


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
