"""Orderings: "cheapest", "top 3 earners", "sorted by age", "in alphabetical order".

An ordering goes to the column its words name, else to the subject's column of the kind it
implies (money for "cheapest", the main date or a year for "newest", an age or a birth date for
"oldest", a rating, a size, a sold quantity). A superlative orders by a number or a date, or by
text only when that text holds numbers; only "sorted by …" orders words. A count next to the
ordering is the limit.
"""

from __future__ import annotations

import re

from unified_search.db.dsl import Order
from unified_search.db.nl.lexicon import (
    BIRTH_WORDS,
    MEASURE_WORDS,
    MONEY_WORDS,
    QUANTITY_WORDS,
    SIZE_WORDS,
    YEAR_WORDS,
)
from unified_search.db.nl.reading import NEAR, Mention, OrderWish
from unified_search.db.nl.state import PlanState
from unified_search.db.nl.text import name_words, stems
from unified_search.db.nl.vocabulary import Meaning

_ORDER_MEASURES = ("money", "rating", "size", "length", "popularity", "weight", "height")
#: Measures whose words may qualify any numeric column ("largest capacity", "longest runtime").
_DEGREES = ("size", "length", "money", "rating")
_MEASURES = {k: v for k, v in MEASURE_WORDS.items() if k in _ORDER_MEASURES}
#: Words between a superlative and the column it orders by ("the largest amount of horsepower").
_BESIDE = re.compile(r"\s*(?:the\s+)?(?:(?:amount|number|level|value|quantity)\s+of\s+)?")
_NUMERIC = ("int", "float")
_SORTABLE = ("int", "float", "date", "datetime", "str")


def order(p: PlanState, wish: OrderWish) -> None:
    """Order by the column the wish names or implies; a count next to it is the limit."""
    column = order_column(p, wish)
    if column is None and not _term_names_column(p, wish):
        column = _named_before(p, wish)
    if column is None:
        if not wish.top:  # only "top N …" may name no column: the count alone is meant
            p.unknown.append(p.reading.text[wish.start : wish.end])
        return
    if column.kind == "model" and column.model == p.subject and wish.top:
        return  # "top 4 products": the count is the limit, nothing to order by
    placed = None
    if column.kind != "model" and (column.model == p.subject or p.draft.one_to_one(column.model)):
        placed = p.draft.field(column.model, column.column or "", condition=False)
    grouped = p.draft.aggregates and placed is not None and placed[0] not in p.draft.group_by
    if placed is None or grouped:  # a row's column cannot order groups ("… in each category")
        p.unknown.append(p.reading.text[wish.start : wish.end])
        return
    if all(o.field != placed[0] for o in p.draft.orders):
        sort = "desc" if wish.sort == "desc" else "asc"
        if wish.measure == "age" and MEASURE_WORDS["age"] & set(name_words(column.column or "")):
            sort = "asc" if sort == "desc" else "desc"  # the youngest has the lowest age
        p.draft.orders.append(Order(field=placed[0], sort=sort))
    if wish.term:
        p.reading.take(*wish.term)
    p.understood(wish.start, wish.end, p.weight(column.model))


def _term_names_column(p: PlanState, wish: OrderWish) -> bool:
    """Tell whether the words after a superlative name a column ("the most horsepower")."""
    if wish.term is None:
        return False
    start, end = wish.term
    return any(start <= m.start and m.end <= end and m.of("column") for m in p.mentions)


def _named_before(p: PlanState, wish: OrderWish) -> Meaning | None:
    """The numeric column named right before a superlative ("holds the most people")."""
    if wish.top or wish.measure is not None:
        return None
    return p.near_column(wish.start - NEAR, wish.start, _NUMERIC)


def order_column(p: PlanState, wish: OrderWish) -> Meaning | None:
    """The column (or, for a ranking, the related model) an ordering is about, if any."""
    if wish.term is not None:
        start, end = wish.term
        by = p.reading.text.find(" by ", start, end)
        start = by + 4 if by >= 0 else start  # "top 5 customers by number of orders"
        for mention in [m for m in p.mentions if start <= m.start and m.end <= end]:
            columns = [
                m
                for m in mention.of("column")
                if p.draft.reachable(m.model)
                and p.column(m).kind in _SORTABLE
                and p.value_column(m)
            ]
            columns.sort(key=lambda m: (m.model != p.subject, not m.exact))
            numeric = [m for m in columns if p.column(m).kind in _NUMERIC or numbers_held(p, m)]
            dated = [m for m in columns if p.column(m).kind in ("date", "datetime")]
            models = [Meaning("model", m.model) for m in mention.of("model")]
            # Only "sorted by" orders by text; "the highest city" means nothing.
            chosen = models or numeric or dated or (columns if wish.explicit else [])
            if chosen:
                p.used.add(mention.start)
                return chosen[0]
        return None
    if wish.measure == "alpha":  # "in alphabetical order": the names asked for, else the title
        return _alphabetical(p, wish)
    if wish.measure in _DEGREES:  # "the largest accelerate": the column named right after it
        beside = _BESIDE.match(p.reading.text, wish.end)
        after = beside.end() if beside else wish.end
        named = p.near_column(after, after, _NUMERIC, fits=lambda m: _starts_at(p, m, after))
        if named is not None:
            return named
        if any(m.start == after and _names_measure(p, m) for m in p.mentions):
            return None  # the column named is no number: no other column is meant
    kinds = ("date", "datetime") if wish.measure in ("date", "age") else _NUMERIC
    near = p.near_column(wish.start, wish.end, kinds)
    if near is not None and _fits(near, wish.measure):
        return near
    return measure_column(p, wish.measure)


def _alphabetical(p: PlanState, wish: OrderWish) -> Meaning | None:
    """The text column an alphabetical order sorts: named before it, else the rows' title."""
    near = p.near_column(wish.start - NEAR, wish.start, ("str",))
    if near is not None:
        return near
    title = p.draft.schema.title
    return Meaning("column", p.subject, title) if title else None


def _names_measure(p: PlanState, mention: Mention) -> bool:
    """Tell whether a phrase names a column whole, other than the one naming rows ("title")."""
    return any(
        stems(mention.text) == stems(" ".join(name_words(c.column or "")))
        and c.column != p.domain.models[c.model].title
        for c in mention.of("column")
    )


def _starts_at(p: PlanState, meaning: Meaning, position: int) -> bool:
    """Tell whether a phrase naming ``meaning`` starts at ``position``."""
    return any(m.start == position and meaning in m.meanings for m in p.mentions)


def _fits(meaning: Meaning, measure: str | None) -> bool:
    words = set(name_words(meaning.column or ""))
    wanted = dict(_MEASURES, size=SIZE_WORDS | MONEY_WORDS)
    return measure not in wanted or bool(words & wanted[measure])


def measure_column(p: PlanState, measure: str | None) -> Meaning | None:
    """The subject's column of a kind of measure (for "cheapest", "newest", "biggest" …)."""
    schema = p.draft.schema
    if measure == "age":  # the oldest is the one of highest age, born first, or made first
        aged = p.own(schema, _NUMERIC, MEASURE_WORDS["age"])
        born = aged or p.own(schema, ("date", "datetime"), BIRTH_WORDS)
        return Meaning("column", p.subject, born[0].name) if born else _dated(p)
    if measure == "date":
        return _dated(p)
    found = p.own(schema, _NUMERIC, _MEASURES.get(measure or "", frozenset()))
    if not found and measure == "size":
        found = p.own(schema, _NUMERIC, MONEY_WORDS)
    if not found and measure == "popularity":
        return sold_column(p)
    return Meaning("column", p.subject, found[0].name) if found else None


def _dated(p: PlanState) -> Meaning | None:
    """The subject's main date, else its one column of years ("Founded": the oldest first)."""
    dated = p.main_date(0)
    if dated is not None:
        return dated
    years = p.own(p.draft.schema, ("int",), YEAR_WORDS)
    return Meaning("column", p.subject, years[0].name) if len(years) == 1 else None


def sold_column(p: PlanState) -> Meaning | None:
    """For "best selling": the quantity column of rows pointing at the subject, else those rows."""
    children = [s.end for s in p.domain.relations.steps_from(p.subject) if not s.forward]
    for child in children:
        quantity = p.own(p.domain.models[child], _NUMERIC, QUANTITY_WORDS)
        if quantity:
            return Meaning("column", child, quantity[0].name)
    return Meaning("model", children[0]) if children else None


def numbers_held(p: PlanState, meaning: Meaning) -> bool:
    """Tell whether a text column holds numbers only, as far as sampling saw ("horsepower")."""
    sample = p.domain.samples.get(meaning.model)
    values = sample.categories.get(meaning.column or "") if sample else None
    if not values:
        return False
    try:
        return all(float(v) == float(v) for v in values)
    except ValueError:
        return False
