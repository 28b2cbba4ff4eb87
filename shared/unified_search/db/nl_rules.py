"""The rules of the builtin generator: numbers, dates, stock, ordering, limits and categories.

Each rule reads ``Draft.rest``, appends DSL conditions or orders, and marks
what it used. Rules never raise on odd text: a phrase they cannot place on a
column is left for the keyword step.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping, Sequence
from typing import Any

from unified_search.db.dates import find_dates
from unified_search.db.draft import Draft, is_money, value_columns, word_pattern
from unified_search.db.dsl import Op, Order, Where
from unified_search.db.lexicon import (
    CURRENCY,
    NUMBER_WORDS,
    POPULARITY_WORDS,
    RATING_WORDS,
    STOCK_WORDS,
    forms,
    name_words,
)
from unified_search.db.schema import ColumnInfo

_NUM = r"(?P<cur{i}>[$€£¥])?\s*(?P<num{i}>\d+(?:\.\d+)?)\s*(?P<k{i}>k\b)?"
_N1, _N2 = _NUM.format(i=1), _NUM.format(i=2)
_PREFIX_OPS: dict[Op, str] = {
    Op.LE: r"no more than|not more than|at most|up to|max(?:imum)?(?: of)?|<=|不超过|不高于|最多|至多",
    Op.GE: r"at least|no less than|not less than|min(?:imum)?(?: of)?|>=|至少|不低于|不少于|最少",
    Op.LT: r"under|below|less than|lower than|fewer than|cheaper than|smaller than|<|低于|小于|少于|不到",
    Op.GT: r"over|above|more than|greater than|higher than|larger than|bigger than|exceeding|pricier than|more expensive than|>|高于|大于|超过|多于",
    Op.EQ: r"exactly|equal to|equals|等于",
}
_POSTFIX_OPS: dict[str, Op] = {
    "or more": Op.GE,
    "or higher": Op.GE,
    "or above": Op.GE,
    "and up": Op.GE,
    "and above": Op.GE,
    "+": Op.GE,
    "plus": Op.GE,
    "以上": Op.GE,
    "及以上": Op.GE,
    "or less": Op.LE,
    "or fewer": Op.LE,
    "or lower": Op.LE,
    "or below": Op.LE,
    "and under": Op.LE,
    "以下": Op.LE,
    "以内": Op.LE,
    "及以下": Op.LE,
}
_UNIT = r"(?:\s*(?:[a-z]+|元|块|美元|星|分|个|件))?"
_PREFIX = {op: re.compile(rf"(?<![a-z])(?:{alts})\s*{_N1}") for op, alts in _PREFIX_OPS.items()}
_POSTFIX = re.compile(
    rf"{_N1}(?P<unit>{_UNIT})\s*(?P<post>{'|'.join(re.escape(p) for p in sorted(_POSTFIX_OPS, key=len, reverse=True))})"
)
_BETWEEN = re.compile(
    rf"(?:\bbetween\s+|\bfrom\s+|在|介于)?{_N1}{_UNIT}\s*(?:and|to|-|–|~|到|至|和)\s*{_N2}{_UNIT}\s*(?:之间)?"
)
_IN_STOCK = re.compile(r"\bin[- ]stock\b|\bavailable\b|有货|有库存|现货")
_OUT_OF_STOCK = re.compile(r"\bout[- ]of[- ]stock\b|\bsold[- ]out\b|\bunavailable\b|缺货|无货|没货")
_TERM_VALUE = re.compile(rf"\s*(?:of|is|=|:|equal to|为|是|等于)?\s*{_N1}(?![\d.])")
_MISSING = re.compile(r"(?:\b(?:no|without|missing)\s+(?:an?\s+)?|没有|无)$")
_NEGATION = re.compile(
    r"(?:\bnot|\bnon|\bexcept|\bexcluding|\bwithout|\bother than|\bno|不是|除了|非)\s*-?\s*$"
)


def number_value(match: re.Match[str], i: int = 1) -> float:
    """Read the number of group ``i`` (``5k`` → 5000)."""
    value = float(match[f"num{i}"])
    return value * 1000 if match[f"k{i}"] else value


def _numeric(column: ColumnInfo, op: Op, values: Sequence[float]) -> Where | None:
    if column.kind == "int":
        if any(v != int(v) for v in values):
            return None
        values = [int(v) for v in values]
    value: Any = list(values) if op is Op.BETWEEN else values[0]
    return Where(field=column.name, op=op, value=value)


def _column_for_number(draft: Draft, start: int, end: int, currency: bool) -> ColumnInfo | None:
    numeric = value_columns(draft.schema, ("int", "float"))
    near = draft.nearest(start, end, numeric)
    if near is not None:
        return near
    money = [c for c in numeric if is_money(c)]
    if currency and money:
        return money[0]
    return numeric[0] if len(numeric) == 1 else None


def apply_comparisons(draft: Draft) -> None:
    """Read "between 10 and 20", "under $100", "4 stars or more", "至少4星" and the like."""
    for match in list(_BETWEEN.finditer(draft.rest)):
        if match.group().strip()[0].isdigit() and not _has_unit(match):
            continue  # a bare "3-4" is too ambiguous to be a range
        _place(draft, match, Op.BETWEEN, [number_value(match, 1), number_value(match, 2)])
    for match in list(_POSTFIX.finditer(draft.rest)):
        _place(draft, match, _POSTFIX_OPS[match["post"]], [number_value(match)])
    for op, pattern in _PREFIX.items():  # "no more than" is read before "more than"
        for match in list(pattern.finditer(draft.rest)):
            _place(draft, match, op, [number_value(match)])


def _has_unit(match: re.Match[str]) -> bool:
    return bool(
        match["cur1"]
        or match["cur2"]
        or CURRENCY.search(match.group())
        or re.match(r"(?:between|from|在|介于)", match.group())
    )


def _place(draft: Draft, match: re.Match[str], op: Op, values: list[float]) -> None:
    if draft.rest[match.start() : match.end()] != match.group():
        return  # an earlier rule already used part of this phrase
    currency = bool(CURRENCY.search(draft.text[match.start() : match.end() + 8]))
    column = _column_for_number(draft, match.start(), match.end(), currency)
    where = _numeric(column, op, values) if column is not None else None
    if where is not None:
        draft.wheres.append(where)
        draft.take(match.start(), match.end())


def apply_term_values(draft: Draft) -> None:
    """Read "quantity 3", "rating of 5", "库存为0": a column word right before a number."""
    numeric = {c.name: c for c in value_columns(draft.schema, ("int", "float"))}
    for term in sorted(draft.terms, key=lambda t: t.start):
        if term.column not in numeric:
            continue
        match = _TERM_VALUE.match(draft.rest, term.end)
        if match is None or draft.rest[term.start : term.end].strip() == "":
            continue
        where = _numeric(numeric[term.column], Op.EQ, [number_value(match)])
        if where is not None:
            draft.wheres.append(where)
            draft.take(term.start, match.end())


def apply_missing(draft: Draft) -> None:
    """Read "no rating", "without a description", "没有评分": ``is null`` on a nullable column."""
    nullable = {c.name: c for c in draft.schema.columns.values() if c.nullable}
    for term in draft.terms:
        before = draft.rest[max(0, term.start - 16) : term.start]
        if term.column in nullable and _MISSING.search(before):
            found = _MISSING.search(before)
            assert found is not None
            draft.wheres.append(Where(field=term.column, op=Op.IS_NULL))
            draft.take(term.start - len(before) + found.start(), term.end)


def _date_column(draft: Draft, start: int, end: int) -> ColumnInfo | None:
    dated = value_columns(draft.schema, ("date", "datetime"))
    return draft.nearest(start, end, dated) or (dated[0] if dated else None)


def apply_dates(draft: Draft, today: dt.date) -> None:
    """Read "last week", "since 2024", "in March 2025", "去年" on the model's date column."""
    for span in find_dates(draft.rest, today):
        column = _date_column(draft, span.start, span.end)
        if column is None:
            return
        draft.wheres += _date_wheres(column, span.low, span.high)
        draft.take(span.start, span.end)


def _date_wheres(column: ColumnInfo, low: dt.date | None, high: dt.date | None) -> list[Where]:
    if column.kind == "datetime" and high is not None:
        # Whole days: a timestamp on the last day still counts.
        after = high + dt.timedelta(days=1)
        upper = Where(field=column.name, op=Op.LT, value=after.isoformat())
        lower = [Where(field=column.name, op=Op.GE, value=low.isoformat())] if low else []
        return [*lower, upper]
    if low is not None and high is not None:
        return [Where(field=column.name, op=Op.BETWEEN, value=[low.isoformat(), high.isoformat()])]
    if low is not None:
        return [Where(field=column.name, op=Op.GE, value=low.isoformat())]
    assert high is not None
    return [Where(field=column.name, op=Op.LE, value=high.isoformat())]


def apply_stock(draft: Draft) -> None:
    """Read "in stock" / "out of stock" on a stock-like count column."""
    stock = [
        c for c in value_columns(draft.schema, ("int",)) if STOCK_WORDS & set(name_words(c.name))
    ]
    if not stock or any(w.field == stock[0].name for w in draft.wheres):
        return  # "more than 100 units in stock" already says it
    for pattern, op in ((_OUT_OF_STOCK, Op.LE), (_IN_STOCK, Op.GT)):
        for match in list(pattern.finditer(draft.rest)):
            draft.wheres.append(Where(field=stock[0].name, op=op, value=0))
            draft.take(match.start(), match.end())


def apply_categories(draft: Draft, samples: Mapping[str, Sequence[str]]) -> None:
    """Turn category values named in the question into ``=``/``in`` (``!=``/``not in`` after "not")."""
    for column, values in samples.items():
        if column in draft.schema.settings.permission:
            continue
        found, negated = _find_values(draft, values)
        if found:
            draft.wheres.append(_membership(column, found, negated))
            draft.score += 2 * len(found)


def _find_values(draft: Draft, values: Sequence[str]) -> tuple[list[str], bool]:
    found: list[str] = []
    negated = False
    for value in sorted(values, key=len, reverse=True):
        for spelling in sorted(forms(value.lower()), key=len, reverse=True):
            match = word_pattern(spelling).search(draft.rest)
            if match is None or not spelling.strip():
                continue
            negation = _NEGATION.search(draft.rest[: match.start()])
            negated = negated or negation is not None
            found.append(value)
            draft.take(negation.start() if negation else match.start(), match.end())
            break
    return found, negated


def _membership(column: str, values: list[str], negated: bool) -> Where:
    if len(values) == 1:
        return Where(field=column, op=Op.NE if negated else Op.EQ, value=values[0])
    return Where(field=column, op=Op.NOT_IN if negated else Op.IN, value=values)


def _count(text: str) -> int | None:
    if text.isdigit():
        return int(text) or None
    return NUMBER_WORDS.get(text)


_COUNT = r"(\d+|" + "|".join(NUMBER_WORDS) + r")"
_LIMITS = (
    re.compile(rf"\b(?:top|first)\s+{_COUNT}\b"),
    re.compile(rf"前\s*{_COUNT}\s*(?:个|款|件|条|位|名|种)?"),
)


def apply_limit(draft: Draft) -> None:
    """Read "top 5", "first three", "前3个"."""
    for pattern in _LIMITS:
        match = pattern.search(draft.rest)
        if match is not None and _count(match.group(1)):
            draft.limit = _count(match.group(1))
            draft.take(match.start(), match.end())
            return


def rating_column(draft: Draft) -> ColumnInfo | None:
    """Return the model's rating-like column, if it has one."""
    return _named(draft, RATING_WORDS, ("int", "float"))


def popularity_column(draft: Draft) -> ColumnInfo | None:
    """Return the model's sales-count column, else its rating column."""
    return _named(draft, POPULARITY_WORDS, ("int", "float")) or rating_column(draft)


def money_column(draft: Draft) -> ColumnInfo | None:
    """Return the model's first money column."""
    return next((c for c in value_columns(draft.schema, ("int", "float")) if is_money(c)), None)


def date_column(draft: Draft) -> ColumnInfo | None:
    """Return the model's main date column."""
    return _date_column(draft, 0, 0)


def _named(draft: Draft, words: frozenset[str], kinds: Sequence[str]) -> ColumnInfo | None:
    columns = value_columns(draft.schema, kinds)
    return next((c for c in columns if words & set(name_words(c.name))), None)


def add_order(draft: Draft, column: ColumnInfo | None, sort: str, start: int, end: int) -> bool:
    """Order by ``column`` (once per column) and mark the phrase used."""
    if column is None:
        return False
    if all(o.field != column.name for o in draft.orders):
        draft.orders.append(Order(field=column.name, sort="desc" if sort == "desc" else "asc"))
    draft.take(start, end)
    return True
