"""Publication dates in every form search providers send them.

ISO 8601 and RFC 2822 dates take the standard library's fast path; everything
else (``2026/07/02``, ``Jun 28, 2026``, ``15/03/2025``, ``3 weeks ago``,
``vor 2 Tagen``, ``2 天前`` ...) goes to dateparser, restricted to the
``LANGUAGES`` below so that an unreadable value costs milliseconds, not a
scan of every locale. Relative dates count from the ``now`` given, so tests
and cached answers decide the clock. A value that cannot be read is ``None``:
the caller keeps the item and leaves its date empty. So is a publication
date more than a day after ``now`` (``2099-01-01``, ``in 3 days``): no page is
published in the future, and such a date would look fresher than any real one.
A date without its day (``Jun 2026``, ``2026``) is the first of its month or year.
"""

from __future__ import annotations

import functools
from datetime import UTC, date, datetime, time, timedelta
from email.utils import parsedate_to_datetime
from typing import TYPE_CHECKING

from unified_search.types import TimeRange

if TYPE_CHECKING:
    from dateparser.date import DateDataParser

#: Languages tried for written-out and relative dates (the providers' most common ones).
LANGUAGES = ("en", "zh", "ja", "ko", "de", "fr", "es", "pt", "it", "nl", "ru")
#: Longer values are prose, not dates.
MAX_CHARS = 64
#: How far past ``now`` a date may lie (time zones, clocks a little off) and still be read.
FUTURE_SLACK = timedelta(days=1)
#: How far back each ``time_range`` reaches.
SPANS: dict[TimeRange, timedelta] = {
    "day": timedelta(days=1),
    "week": timedelta(weeks=1),
    "month": timedelta(days=31),
    "year": timedelta(days=366),
}


def parse_date(value: str, now: datetime | None = None) -> datetime | None:
    """Read a publication date as an aware UTC datetime; ``None`` when it cannot be read.

    Example:
        >>> now = datetime(2026, 7, 10, tzinfo=UTC)
        >>> [parse_date(v, now).date().isoformat() for v in ("2026/07/02", "Jun 28, 2026", "3 weeks ago")]
        ['2026-07-02', '2026-06-28', '2026-06-19']
        >>> parse_date("not a date", now) is None
        True
    """
    text = value.strip()
    if not text or len(text) > MAX_CHARS:
        return None
    now = (now or datetime.now(UTC)).astimezone(UTC)
    parsed = _standard(text) or _written(text, now)
    return parsed if parsed is not None and parsed <= now + FUTURE_SLACK else None


def _written(text: str, now: datetime) -> datetime | None:
    parsed = _parser(now.replace(tzinfo=None)).get_date_data(text).date_obj
    return None if parsed is None else _utc(parsed)


def iso_date(value: object, now: datetime | None = None) -> str | None:
    """``parse_date`` as an ISO 8601 string, for item metadata; ``None`` for anything unreadable."""
    if not isinstance(value, str):
        return None
    parsed = parse_date(value, now)
    return parsed.isoformat() if parsed else None


def _standard(text: str) -> datetime | None:
    try:
        return _utc(datetime.fromisoformat(text.replace("Z", "+00:00")))
    except ValueError:
        pass
    try:
        return _utc(parsedate_to_datetime(text))
    except (TypeError, ValueError, IndexError):
        return None


@functools.lru_cache(maxsize=8)
def _parser(reference: datetime) -> DateDataParser:
    # Imported here: dateparser takes tens of milliseconds to import, and most searches
    # (and every command that only shows results) read no written-out date.
    from dateparser.date import DateDataParser

    settings = {
        "RELATIVE_BASE": reference,
        "PREFER_DATES_FROM": "past",
        "PREFER_DAY_OF_MONTH": "first",
        "PREFER_MONTH_OF_YEAR": "first",
        "RETURN_AS_TIMEZONE_AWARE": True,
        "TIMEZONE": "UTC",
        "TO_TIMEZONE": "UTC",
    }
    return DateDataParser(languages=list(LANGUAGES), settings=settings, try_previous_locales=False)


def _utc(value: datetime) -> datetime:
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def within_period(
    published: datetime,
    now: datetime,
    time_range: TimeRange | None = None,
    start: date | None = None,
    end: date | None = None,
) -> bool:
    """Tell whether a publication time falls in a request's ``time_range`` or dates.

    Example:
        >>> now = datetime(2026, 7, 10, tzinfo=UTC)
        >>> within_period(datetime(2026, 7, 1, tzinfo=UTC), now, "week")
        False
    """
    if time_range is not None and published < now - SPANS[time_range]:
        return False
    if start is not None and published < datetime.combine(start, time.min, UTC):
        return False
    return end is None or published <= datetime.combine(end, time.max, UTC)
