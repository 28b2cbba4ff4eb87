"""Numbers, dates and text matches placed on columns.

A comparison goes to the numeric column named closest to it (a currency
amount only to a money column), else to the subject's only numeric column;
a bare number ("stock of 0", "400 pages") only right next to its column. A
date range goes to the date column its verb names ("returned in April"), else
to the main date column of the subject or of the related model named before
it. An integer column refuses a fractional value rather than rounding it.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from unified_search.db.dsl import Op, Where
from unified_search.db.nl.lexicon import MEASURE_WORDS, MONEY_WORDS, STOCK_WORDS, YEAR_WORDS
from unified_search.db.nl.reading import NEAR, DateTest, NumberTest, TextTest
from unified_search.db.nl.state import PlanState
from unified_search.db.nl.text import name_words, stems
from unified_search.db.nl.vocabulary import Meaning

_ISO = re.compile(r"\d{4}-\d{2}-\d{2}(?:[ T][\d:.]+)?")
_OR = re.compile(r"\s*,?\s*(?:or|and|,)\s*(?:in\s+)?")
_YEAR_KINDS = ("int", "str", "float")
#: Measures a comparison keeps to: "older than 1" is never about a weight named nearby.
_STRICT = ("age", "weight", "height")
#: "… and are", "… and who were": a clause that speaks of the subject again.
_AND_ARE = re.compile(r"\band\s+(?:(?:who|that|which)\s+)?(?:are|is|was|were)\b")


def number(p: PlanState, test: NumberTest) -> None:
    """Place a comparison on the column it is about, or report it not understood."""
    column = _number_column(p, test)
    values: list[Any] = list(test.values)
    if column is not None and p.column(column).kind == "int":
        column = column if all(v == int(v) for v in values) else None
        values = [int(v) for v in values]
    placed = p.draft.field(column.model, column.column or "") if column else None
    if column is None or placed is None:
        if not test.bare:
            p.unknown.append(p.reading.text[test.start : test.end])
        return
    value: Any = values if test.op is Op.BETWEEN else values[0]
    tested = any(w.field == placed[0] for w in p.draft.wheres)
    if not (test.hint and tested):  # "more than 100 units in stock" already says it
        p.where(placed, Where(field=placed[0], op=test.op, value=value))
    p.understood(test.start, test.end, p.weight(column.model))


def _number_column(p: PlanState, test: NumberTest) -> Meaning | None:
    numeric = ("int", "float")
    if test.hint == "stock":
        stock = p.own(p.draft.schema, numeric, STOCK_WORDS)
        return Meaning("column", p.subject, stock[0].name) if stock else None
    strict = MEASURE_WORDS.get(test.measure or "") if test.measure in _STRICT else None
    fits = (lambda m: bool(strict & set(name_words(m.column or "")))) if strict else None
    near = p.near_column(test.start, test.end, numeric, money=test.currency, fits=fits)
    if near is not None and (not test.bare or _adjacent(p, near, test)):
        return near
    if test.measure is not None:  # "students older than 30": the age of those named before
        return _measured(p, test.start, MEASURE_WORDS[test.measure])
    if test.bare or (not test.currency and p.model_right_after(test) is not None):
        return None  # "more than 5 employees" counts rows (see measures)
    if not test.currency and _things_right_after(p, test):
        return None  # "more than one piece": pieces counted, not a figure tested
    own = p.own(p.draft.schema, numeric)
    money = [c for c in own if MONEY_WORDS & set(name_words(c.name))]
    chosen = money if test.currency else own if len(own) == 1 else []
    if not chosen:
        return None
    for mention in p.mentions:  # "tickets under 20": the word named the ticket price here
        names = {(m.model, m.column) for m in mention.of("column")}
        beside = max(0, mention.start - test.end, test.start - mention.end) <= 12
        if beside and (p.subject, chosen[0].name) in names:
            p.used.add(mention.start)
    return Meaning("column", p.subject, chosen[0].name)


def _things_right_after(p: PlanState, test: NumberTest) -> bool:
    """Tell whether the words right after the number name a text column ("two titles")."""
    return any(
        0 <= m.start - test.end <= 2
        and m.of("column")
        and all(p.column(c).kind == "str" for c in m.of("column"))
        for m in p.mentions
    )


def _measured(p: PlanState, start: int, words: frozenset[str]) -> Meaning | None:
    """The column measuring ``words`` of the model named last before ``start``, else the subject's."""
    before = p.model_before(start)
    if before is not None and _back_to_subject(p, start):
        before = p.subject  # "students who own a dog and are older than 20": the students
    for model in dict.fromkeys([before or p.subject, p.subject]):
        if not p.draft.reachable(model):
            continue
        found = p.own(p.domain.models[model], ("int", "float"), words)
        if found:
            return Meaning("column", model, found[0].name)
    return None


def _back_to_subject(p: PlanState, start: int) -> bool:
    """Tell whether "and are …" before ``start`` returns to the rows the question is about."""
    ends = [m.end for m in p.mentions if (m.of("model") or m.of("value")) and m.end <= start]
    between = p.reading.text[max(ends, default=0) : start]
    return bool(_AND_ARE.search(between))


def _adjacent(p: PlanState, meaning: Meaning, test: NumberTest) -> bool:
    """A bare number counts only right next to its column ("stock of 0", "400 pages")."""
    return any(
        meaning in m.meanings and max(0, m.start - test.end, test.start - m.end) <= 12
        for m in p.mentions
    )


def dates(p: PlanState, found: list[DateTest]) -> None:
    """Place date ranges; ranges joined by "or" are alternatives ("in 2014 or 2015")."""
    groups: list[list[DateTest]] = []
    for date in found:
        joined = groups and _OR.fullmatch(p.reading.text[groups[-1][-1].end : date.start])
        if joined:
            groups[-1].append(date)
        else:
            groups.append([date])
    for group in groups:
        _date_group(p, group)


def _date_group(p: PlanState, group: list[DateTest]) -> None:
    """Place one date range (or alternatives) on its date column, else on a year column."""
    start, end = group[0].start, group[-1].end
    column = p.near_column(start, end, ("date", "datetime")) or _year_near(p, start, end)
    column = column or _dated(p, start)
    iso = column is None or not _whole_years_of(group)
    texts = _iso_texts(p, start) if iso else None  # "on 2008-04-26" over dates held as text
    column = texts or column
    placed = p.draft.field(column.model, column.column or "") if column else None
    years = (
        texts is None and column is not None and p.column(column).kind not in ("date", "datetime")
    )
    if column is None or placed is None or (years and not all(map(_whole_years, group))):
        p.unknown.append(p.reading.text[start:end])
        return
    kind = "datetime" if texts else p.column(column).kind  # text may carry a time of day
    tests = [
        _year_wheres(placed[0], kind, d) if years else _date_wheres(placed[0], kind, d.low, d.high)
        for d in group
    ]
    alternatives = [t[0] if len(t) == 1 else Where(wheres=t) for t in tests]
    if len(alternatives) > 1:
        p.where(placed, Where(or_=alternatives))
    else:
        for where in tests[0]:
            p.where(placed, where)
    p.understood(start, end, p.weight(column.model))


def _whole_years_of(group: list[DateTest]) -> bool:
    return all(map(_whole_years, group))


def _iso_texts(p: PlanState, start: int) -> Meaning | None:
    """A text column of ISO dates ("2008-04-26"), named for dates: it compares as dates do."""
    for model in p.models_near(start):
        sample = p.domain.samples.get(model)
        for column in p.own(p.domain.models[model], ("str",), frozenset({"date", "day"})):
            values = sample.categories.get(column.name, ()) if sample else ()
            if values and all(_ISO.fullmatch(v) for v in values):
                return Meaning("column", model, column.name)
    return None


def _year_near(p: PlanState, start: int, end: int) -> Meaning | None:
    """A column named for years ("year", "founded_year") right next to the date phrase."""
    return p.near_column(start - NEAR, end, _YEAR_KINDS, fits=_is_year)


def _dated(p: PlanState, start: int) -> Meaning | None:
    """The main date column (see ``PlanState.main_date``), else a year column, the subject's first.

    A model named right before the phrase comes first ("singers who sang in a concert in 2014").
    """
    before = p.model_before(start)
    near = [m for m in p.mentions if m.of("model") and 0 <= start - m.end <= 12]
    dated = p.main_date(start)
    if near and before is not None and before != p.subject and p.draft.reachable(before):
        years = [c for c in p.own(p.domain.models[before], _YEAR_KINDS) if _is_year_name(c.name)]
        own_date = p.main_date_of(before)
        if own_date is None and years:
            return Meaning("column", before, years[0].name)
    if dated is not None:
        return dated
    for model in p.models_near(start):
        years = [c for c in p.own(p.domain.models[model], _YEAR_KINDS) if _is_year_name(c.name)]
        if years:
            return Meaning("column", model, years[0].name)
    return None


def _is_year(meaning: Meaning) -> bool:
    return _is_year_name(meaning.column or "")


def _is_year_name(name: str) -> bool:
    return bool(YEAR_WORDS & set(name_words(name)))


def _whole_years(date: DateTest) -> bool:
    """Tell whether a range starts on 1 January and ends on 31 December (either end may be open)."""
    low_ok = date.low is None or date.low.endswith("-01-01")
    high_ok = date.high is None or date.high.endswith("-12-31")
    return low_ok and high_ok and (date.low is not None or date.high is not None)


def _year_wheres(name: str, kind: str, date: DateTest) -> list[Where]:
    """Compare a year column with the years of a range (as text when the column holds text)."""
    low = int(date.low[:4]) if date.low else None
    high = int(date.high[:4]) if date.high else None

    def value(year: int) -> int | str:
        return str(year) if kind == "str" else year

    if low is not None and low == high:
        return [Where(field=name, op=Op.EQ, value=value(low))]
    if low is not None and high is not None:
        return [Where(field=name, op=Op.BETWEEN, value=[value(low), value(high)])]
    if low is not None:
        return [Where(field=name, op=Op.GE, value=value(low))]
    assert high is not None
    return [Where(field=name, op=Op.LE, value=value(high))]


def text(p: PlanState, test: TextTest) -> None:
    """Place "contains …" on the text column named before it, else on the searchable ones.

    "'Hey' in its name" names the column after the text, and only that column will do.
    """
    if test.column is not None:
        start, end = test.column
        column = _owned_column(p, test) or p.near_column(
            start, start, ("str",), fits=lambda m: within(p, m, start, end)
        )
        if column is None:
            p.unknown.append(p.reading.text[start:end])
            return
    else:
        column = p.near_column(test.start - NEAR, test.start, ("str",))
    if column is not None:
        targets = [p.draft.field(column.model, column.column or "")]
    else:
        targets = [p.draft.field(p.subject, c) for c in p.draft.schema.searchable]
    placed = [t for t in targets if t is not None]
    pattern = test.pattern
    tests = [Where(field=name, op=Op.LIKE, value=pattern) for name, _ in placed]
    if not tests:
        p.unknown.append(test.text)
        return
    p.where(placed[0], tests[0] if len(tests) == 1 else Where(or_=tests))
    p.understood(test.start, test.end, 1)


def _date_wheres(name: str, kind: str, low: str | None, high: str | None) -> list[Where]:
    if kind == "datetime" and high is not None:
        # Whole days: a timestamp on the last day still counts.
        after = (dt.date.fromisoformat(high) + dt.timedelta(days=1)).isoformat()
        lower = [Where(field=name, op=Op.GE, value=low)] if low else []
        return [*lower, Where(field=name, op=Op.LT, value=after)]
    if low is not None and high is not None:
        return [Where(field=name, op=Op.BETWEEN, value=[low, high])]
    if low is not None:
        return [Where(field=name, op=Op.GE, value=low)]
    return [Where(field=name, op=Op.LE, value=high)]


def _owned_column(p: PlanState, test: TextTest) -> Meaning | None:
    """The text column named by the owner word and the column word: "song" + "name" → song_name."""
    if test.owner is None or test.column is None:
        return None
    wanted = set(stems(f"{test.owner} {p.reading.text[test.column[0] : test.column[1]]}"))
    for model in p.models_near(test.start):
        for column in p.own(p.domain.models[model], ("str",)):
            if wanted <= set(stems(" ".join(name_words(column.name)))):
                p.reading.take(*test.column)
                return Meaning("column", model, column.name)
    return None


def within(p: PlanState, meaning: Meaning, start: int, end: int) -> bool:
    """Tell whether a phrase inside ``start:end`` names ``meaning``."""
    return any(start <= m.start and m.end <= end and meaning in m.meanings for m in p.mentions)
