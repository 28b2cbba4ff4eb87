"""Find date phrases in a question and turn them into date ranges.

Calendar words name whole periods: "last week" is the previous Monday–Sunday,
"last month" the previous calendar month, "this year" January 1 to today.
Counted phrases roll back from today: "past 30 days", "in the last 2 weeks",
"最近7天". A bare "in 2024", "March 2025", "2025-03" or "2024年3月" is that
period; "since"/"after"/"before" make it a bound, and "from March to May
2025" or "between 2023 and 2024" a range.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from unified_search.db.lexicon import NUMBER_WORDS

_MONTHS = {
    name: index
    for index in range(1, 13)
    for name in (calendar.month_name[index].lower(), calendar.month_abbr[index].lower())
}
_MONTHS["sept"] = 9
_MONTH_RE = "|".join(sorted(_MONTHS, key=len, reverse=True))
_COUNT = r"(\d+|" + "|".join(NUMBER_WORDS) + r")"

_EN_DATE = (
    r"(?P<iso{i}>\d{{4}}-\d{{2}}-\d{{2}})|(?P<ym{i}>\d{{4}}-\d{{2}})(?!\d)"
    r"|(?P<mon{i}>{months})\.?(?:\s+(?P<day{i}>\d{{1,2}})(?:st|nd|rd|th)?)?,?(?:\s+(?P<year{i}>\d{{4}}))?"
    r"|(?P<y{i}>(?:19|20)\d{{2}})"
)
_EN = re.compile(
    r"\b(?:(?P<prep>since|after|from|before|until|till|in|during|on|of)\s+(?:the\s+)?)?"
    rf"(?:{_EN_DATE.format(i='', months=_MONTH_RE)})\b"
)
_EN_RANGE = re.compile(
    rf"\b(?P<prep>from|between)\s+(?:{_EN_DATE.format(i='', months=_MONTH_RE)})"
    rf"\s+(?:to|and|until|till|through|-)\s+(?:{_EN_DATE.format(i='2', months=_MONTH_RE)})\b"
)
_ZH = re.compile(
    r"(?P<y>\d{4})年(?:(?P<m>\d{1,2})月(?:(?P<d>\d{1,2})[日号])?)?(?P<post>以来|之后|以后|后|之前|以前|前)?"
)
_CALENDAR = re.compile(
    r"\b(?P<which>this|last|previous)\s+(?P<unit>week|month|year)\b|\b(?P<day>today|yesterday)\b"
)
_ZH_CALENDAR = re.compile(r"上周|上个?星期|本周|这周|上个?月|本月|这个月|去年|今年|今天|昨天")
_ROLLING = re.compile(
    rf"\b(?:in\s+the\s+|within\s+the\s+|over\s+the\s+)?(?:last|past)\s+(?:{_COUNT}\s+)?(?P<unit>days?|weeks?|months?|years?)\b"
)
_ZH_ROLLING = re.compile(
    r"(?:最近|过去|近)\s*(\d+|[一二两三四五六七八九十])\s*(天|周|个月|月|年)|(\d+)天内"
)

_BEFORE = {"before", "until", "till", "之前", "以前", "前"}
_AFTER = {"after", "之后", "以后", "后"}
_SINCE = {"since", "from", "以来"}


@dataclass(frozen=True)
class DateSpan:
    """A date phrase found at ``start:end``: rows with dates in ``low..high`` (either may be open).

    Example:
        >>> find_dates("since 2024", dt.date(2025, 6, 15))[0].low
        datetime.date(2024, 1, 1)
    """

    start: int
    end: int
    low: dt.date | None
    high: dt.date | None


def find_dates(text: str, today: dt.date) -> list[DateSpan]:
    """Return the date phrases of ``text``, longest first where they overlap."""
    found: list[DateSpan] = []
    for finder in _FINDERS:
        for span in finder(text, today):
            if not any(span.start < f.end and f.start < span.end for f in found):
                found.append(span)
    return sorted(found, key=lambda s: s.start)


def _calendar(text: str, today: dt.date) -> Iterator[DateSpan]:
    for match in _CALENDAR.finditer(text):
        key = match["day"] or f"{match['which'].replace('previous', 'last')} {match['unit']}"
        low, high = _CALENDAR_PERIODS[key](today)
        yield DateSpan(match.start(), match.end(), low, high)
    for match in _ZH_CALENDAR.finditer(text):
        low, high = _CALENDAR_PERIODS[_ZH_KEYS[match.group()]](today)
        yield DateSpan(match.start(), match.end(), low, high)


def _rolling(text: str, today: dt.date) -> Iterator[DateSpan]:
    for match in _ROLLING.finditer(text):
        if match.group().startswith("last") and match.group(1) is None:
            continue  # bare "last week" is the calendar week, handled by _calendar
        count = _count(match.group(1) or "1")
        yield DateSpan(match.start(), match.end(), _back(today, count, match["unit"]), None)
    for match in _ZH_ROLLING.finditer(text):
        count = _count(match.group(1) or match.group(3))
        unit = {"天": "day", "周": "week", "个月": "month", "月": "month", "年": "year"}
        low = _back(today, count, unit.get(match.group(2) or "天", "day"))
        yield DateSpan(match.start(), match.end(), low, None)


def _ranges(text: str, today: dt.date) -> Iterator[DateSpan]:
    for match in _EN_RANGE.finditer(text):
        first, last = _en_period(match, today), _en_period(match, today, "2")
        if first is not None and last is not None:
            yield DateSpan(match.start(), match.end(), first[0], last[1])


def _absolute(text: str, today: dt.date) -> Iterator[DateSpan]:
    for match in _EN.finditer(text):
        period = _en_period(match, today)
        if period is not None:
            yield _bounded(match.start(), match.end(), period, match["prep"] or "")
    for match in _ZH.finditer(text):
        month = int(match["m"]) if match["m"] else None
        day = int(match["d"]) if match["d"] else None
        period = _period(int(match["y"]), month, day)
        if period is not None:
            yield _bounded(match.start(), match.end(), period, match["post"] or "")


_FINDERS: tuple[Callable[[str, dt.date], Iterator[DateSpan]], ...] = (
    _rolling,
    _calendar,
    _ranges,
    _absolute,
)


def _en_period(match: re.Match[str], today: dt.date, i: str = "") -> tuple[dt.date, dt.date] | None:
    if match[f"iso{i}"]:
        return _period(*(int(p) for p in match[f"iso{i}"].split("-")))
    if match[f"ym{i}"]:
        year, month = (int(p) for p in match[f"ym{i}"].split("-"))
        return _period(year, month, None)
    if match[f"mon{i}"]:
        if not (match[f"year{i}"] or match["prep"]):
            return None  # "may" alone is a verb far more often than a month
        year = int(match[f"year{i}"]) if match[f"year{i}"] else today.year
        day = int(match[f"day{i}"]) if match[f"day{i}"] else None
        return _period(year, _MONTHS[match[f"mon{i}"]], day)
    if match[f"y{i}"] and (match["prep"] or _looks_like_year(match)):
        return _period(int(match[f"y{i}"]), None, None)
    return None


def _looks_like_year(match: re.Match[str]) -> bool:
    before = match.string[max(0, match.start() - 12) : match.start()]
    after = match.string[match.end() : match.end() + 8]
    money = re.search(r"[$€£¥]\s*$|\b(?:than|under|over|above|below|least|most)\s*$", before)
    return money is None and re.match(r"\s*(?:dollars?|usd|eur|元|块|%)", after) is None


def _period(year: int, month: int | None, day: int | None) -> tuple[dt.date, dt.date] | None:
    try:
        if month is None:
            return dt.date(year, 1, 1), dt.date(year, 12, 31)
        if day is None:
            return dt.date(year, month, 1), dt.date(
                year, month, calendar.monthrange(year, month)[1]
            )
        return dt.date(year, month, day), dt.date(year, month, day)
    except ValueError:
        return None


def _bounded(start: int, end: int, period: tuple[dt.date, dt.date], prep: str) -> DateSpan:
    low, high = period
    if prep in _BEFORE:
        return DateSpan(start, end, None, low - dt.timedelta(days=1))
    if prep in _AFTER:
        return DateSpan(start, end, high + dt.timedelta(days=1), None)
    if prep in _SINCE:
        return DateSpan(start, end, low, None)
    return DateSpan(start, end, low, high)


def _count(text: str) -> int:
    return int(text) if text.isdigit() else NUMBER_WORDS.get(text, 1)


def _back(today: dt.date, count: int, unit: str) -> dt.date:
    days = {"day": 1, "week": 7, "month": 30, "year": 365}[unit.rstrip("s")]
    return today - dt.timedelta(days=days * count)


def _week(today: dt.date, weeks_back: int) -> tuple[dt.date, dt.date | None]:
    monday = today - dt.timedelta(days=today.weekday() + 7 * weeks_back)
    return monday, (monday + dt.timedelta(days=6)) if weeks_back else None


def _last_month(today: dt.date) -> tuple[dt.date, dt.date]:
    end = today.replace(day=1) - dt.timedelta(days=1)
    return end.replace(day=1), end


_CALENDAR_PERIODS: dict[str, Callable[[dt.date], tuple[dt.date | None, dt.date | None]]] = {
    "today": lambda t: (t, t),
    "yesterday": lambda t: (t - dt.timedelta(days=1), t - dt.timedelta(days=1)),
    "this week": lambda t: _week(t, 0),
    "last week": lambda t: _week(t, 1),
    "this month": lambda t: (t.replace(day=1), None),
    "last month": _last_month,
    "this year": lambda t: (dt.date(t.year, 1, 1), None),
    "last year": lambda t: (dt.date(t.year - 1, 1, 1), dt.date(t.year - 1, 12, 31)),
}
_ZH_KEYS = {
    "上周": "last week",
    "上星期": "last week",
    "上个星期": "last week",
    "上个月": "last month",
    "上月": "last month",
    "本周": "this week",
    "这周": "this week",
    "本月": "this month",
    "这个月": "this month",
    "去年": "last year",
    "今年": "this year",
    "今天": "today",
    "昨天": "yesterday",
}
