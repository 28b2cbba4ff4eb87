"""Check and convert DSL values to the Python type of the column they are compared with.

A DSL often comes from a model as JSON, so numbers may arrive as strings and
dates always do. What converts without guessing is accepted; anything else is
an INVALID_QUERY naming the field, before any SQL is built.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from typing import Any

from unified_search.db.schema import ColumnInfo, Kind
from unified_search.errors import ErrorCode, SearchError

#: Longest text value accepted in a condition.
MAX_TEXT = 1000


def coerce(column: ColumnInfo, value: Any) -> Any:
    """Return ``value`` as the column's Python type, or raise INVALID_QUERY naming the field."""
    try:
        return _CONVERTERS[column.kind](value)
    except (TypeError, ValueError, InvalidOperation, OverflowError):
        shown = repr(value)[:60]
        raise SearchError(
            ErrorCode.INVALID_QUERY,
            f"value {shown} does not fit field {column.name!r} of type {column.kind}",
        ) from None


def coerce_text(column: ColumnInfo, value: Any) -> str:
    """Return a LIKE pattern; only strings are patterns."""
    if not isinstance(value, str) or len(value) > MAX_TEXT or "\x00" in value:
        raise SearchError(
            ErrorCode.INVALID_QUERY,
            f"field {column.name!r}: like needs a text pattern (at most {MAX_TEXT} characters, no NUL)",
        )
    return value


def _to_int(value: Any) -> int:
    if isinstance(value, bool):
        raise TypeError("bool is not a number")
    if isinstance(value, int):
        return value
    number = _to_decimal(value)
    if number != number.to_integral_value():
        raise ValueError("not a whole number")
    return int(number)


def _to_float(value: Any) -> float:
    if isinstance(value, bool):
        raise TypeError("bool is not a number")
    number = float(_to_decimal(value))
    if not math.isfinite(number):
        raise ValueError("not a finite number")
    return number


def _to_decimal(value: Any) -> Decimal:
    if isinstance(value, int | float | Decimal):
        return Decimal(str(value))
    if isinstance(value, str) and len(value) <= 64:
        number = Decimal(value.strip())
        if not number.is_finite():
            raise ValueError("not a finite number")
        return number
    raise TypeError("not a number")


def _to_str(value: Any) -> str:
    if isinstance(value, bool) or not isinstance(value, str | int | float | Decimal):
        raise TypeError("not text")
    text = str(value)
    if len(text) > MAX_TEXT or "\x00" in text:  # PostgreSQL cannot store NUL in text
        raise ValueError("text too long or holding a NUL character")
    return text


_TRUE = {"true", "1", "yes", "y", "t"}
_FALSE = {"false", "0", "no", "n", "f"}


def _to_bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
        return value.strip().lower() in _TRUE
    raise TypeError("not a boolean")


def _to_date(value: Any) -> dt.date:
    if isinstance(value, dt.datetime):
        return value.date()
    if isinstance(value, dt.date):
        return value
    if isinstance(value, str):
        return dt.date.fromisoformat(value.strip()[:10])
    raise TypeError("not a date")


def _to_datetime(value: Any) -> dt.datetime:
    if isinstance(value, dt.datetime):
        return value
    if isinstance(value, dt.date):
        return dt.datetime.combine(value, dt.time())
    if isinstance(value, str):
        return dt.datetime.fromisoformat(value.strip())
    raise TypeError("not a datetime")


def _to_other(value: Any) -> Any:
    if isinstance(value, str | int | float | bool):
        return value
    raise TypeError("unsupported value")


_CONVERTERS: dict[Kind, Callable[[Any], Any]] = {
    "int": _to_int,
    "float": _to_float,
    "str": _to_str,
    "bool": _to_bool,
    "date": _to_date,
    "datetime": _to_datetime,
    "other": _to_other,
}
