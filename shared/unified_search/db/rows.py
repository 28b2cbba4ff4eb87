"""Turn database answers into citable result items.

A row's score is the share of the question's keywords found in its text, in
0..1. When the question had no keywords (only filters and ordering), every row
matched exactly; scores then fall gently with position (1.0 down to 0.5) so a
reranker keeps the database's order. Figures (counts, sums, averages, per
group) and distinct values come back as items too: their ``data`` holds the
figures, they have no ``record_id`` (no table row stands behind them), and they
are cited like any other item.
"""

from __future__ import annotations

import base64
import datetime as dt
import decimal
import uuid
from collections.abc import Sequence
from typing import Any

from unified_search.db.schema import ModelSchema
from unified_search.types import JSON, ResultItem, SearchType


def jsonable(value: Any) -> Any:
    """Return ``value`` in a JSON-safe form (dates as ISO text, decimals as numbers)."""
    if value is None or isinstance(value, str | int | float | bool):
        return value
    if isinstance(value, decimal.Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, bytes | bytearray | memoryview):
        return base64.b64encode(bytes(value)).decode("ascii")
    if isinstance(value, uuid.UUID):
        return str(value)
    return str(value)


def row_items(
    schema: ModelSchema,
    rows: Sequence[dict[str, Any]],
    keywords: Sequence[str],
    visible: Sequence[str] | None = None,
) -> list[ResultItem]:
    """Build one item per row; ``visible`` limits ``data`` to the selected columns."""
    items = []
    for rank, row in enumerate(rows):
        data = {k: jsonable(v) for k, v in row.items() if visible is None or k in visible}
        score = keyword_score(schema, row, keywords) if keywords else 1.0 - 0.5 * rank / len(rows)
        items.append(_item(schema, row, data, score))
    return items


def figure_items(schema: ModelSchema, rows: Sequence[dict[str, Any]]) -> list[ResultItem]:
    """Build one item per answer row of an aggregate or distinct query."""
    items = []
    for rank, row in enumerate(rows):
        data = {k: jsonable(v) for k, v in row.items()}
        items.append(
            ResultItem(
                type=SearchType.DB,
                title=_figure_title(schema, data),
                content=readable(data),
                score=round(1.0 - 0.5 * rank / len(rows), 4),
                model=schema.name,
                data=data,
                metadata={"label": schema.label, "answer": "figures"},
            )
        )
    return items


def _figure_title(schema: ModelSchema, data: JSON) -> str:
    shown = ", ".join(f"{k}: {v}" for k, v in data.items() if not k.endswith(".id"))
    return f"{schema.label}: {shown}" if shown else schema.label


def _item(schema: ModelSchema, row: dict[str, Any], data: JSON, score: float) -> ResultItem:
    record_id = ":".join(str(jsonable(row[k])) for k in schema.primary_key) or None
    title_value = row.get(schema.title) if schema.title else None
    title = (
        str(title_value) if title_value is not None else f"{schema.label} {record_id or ''}".strip()
    )
    return ResultItem(
        type=SearchType.DB,
        title=title,
        content=readable(data),
        score=round(score, 4),
        model=schema.name,
        record_id=record_id,
        data=data,
        metadata={"label": schema.label},
    )


def readable(data: JSON) -> str:
    """Return ``column: value`` lines (empty values left out)."""
    return "\n".join(f"{key}: {value}" for key, value in data.items() if value is not None)


def keyword_score(schema: ModelSchema, row: dict[str, Any], keywords: Sequence[str]) -> float:
    """Return the share of ``keywords`` found (case-insensitively) in the row's text columns."""
    text = " ".join(str(row[c]) for c in schema.text_columns() if row.get(c) is not None).lower()
    return sum(1 for k in keywords if k.lower() in text) / len(keywords)
