"""Find date phrases in a question and turn them into date ranges with exact boundaries.

Calendar words name whole periods: "last week" is the previous Monday–Sunday,
"last month" the previous calendar month, "this year" January 1 to December
31, "next month" the coming calendar month. Counted phrases roll back from
today, today included: "past 30 days", "in the last 6 months" (calendar
months), "最近7天". A bare "in 2024", "March 2025", "2025-03", "3/14/2025" or
"2024年3月" is that period; "since"/"from" start at its first day, "after" the
day after its last, "before" end the day before its first, "until" at its
last; "from March to May 2025" or "between 2023 and 2024" is a range.
"upcoming" is from today on, "past" (alone) up to yesterday. A month without
a year is in the current year.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from dateutil import parser as date_parser
from dateutil.relativedelta import relativedelta

from unified_search.db.nl.lexicon import NUMBER_WORDS

_MONTHS = {
    name: index
    for index in range(1, 13)
    for name in (calendar.month_name[index].lower(), calendar.month_abbr[index].lower())
}
_MONTHS["sept"] = 9
_MONTH_RE = "|".join(sorted(_MONTHS, key=len, reverse=True))
_COUNT = r"(\d+|" + "|".join(w for w in NUMBER_WORDS if w.isascii()) + r")"

_EN_DATE = (
    r"(?P<iso{i}>\d{{4}}-\d{{2}}-\d{{2}})|(?P<ym{i}>\d{{4}}-\d{{2}})(?!\d)"
    r"|(?P<slash{i}>\d{{1,2}}/\d{{1,2}}/\d{{4}}|\d{{4}}/\d{{1,2}}/\d{{1,2}})"
    r"|(?:(?P<dayfirst{i}>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?)?(?P<mon{i}>{months})\.?"
    r"(?:\s+(?P<day{i}>\d{{1,2}})(?:st|nd|rd|th)?\b)?,?(?:\s+(?P<year{i}>(?:19|20)\d{{2}}))?"
    r"|(?P<y{i}>(?:19|20)\d{{2}})"
)
_PREPS = (
    r"since|after|from|before|until|till|through|in|during|on|of|earlier than|later than|prior to"
)
_EN = re.compile(
    rf"\b(?:(?P<prep>{_PREPS})\s+(?:the\s+(?:year\s+|month\s+(?:of\s+)?)?)?)?"
    rf"(?:{_EN_DATE.format(i='', months=_MONTH_RE)})\b"
    r"(?:\s+or\s+(?P<post>later|after|newer|more recent|earlier|before|older|sooner)"
    r"|\s+(?P<onwards>onwards|onward|on)\b)?"
)
_EN_RANGE = re.compile(
    rf"\b(?P<prep>from|between)\s+(?:{_EN_DATE.format(i='', months=_MONTH_RE)})"
    rf"\s+(?:to|and|until|till|through|-)\s+(?:{_EN_DATE.format(i='2', months=_MONTH_RE)})\b"
)
_ZH = re.compile(
    r"(?P<y>\d{4})年(?:(?P<m>\d{1,2})月(?:(?P<d>\d{1,2})[日号])?)?(?P<post>以来|之后|以后|后|之前|以前|前)?"
)
_CALENDAR = re.compile(
    r"\b(?P<which>this|last|previous|past|next|coming|current)\s+(?P<unit>weekend|week|month|year)\b"
    r"|\b(?P<day>today|yesterday|tomorrow)\b"
)
_ZH_CALENDAR = re.compile(
    r"上周|上个?星期|本周|这周|上个?月|本月|这个月|下个?月|去年|今年|明年|今天|昨天"
)
_ROLLING = re.compile(
    rf"\b(?:in\s+the\s+|within\s+the\s+|over\s+the\s+|during\s+the\s+|for\s+the\s+)?"
    rf"(?P<dir>last|past|previous|next|coming)\s+(?:(?P<count>{_COUNT[1:-1]})\s+)?(?P<unit>days?|weeks?|months?|years?)\b"
)
_ZH_ROLLING = re.compile(
    r"(?:最近|过去|近)\s*(\d+|[一二两三四五六七八九十])\s*(天|周|个月|月|年)|(\d+)天内"
)
_OPEN = re.compile(
    r"\b(?P<future>upcoming|future|still to come|yet to come|coming up|from now on|ahead)\b"
    r"|\b(?P<past>past|previous|earlier|already happened|(?:took place|happened)(?=\s*(?:[?.!]|$)))"
    r"\b(?!\s+(?:the\s+)?\d)"
)

_BEFORE = {"before", "earlier than", "prior to", "之前", "以前", "前"}
_UNTIL = {"until", "till", "through"}
_AFTER = {"after", "later than", "之后", "以后", "后"}
_SINCE = {"since", "以来"}
_POST_AFTER = {"later", "after", "newer", "more recent"}


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
        which = _WHICH.get(match["which"] or "", "")
        key = match["day"] or f"{which} {match['unit']}"
        low, high = _CALENDAR_PERIODS[key](today)
        yield DateSpan(match.start(), match.end(), low, high)
    for match in _ZH_CALENDAR.finditer(text):
        low, high = _CALENDAR_PERIODS[_ZH_KEYS[match.group()]](today)
        yield DateSpan(match.start(), match.end(), low, high)


_WHICH = {
    "this": "this",
    "current": "this",
    "last": "last",
    "previous": "last",
    "past": "last",
    "next": "next",
    "coming": "next",
}


def _rolling(text: str, today: dt.date) -> Iterator[DateSpan]:
    for match in _ROLLING.finditer(text):
        bare = match["count"] is None and match.group().startswith(match["dir"])
        if bare:
            continue  # "last week", "next month" are calendar periods, read by _calendar
        count = _count(match["count"] or "1")
        unit = match["unit"].rstrip("s")
        if match["dir"] in ("next", "coming"):
            yield DateSpan(match.start(), match.end(), today, _shift(today, count, unit))
        else:
            yield DateSpan(match.start(), match.end(), _shift(today, -count, unit), today)
    for match in _ZH_ROLLING.finditer(text):
        count = _count(match.group(1) or match.group(3))
        unit = {"天": "day", "周": "week", "个月": "month", "月": "month", "年": "year"}
        low = _shift(today, -count, unit.get(match.group(2) or "天", "day"))
        yield DateSpan(match.start(), match.end(), low, today)


def _ranges(text: str, today: dt.date) -> Iterator[DateSpan]:
    for match in _EN_RANGE.finditer(text):
        first, last = _en_period(match, today), _en_period(match, today, "2")
        if first is not None and last is not None:
            if match["mon"] and not match["year"] and match["year2"]:  # "march to may 2025"
                year = int(match["year2"])
                first = (first[0].replace(year=year), first[1].replace(year=year))
            yield DateSpan(match.start(), match.end(), first[0], last[1])


def _absolute(text: str, today: dt.date) -> Iterator[DateSpan]:
    for match in _EN.finditer(text):
        period = _en_period(match, today)
        if period is not None:
            prep = match["prep"] or ""
            if match["post"]:
                prep = "since" if match["post"] in _POST_AFTER else "until"
            elif match["onwards"]:
                prep = "since"
            yield _bounded(match.start(), match.end(), period, prep)
    for match in _ZH.finditer(text):
        month = int(match["m"]) if match["m"] else None
        day = int(match["d"]) if match["d"] else None
        period = _period(int(match["y"]), month, day)
        if period is not None:
            yield _bounded(match.start(), match.end(), period, match["post"] or "")


def _open(text: str, today: dt.date) -> Iterator[DateSpan]:
    for match in _OPEN.finditer(text):
        if match["future"]:
            yield DateSpan(match.start(), match.end(), today, None)
        else:
            yield DateSpan(match.start(), match.end(), None, today - dt.timedelta(days=1))


_FINDERS: tuple[Callable[[str, dt.date], Iterator[DateSpan]], ...] = (
    _rolling,
    _calendar,
    _ranges,
    _absolute,
    _open,
)


def _en_period(match: re.Match[str], today: dt.date, i: str = "") -> tuple[dt.date, dt.date] | None:
    if match[f"iso{i}"]:
        return _period(*(int(p) for p in match[f"iso{i}"].split("-")))
    if match[f"ym{i}"]:
        year, month = (int(p) for p in match[f"ym{i}"].split("-"))
        return _period(year, month, None)
    if match[f"slash{i}"]:
        try:
            day = date_parser.parse(match[f"slash{i}"]).date()
        except (ValueError, OverflowError):
            return None
        return day, day
    if match[f"mon{i}"]:
        day_text = match[f"day{i}"] or match[f"dayfirst{i}"]
        if not (match[f"year{i}"] or match["prep"] or day_text):
            return None  # "may" alone is a verb far more often than a month
        year = int(match[f"year{i}"]) if match[f"year{i}"] else today.year
        return _period(year, _MONTHS[match[f"mon{i}"]], int(day_text) if day_text else None)
    if match[f"y{i}"] and (match["prep"] or _looks_like_year(match)):
        return _period(int(match[f"y{i}"]), None, None)
    return None


def _looks_like_year(match: re.Match[str]) -> bool:
    before = match.string[max(0, match.start() - 12) : match.start()]
    after = match.string[match.end() : match.end() + 8]
    money = re.search(r"[$€£¥]\s*$|\b(?:than|under|over|above|below|least|most)\s*$", before)
    return money is None and re.match(r"\s*(?:dollars?|usd|eur|元|块|%|k\b)", after) is None


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
    if prep in _UNTIL:
        return DateSpan(start, end, None, high)
    if prep in _AFTER:
        return DateSpan(start, end, high + dt.timedelta(days=1), None)
    if prep in _SINCE:
        return DateSpan(start, end, low, None)
    return DateSpan(start, end, low, high)


def _count(text: str) -> int:
    return int(text) if text.isdigit() else NUMBER_WORDS.get(text, 1)


def _shift(today: dt.date, count: int, unit: str) -> dt.date:
    """Move ``count`` days, weeks, calendar months or years from ``today``."""
    step = {"day": relativedelta(days=1), "week": relativedelta(weeks=1)}.get(unit)
    step = step or {"month": relativedelta(months=1), "year": relativedelta(years=1)}[unit]
    shifted: dt.date = today + step * count
    return shifted


def _week(today: dt.date, weeks: int) -> tuple[dt.date, dt.date]:
    monday = today - dt.timedelta(days=today.weekday()) + dt.timedelta(weeks=weeks)
    return monday, monday + dt.timedelta(days=6)


def _weekend(today: dt.date, weeks: int) -> tuple[dt.date, dt.date]:
    saturday = _week(today, weeks)[0] + dt.timedelta(days=5)
    return saturday, saturday + dt.timedelta(days=1)


def _month(today: dt.date, months: int) -> tuple[dt.date, dt.date]:
    first = today.replace(day=1) + relativedelta(months=months)
    return first, first + relativedelta(months=1) - dt.timedelta(days=1)


def _year(today: dt.date, years: int) -> tuple[dt.date, dt.date]:
    return dt.date(today.year + years, 1, 1), dt.date(today.year + years, 12, 31)


def _day(today: dt.date, days: int) -> tuple[dt.date, dt.date]:
    day = today + dt.timedelta(days=days)
    return day, day


Period = Callable[[dt.date], tuple[dt.date, dt.date]]


def _shifted(period: Callable[[dt.date, int], tuple[dt.date, dt.date]], step: int) -> Period:
    return lambda today: period(today, step)


_STEPS = {"this": 0, "last": -1, "next": 1}
_UNITS = {"week": _week, "weekend": _weekend, "month": _month, "year": _year}
_CALENDAR_PERIODS: dict[str, Period] = {
    "today": _shifted(_day, 0),
    "yesterday": _shifted(_day, -1),
    "tomorrow": _shifted(_day, 1),
    **{
        f"{word} {unit}": _shifted(period, step)
        for unit, period in _UNITS.items()
        for word, step in _STEPS.items()
    },
}
_ZH_KEYS = {
    "上周": "last week",
    "上星期": "last week",
    "上个星期": "last week",
    "上个月": "last month",
    "上月": "last month",
    "下个月": "next month",
    "下月": "next month",
    "本周": "this week",
    "这周": "this week",
    "本月": "this month",
    "这个月": "this month",
    "去年": "last year",
    "今年": "this year",
    "明年": "next year",
    "今天": "today",
    "昨天": "yesterday",
}
