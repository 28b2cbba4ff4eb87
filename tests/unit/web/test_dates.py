"""Publication dates in every form providers send, relative ones against an injected clock."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from unified_search.dates import iso_date, parse_date
from unified_search.rerank.signals import freshness
from unified_search.types import ResultItem

NOW = datetime(2026, 7, 10, 12, tzinfo=UTC)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2026/07/02", datetime(2026, 7, 2, tzinfo=UTC)),
        ("Jun 28, 2026", datetime(2026, 6, 28, tzinfo=UTC)),
        ("June 28, 2026", datetime(2026, 6, 28, tzinfo=UTC)),
        ("15/03/2025", datetime(2025, 3, 15, tzinfo=UTC)),
        ("2025-03-15", datetime(2025, 3, 15, tzinfo=UTC)),
        ("2025-03-15T10:00:00Z", datetime(2025, 3, 15, 10, tzinfo=UTC)),
        ("2025-03-15T12:00:00+02:00", datetime(2025, 3, 15, 10, tzinfo=UTC)),
        ("2026-02-11T08:15:00", datetime(2026, 2, 11, 8, 15, tzinfo=UTC)),
        ("Mon, 06 Jan 2025 16:40:47 GMT", datetime(2025, 1, 6, 16, 40, 47, tzinfo=UTC)),
        ("3 weeks ago", datetime(2026, 6, 19, 12, tzinfo=UTC)),
        ("2 hours ago", datetime(2026, 7, 10, 10, tzinfo=UTC)),
        ("1 day ago", datetime(2026, 7, 9, 12, tzinfo=UTC)),
        ("yesterday", datetime(2026, 7, 9, 12, tzinfo=UTC)),
        ("15 mars 2025", datetime(2025, 3, 15, tzinfo=UTC)),
        ("15. März 2025", datetime(2025, 3, 15, tzinfo=UTC)),
        ("vor 2 Tagen", datetime(2026, 7, 8, 12, tzinfo=UTC)),
        ("il y a 3 jours", datetime(2026, 7, 7, 12, tzinfo=UTC)),
        ("hace 3 semanas", datetime(2026, 6, 19, 12, tzinfo=UTC)),
        ("2 天前", datetime(2026, 7, 8, 12, tzinfo=UTC)),
        ("2026年7月2日", datetime(2026, 7, 2, tzinfo=UTC)),
    ],
)
def test_every_provider_format_is_read(value: str, expected: datetime) -> None:
    assert parse_date(value, NOW) == expected


@pytest.mark.parametrize(
    "value", ["", "   ", "not a date", "N/A", "2026-13-45", "sometime soon", "x" * 500]
)
def test_unreadable_dates_are_none(value: str) -> None:
    assert parse_date(value, NOW) is None and iso_date(value, NOW) is None


def test_non_strings_are_no_date() -> None:
    assert iso_date(None, NOW) is None and iso_date(20260702, NOW) is None
    assert iso_date("Jun 28, 2026", NOW) == "2026-06-28T00:00:00+00:00"


def test_relative_dates_follow_the_clock_given() -> None:
    later = datetime(2027, 1, 1, tzinfo=UTC)
    assert parse_date("3 days ago", later) == datetime(2026, 12, 29, tzinfo=UTC)


def test_freshness_uses_every_format() -> None:
    def item(date: str) -> ResultItem:
        return ResultItem(type="web", url="https://x.io", metadata={"published_date": date})

    recent = freshness(item("2 days ago"), "week", NOW)
    written = freshness(item("Jul 8, 2026"), "week", NOW)
    slashed = freshness(item("2026/07/08"), "week", NOW)
    assert recent == pytest.approx(0.5 ** (2 / 7))
    assert written == slashed == pytest.approx(0.5 ** (2.5 / 7))
    assert freshness(item("garbage"), "week", NOW, undated=0.3) == 0.3
    brave = ResultItem(type="web", url="https://x.io", metadata={"age": "3 weeks ago"})
    assert freshness(brave, "month", NOW) == pytest.approx(0.5 ** (21 / 30))
