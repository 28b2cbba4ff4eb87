"""Publication dates in every form providers send, relative ones against an injected clock."""

from __future__ import annotations

from datetime import UTC, datetime

import httpx
import pytest

from unified_search.dates import iso_date, parse_date
from unified_search.rerank.signals import freshness
from unified_search.types import ResultItem, SearchRequest
from unified_search.web.provider import CallSettings
from unified_search.web.registry import PROVIDERS

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


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        # SerpApi's Google News stamp, dotted and spelt-out European dates, more scripts
        ("06/28/2026, 07:00 AM, +0000 UTC", datetime(2026, 6, 28, 7, tzinfo=UTC)),
        ("28.06.2026", datetime(2026, 6, 28, tzinfo=UTC)),
        ("28 juin 2026", datetime(2026, 6, 28, tzinfo=UTC)),
        ("28. Juni 2026", datetime(2026, 6, 28, tzinfo=UTC)),
        ("hace 3 días", datetime(2026, 7, 7, 12, tzinfo=UTC)),
        ("3日前", datetime(2026, 7, 7, 12, tzinfo=UTC)),
        ("3시간 전", datetime(2026, 7, 10, 9, tzinfo=UTC)),
        ("2 дня назад", datetime(2026, 7, 8, 12, tzinfo=UTC)),
        ("há 2 dias", datetime(2026, 7, 8, 12, tzinfo=UTC)),
        ("2 giorni fa", datetime(2026, 7, 8, 12, tzinfo=UTC)),
        ("5 mins ago", datetime(2026, 7, 10, 11, 55, tzinfo=UTC)),
        ("3 wk ago", datetime(2026, 6, 19, 12, tzinfo=UTC)),
        ("just now", NOW),
        ("tomorrow", datetime(2026, 7, 11, 12, tzinfo=UTC)),  # within a day: time zones
        # without a day: the first of the month or year, never today's date
        ("Jun 2026", datetime(2026, 6, 1, tzinfo=UTC)),
        ("2026-06", datetime(2026, 6, 1, tzinfo=UTC)),
        ("2025", datetime(2025, 1, 1, tzinfo=UTC)),
    ],
)
def test_more_locales_and_partial_dates(value: str, expected: datetime) -> None:
    assert parse_date(value, NOW) == expected


@pytest.mark.parametrize(
    "value",
    [
        "0000-00-00",
        "31/02/2026",
        "june 31 2026",
        "9999-99-99",
        "2026-06-28T10:00:00+25:00",
        "Sponsored",
        "LIVE",
        "Updated",
        "null",
        "-",
        "\u200b",
        "3 weeks ago, updated",
        "2099-01-01",  # in the future: not a publication date
        "in 3 days",
        "2026-07-20T00:00:00Z",
    ],
)
def test_malformed_and_future_dates_are_none(value: str) -> None:
    assert parse_date(value, NOW) is None and iso_date(value, NOW) is None


URL = "https://x.io/a"
#: One result per provider whose date field holds what no reader can make a date of.
UNDATED = {
    "serper": {
        "searchParameters": {},
        "organic": [{"title": "T", "link": URL, "date": "Sponsored"}],
    },
    "serpapi": {
        "search_metadata": {"status": "Success"},
        "organic_results": [{"title": "T", "link": URL, "date": "0000-00-00"}],
    },
    "brave": {
        "type": "search",
        "web": {"results": [{"title": "T", "url": URL, "page_age": "2099-01-01", "age": "LIVE"}]},
    },
    "exa": {"results": [{"title": "T", "url": URL, "publishedDate": "not-a-date"}]},
    "searxng": {"results": [{"title": "T", "url": URL, "publishedDate": "9999-99-99"}]},
    "tavily": {"results": [{"title": "T", "url": URL, "published_date": "Mon, 99 Foo 2026"}]},
}


@pytest.mark.parametrize("name", sorted(UNDATED))
def test_an_item_with_a_malformed_date_is_kept_without_one(name: str) -> None:
    answer = PROVIDERS[name].parse_response(
        httpx.Response(200, json=UNDATED[name]),
        SearchRequest(query="q"),
        CallSettings(limit=5, engine="google", now=NOW),
    )
    (item,) = answer.items
    assert item.url == URL and "published_date" not in item.metadata
