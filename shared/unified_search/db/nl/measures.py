"""Orderings and the shape of ranked answers: "cheapest", "top 3 earners", "the most concerts".

An ordering goes to the column its words name, else to the subject's column
of the kind it implies (money for "cheapest", the main date for "newest", a
rating, a size, a sold quantity). When that column lies on rows related to the
subject ("the customer who spent the most", "the genre with the most books"),
the question is turned around: the related rows are summed or counted per
subject row and ranked. "more than 5 employees" after a model counts related
rows the same way.
"""

from __future__ import annotations

import re

from unified_search.db.dsl import Aggregate, Op, Order, Where
from unified_search.db.nl.lexicon import (
    BIRTH_WORDS,
    MEASURE_WORDS,
    MONEY_WORDS,
    QUANTITY_WORDS,
    SIZE_WORDS,
    YEAR_WORDS,
)
from unified_search.db.nl.reading import NEAR, Mention, NumberTest, OrderWish
from unified_search.db.nl.state import PlanState
from unified_search.db.nl.text import is_plural, name_words, stems
from unified_search.db.nl.vocabulary import Meaning
from unified_search.db.relations import Step

_ORDER_MEASURES = ("money", "rating", "size", "length", "popularity", "weight", "height")
#: Measures whose words may qualify any numeric column ("largest capacity", "longest runtime").
_DEGREES = ("size", "length", "money", "rating")
_MEASURES = {k: v for k, v in MEASURE_WORDS.items() if k in _ORDER_MEASURES}
#: Words between a superlative and the column it orders by ("the largest amount of horsepower").
_BESIDE = re.compile(r"\s*(?:the\s+)?(?:(?:amount|number|level|value|quantity)\s+of\s+)?")
_DEGREE = re.compile(r"(?:the\s+)?(?:biggest|largest|highest|greatest|smallest|lowest)\b")
_FREQUENT = re.compile(r"(?:most\s+)?(?:common|frequent|popular|usual|typical)\b")
_SOLD = re.compile(r"\b(?:sell|sells|sold|selling)\b")
_NUMERIC = ("int", "float")
_SORTABLE = ("int", "float", "date", "datetime", "str")


def count_rows() -> Aggregate:
    """Count the rows (named ``count``)."""
    return Aggregate(fn="count", **{"as": "count"})


# -- turning the question around ------------------------------------------------------------


def shape(p: PlanState) -> None:
    """Rank or count related rows per subject row, when the question asks that of a named subject."""
    # The subject must be what the question is about: named, or the model of a value it names.
    named = any(p.subject in {m.model for m in x.of("model") + x.of("value")} for x in p.mentions)
    if not named and not p.reading.person:
        return
    if _units_sold(p):
        return
    for wish in p.reading.orders:
        if wish.measure == "alpha":
            continue  # an alphabetical order ranks nothing
        if _most_common(p, wish):
            p.handled.add(id(wish))
            return
        measure = _order_column(p, wish)
        if measure is not None and measure.kind == "model" and measure.model == p.subject:
            if not wish.top and _ranked_groups(p, wish):
                p.handled.add(id(wish))
                return
            continue
        if measure is None or measure.model == p.subject:
            continue
        if (measure.kind == "model" or not p.draft.one_to_one(measure.model)) and _ranked(
            p, wish, measure
        ):
            p.handled.add(id(wish))
            return
    for test in p.reading.numbers:
        if _count_test(p, test):
            p.handled.add(id(test))
            return


def _units_sold(p: PlanState) -> bool:
    """Read "how many espressos did we sell": the units on the rows that sold them, summed."""
    cue = p.reading.figure
    verb = _SOLD.search(p.reading.text, cue.end) if cue is not None else None
    if cue is None or verb is None or cue.fn != "count" or p.reading.person:
        return False
    sold = _sold(p)
    paths = p.domain.relations.paths(sold.model, p.subject) if sold is not None else []
    if sold is None or not paths or not all(s.forward for s in paths[0]):
        return False
    p.head = p.subject
    p.draft.subject = sold.model  # what was sold is reached from the rows that sold it
    figure = Aggregate(fn="sum", field=sold.column) if sold.column else count_rows()
    p.draft.aggregates = [figure]
    p.understood(cue.start, cue.end)
    p.understood(*verb.span())
    p.reading.figure = None
    return True


def _ranked(p: PlanState, wish: OrderWish, measure: Meaning) -> bool:
    """Rank subject rows by a figure over related rows ("which customer spent the most")."""
    head = p.subject
    paths = p.domain.relations.paths(measure.model, head)
    if paths and all(s.forward for s in paths[0]):
        rows, path = measure.model, paths[0]
    elif measure.kind == "model" and (linked := counting_path(p, measure.model)) is not None:
        rows, path = linked  # "the store with the most employees": its assignments
    else:
        return False
    plural = _head_plural(p, head)
    p.head = head
    p.draft.regroup(rows, path)
    summed = measure.column is not None and p.column(measure).kind in _NUMERIC
    # "most units" sums them; "most orders", "most borrowed" counts the related rows;
    # "the biggest bonus" is the largest one
    single = _DEGREE.match(p.reading.text, wish.start) is not None
    fn = ("max" if wish.sort == "desc" else "min") if single else "sum"
    figure = Aggregate(fn=fn, field=measure.column) if summed else count_rows()
    p.draft.aggregates = [figure]
    p.draft.orders.append(Order(field=figure.name, sort="desc" if wish.sort == "desc" else "asc"))
    if p.draft.limit is None and not plural:
        p.draft.limit = 1
    cue = p.reading.figure
    if cue is not None and wish.term and wish.term[0] <= cue.start < wish.term[1]:
        p.understood(cue.start, cue.end)  # "by number of orders" is this ranking's count
        p.reading.figure = None
    if wish.term:
        p.reading.take(*wish.term)
    p.understood(wish.start, wish.end, 1)
    return True


def _most_common(p: PlanState, wish: OrderWish) -> bool:
    """Read "the most common city of members": cities ranked by how many members hold each."""
    if wish.term is None or not _FREQUENT.match(p.reading.text, wish.term[0]):
        return False
    start, end = wish.term
    inside = [m for m in p.mentions if start <= m.start and m.end <= end and not m.of("model")]
    columns = [(m, c) for m in inside for c in _groupable(p, m)]
    if not columns:
        return False
    p.reading.take(*wish.term)
    return _rank_values(p, wish, *columns[0])


def _numbers(p: PlanState, meaning: Meaning) -> bool:
    """Tell whether a text column holds numbers only, as far as sampling saw ("horsepower")."""
    sample = p.domain.samples.get(meaning.model)
    values = sample.categories.get(meaning.column or "") if sample else None
    if not values:
        return False
    try:
        return all(float(v) == float(v) for v in values)
    except ValueError:
        return False


def _groupable(p: PlanState, mention: Mention) -> list[Meaning]:
    return [
        c
        for c in mention.of("column")
        if c.model == p.subject and p.column(c).kind == "str" and p.value_column(c)
    ]


def _ranked_groups(p: PlanState, wish: OrderWish) -> bool:
    """Rank a column's values by how many subject rows hold each ("which brand has the most products")."""
    before = [m for m in p.mentions if m.end <= wish.start and not m.of("model")]
    columns = [(mention, c) for mention in before for c in _groupable(p, mention)]
    if not columns:
        return False
    return _rank_values(p, wish, *columns[-1])


def _rank_values(p: PlanState, wish: OrderWish, mention: Mention, column: Meaning) -> bool:
    """Group the subject's rows by ``column`` and rank the values by how many rows hold each."""
    p.draft.aggregates = [count_rows()]
    p.draft.group_by = [column.column or ""]
    p.draft.orders.append(Order(field="count", sort="desc" if wish.sort == "desc" else "asc"))
    if p.draft.limit is None and not is_plural(mention.text):
        p.draft.limit = 1
    if wish.term:
        p.reading.take(*wish.term)
    p.understood(wish.start, wish.end, 1)
    p.used.add(mention.start)
    return True


def _head_plural(p: PlanState, head: str) -> bool:
    """Tell whether the question names the grouped model in the plural ("which customers …").

    A singular verb after it asks for one all the same ("which of the countries has …").
    """
    for mention in p.mentions:
        if any(m.model == head for m in mention.of("model")):
            verb = re.match(r"\s+(\w+)", p.reading.text[mention.end :])
            if verb is not None and verb.group(1) in ("has", "is", "was", "does"):
                return False
            return is_plural(mention.text)
    return True


def _count_test(p: PlanState, test: NumberTest) -> bool:
    """Read "departments with more than 5 employees": related rows counted per subject row."""
    mention = p.model_right_after(test)
    if mention is None or test.op is Op.BETWEEN or p.draft.aggregates or test.currency:
        return False
    counted = mention.of("model")[0].model
    if counted == p.subject:
        return _count_values(p, test, mention)
    found = counting_path(p, counted)
    if found is None:
        return False
    p.head = p.subject
    p.draft.regroup(*found)
    p.draft.aggregates = [count_rows()]
    p.draft.having.append(Where(field="count", op=test.op, value=int(test.values[0])))
    p.reading.take(test.start, mention.end)
    p.used.update({test.start, mention.start})
    return True


def _count_values(p: PlanState, test: NumberTest, mention: Mention) -> bool:
    """Read "countries that have more than one airport": subject rows counted per value."""
    first = min(p.mentions, key=lambda m: m.start)
    named = p.reading.shown or (
        [first] if first.start < test.start and not first.of("model") else []
    )
    shown = {
        c.column: c
        for s in named
        for c in s.of("column")
        if c.model == p.subject and p.column(c).kind == "str" and p.value_column(c)
    }
    if len(shown) != 1:
        return False
    column = next(iter(shown.values()))
    p.draft.aggregates = [count_rows()]
    p.draft.group_by = [column.column or ""]
    p.draft.having.append(Where(field="count", op=test.op, value=int(test.values[0])))
    p.reading.take(test.start, mention.end)
    p.used.update({test.start, mention.start})
    return True


def counting_path(p: PlanState, counted: str) -> tuple[str, tuple[Step, ...]] | None:
    """The rows to count per subject row, and the link that leads from them to it.

    Rows of ``counted`` that point at the subject; or, when a link table joins the two ("a
    student has pets" through ``has_pet``), its rows: one per related row.
    """
    direct = p.domain.relations.paths(counted, p.subject, max_hops=1)
    if direct and direct[0][0].forward:
        return counted, direct[0]
    for step in p.domain.relations.steps_from(counted):
        between = step.end
        if step.forward or between == p.subject:
            continue
        onward = p.domain.relations.paths(between, p.subject, max_hops=1)
        if onward and onward[0][0].forward:  # "members who borrowed 2 books": their loans
            return between, onward[0]
    return None


# -- ordering -------------------------------------------------------------------------------


def order(p: PlanState, wish: OrderWish) -> None:
    """Order by the column the wish names or implies; a count next to it is the limit."""
    column = _order_column(p, wish)
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


def _order_column(p: PlanState, wish: OrderWish) -> Meaning | None:
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
            numeric = [m for m in columns if p.column(m).kind in _NUMERIC or _numbers(p, m)]
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
        return _sold(p)
    return Meaning("column", p.subject, found[0].name) if found else None


def _dated(p: PlanState) -> Meaning | None:
    """The subject's main date, else its one column of years ("Founded": the oldest first)."""
    dated = p.main_date(0)
    if dated is not None:
        return dated
    years = p.own(p.draft.schema, ("int",), YEAR_WORDS)
    return Meaning("column", p.subject, years[0].name) if len(years) == 1 else None


def _sold(p: PlanState) -> Meaning | None:
    """For "best selling": the quantity column of rows pointing at the subject, else those rows."""
    children = [s.end for s in p.domain.relations.steps_from(p.subject) if not s.forward]
    for child in children:
        quantity = p.own(p.domain.models[child], _NUMERIC, QUANTITY_WORDS)
        if quantity:
            return Meaning("column", child, quantity[0].name)
    return Meaning("model", children[0]) if children else None
