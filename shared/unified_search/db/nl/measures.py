"""The shape of ranked and counted answers: "the most concerts", "more than 5 employees".

When the column an ordering is about lies on rows related to the subject ("the customer who
spent the most", "the genre with the most books"), the question is turned around: the related
rows are summed or counted per subject row and ranked. "more than 5 employees" after a model
counts related rows the same way (through a table linking the two when there is one);
"countries with more than one airport" counts the subject's rows per value.
"""

from __future__ import annotations

import re

from unified_search.db.dsl import Aggregate, Op, Order, Where
from unified_search.db.nl.orders import order_column, sold_column
from unified_search.db.nl.reading import Mention, NumberTest, OrderWish
from unified_search.db.nl.state import PlanState
from unified_search.db.nl.text import is_plural
from unified_search.db.nl.vocabulary import Meaning
from unified_search.db.relations import Step

_DEGREE = re.compile(r"(?:the\s+)?(?:biggest|largest|highest|greatest|smallest|lowest)\b")
_FREQUENT = re.compile(r"(?:most\s+)?(?:common|frequent|popular|usual|typical)\b")
_SOLD = re.compile(r"\b(?:sell|sells|sold|selling)\b")
_NUMERIC = ("int", "float")
#: Words that may stand between "the most" and the rows it counts ("the most number of orders").
_BETWEEN = re.compile(r"(?<=\s)(?:the|number|count|amount|of|total|different|distinct)(?=\s)")


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
        measure = order_column(p, wish)
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
    sold = sold_column(p)
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
    if measure.kind == "model" and (described := _described(p, wish, measure.model)):
        p.unknown.append(described)  # "the most experienced teacher": no count of teachers
        return False
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
    cue = p.reading.figure
    if summed and cue is not None and cue.fn in ("sum", "avg") and _follows(p, wish, cue.start):
        fn = cue.fn  # "the greatest total crew", "the highest average tonnage"
    figure = Aggregate(fn=fn, field=measure.column) if summed else count_rows()
    p.draft.aggregates = [figure]
    p.draft.orders.append(Order(field=figure.name, sort="desc" if wish.sort == "desc" else "asc"))
    if p.draft.limit is None and not plural:
        p.draft.limit = 1
    inside = cue is not None and wish.term and wish.term[0] <= cue.start < wish.term[1]
    if cue is not None and inside and cue.fn == figure.fn:
        p.understood(cue.start, cue.end)  # "by number of orders" is this ranking's count
        p.reading.figure = None
    if wish.term:
        p.reading.take(*wish.term)
    p.understood(wish.start, wish.end, 1)
    return True


def _follows(p: PlanState, wish: OrderWish, start: int) -> bool:
    """Tell whether a figure cue comes right after the superlative ("the highest average")."""
    return not p.reading.text[wish.end : start].strip()


def _described(p: PlanState, wish: OrderWish, model: str) -> str:
    """Words between "most" and the related rows it counts that say something else of them."""
    if wish.term is None:
        return ""
    start, end = wish.term
    by = p.reading.text.find(" by ", start, end)
    start = by + 4 if by >= 0 else start  # "top 5 customers by number of orders"
    named = [
        m.start
        for m in p.mentions
        if start <= m.start < end and any(x.model == model for x in m.of("model"))
    ]
    if not named:
        return ""
    between = p.reading.text[start : named[0]]
    return " ".join(_BETWEEN.sub(" ", f" {between} ").split())


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
