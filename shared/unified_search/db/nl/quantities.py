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
from typing import Any

from unified_search.db.dsl import Op, Where
from unified_search.db.nl.lexicon import MONEY_WORDS, STOCK_WORDS
from unified_search.db.nl.reading import NEAR, DateTest, NumberTest, TextTest
from unified_search.db.nl.state import PlanState
from unified_search.db.nl.text import name_words
from unified_search.db.nl.vocabulary import Meaning


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
    near = p.near_column(test.start, test.end, numeric, money=test.currency)
    if near is not None and (not test.bare or _adjacent(p, near, test)):
        return near
    if test.bare or (not test.currency and p.model_right_after(test) is not None):
        return None  # "more than 5 employees" counts rows (see measures)
    own = p.own(p.draft.schema, numeric)
    money = [c for c in own if MONEY_WORDS & set(name_words(c.name))]
    chosen = (money or own) if test.currency else own if len(own) == 1 else []
    if not chosen:
        return None
    for mention in p.mentions:  # "tickets under 20": the word named the ticket price here
        names = {(m.model, m.column) for m in mention.of("column")}
        beside = max(0, mention.start - test.end, test.start - mention.end) <= 12
        if beside and (p.subject, chosen[0].name) in names:
            p.used.add(mention.start)
    return Meaning("column", p.subject, chosen[0].name)


def _adjacent(p: PlanState, meaning: Meaning, test: NumberTest) -> bool:
    """A bare number counts only right next to its column ("stock of 0", "400 pages")."""
    return any(
        meaning in m.meanings and max(0, m.start - test.end, test.start - m.end) <= 12
        for m in p.mentions
    )


def date(p: PlanState, date: DateTest) -> None:
    """Place a date range on the date column it is about."""
    column = p.near_column(date.start, date.end, ("date", "datetime"))
    column = column or p.main_date(date.start)
    placed = p.draft.field(column.model, column.column or "") if column else None
    if column is None or placed is None:
        p.unknown.append(p.reading.text[date.start : date.end])
        return
    for where in _date_wheres(placed[0], p.column(column).kind, date.low, date.high):
        p.where(placed, where)
    p.understood(date.start, date.end, p.weight(column.model))


def text(p: PlanState, test: TextTest) -> None:
    """Place "contains …" on the text column named before it, else on the searchable ones."""
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
