"""Comparisons with a figure over all rows: "older than average", "a weight below the average weight".

The comparison goes to the column named in it ("the average age"), else to the one named just
before it ("whose weight is below the average"), else to the column its words measure ("older"
is about an age); the figure is taken over every row of that column's model.
"""

from __future__ import annotations

import re

from unified_search.db.dsl import Op, Overall, Where
from unified_search.db.nl.lexicon import MEASURE_WORDS
from unified_search.db.nl.quantities import within
from unified_search.db.nl.reading import NEAR, OverallTest, Reading
from unified_search.db.nl.state import PlanState
from unified_search.db.nl.vocabulary import Meaning

_OPS: dict[str, tuple[Op, str | None]] = {
    "above": (Op.GT, None), "over": (Op.GT, None), "more than": (Op.GT, None),
    "greater than": (Op.GT, None), "higher than": (Op.GT, None), "larger than": (Op.GT, "size"),
    "bigger than": (Op.GT, "size"), "exceeding": (Op.GT, None), "at least": (Op.GE, None),
    "below": (Op.LT, None), "under": (Op.LT, None), "less than": (Op.LT, None),
    "lower than": (Op.LT, None), "smaller than": (Op.LT, "size"), "fewer than": (Op.LT, None),
    "at most": (Op.LE, None), "older than": (Op.GT, "age"), "younger than": (Op.LT, "age"),
    "heavier than": (Op.GT, "weight"), "lighter than": (Op.LT, "weight"),
    "longer than": (Op.GT, "length"), "shorter than": (Op.LT, "length"),
    "more expensive than": (Op.GT, "money"), "cheaper than": (Op.LT, "money"),
}  # fmt: skip
_FNS = {
    "average": "avg", "mean": "avg", "avg": "avg", "minimum": "min", "min": "min",
    "lowest": "min", "smallest": "min", "maximum": "max", "max": "max", "highest": "max",
    "largest": "max",
}  # fmt: skip
_OVERALL = re.compile(
    rf"(?<![a-z])(?P<op>{'|'.join(sorted(_OPS, key=len, reverse=True))})\s+(?:that\s+of\s+)?"
    r"(?:the\s+)?(?:overall\s+)?"
    rf"(?P<fn>{'|'.join(sorted(_FNS, key=len, reverse=True))})\b"
    r"(?:\s+(?:of\s+(?:the\s+|all\s+)?)?(?P<term>[a-z_]+(?:\s+[a-z_]+)?))?"
)
_AROUND = re.compile(
    r"(?<![a-z])(?P<cmp>more|greater|higher|larger|bigger|less|fewer|lower|smaller|longer|shorter)"
    r"\s+(?P<term>[a-z_]+(?:\s+[a-z_]+)?)\s+than\s+(?:that\s+of\s+)?(?:the\s+)?(?:overall\s+)?"
    rf"(?P<fn>{'|'.join(sorted(_FNS, key=len, reverse=True))})\b"
)
_NUMERIC = ("int", "float")
#: Words after the figure, before the clause ends, that pick the rows it is over.
_SCOPE = re.compile(
    r"[^,;?!]*?\b(?:from|in|at|with|who|whose|that|which|where|among|for|born|living|based|on|"
    r"aged|during|since|before|after|by|of\s+(?:their|its|his|her|each|every))\b"
)
_CLAUSE_END = re.compile(r"[,;?!]|\band\b|\bor\b|\bbut\b")


def find_overall(reading: Reading) -> None:
    """Record each comparison with an overall figure; its column words stay for the planner."""
    for match in list(_OVERALL.finditer(reading.rest)):
        op, measure = _OPS[match["op"]]
        term = match.span("term") if match["term"] else None
        end = term[0] if term else match.end("fn")
        scoped = _scoped(reading.text, match.end("fn"))
        reading.overalls.append(
            OverallTest(op, _FNS[match["fn"]], match.start(), end, term, measure, scoped)
        )
        reading.take(match.start(), match.end("fn"))
    for match in list(_AROUND.finditer(reading.rest)):  # "more pages than the average"
        op, measure = _OPS[f"{match['cmp']} than"]
        term = match.span("term")
        fn = _FNS[match["fn"]]
        scoped = _scoped(reading.text, match.end())
        reading.overalls.append(
            OverallTest(op, fn, match.start(), match.end(), term, measure, scoped)
        )
        reading.take(match.start(), term[0])
        reading.take(term[1], match.end())


def _scoped(text: str, end: int) -> bool:
    """Tell whether the clause after a figure restricts the rows it is taken over."""
    clause = _CLAUSE_END.search(text, end)
    return _SCOPE.match(text[end : clause.start() if clause else len(text)]) is not None


def _values_after(p: PlanState, test: OverallTest) -> bool:
    """Tell whether the figure's own clause names a stored value ("of all Crime books")."""
    end = test.term[1] if test.term else test.end
    clause = _CLAUSE_END.search(p.reading.text, end)
    stop = clause.start() if clause else len(p.reading.text)
    return any(end <= m.start < stop and m.of("value") for m in p.mentions)


def place_overall(p: PlanState, test: OverallTest) -> None:
    """Place the comparison on its column, or report it not understood.

    A figure over rows of its own ("of members from Boulder", "of Crime books") is refused: the
    DSL takes it over every row.
    """
    column = _column(p, test)
    placed = p.draft.field(column.model, column.column or "") if column else None
    if column is None or placed is None or test.scoped or _values_after(p, test):
        p.unknown.append(p.reading.text[test.start : test.end])
        return
    figure = Overall.model_validate({"fn": test.fn, "field": column.column})
    p.where(placed, Where(field=placed[0], op=test.op, than=figure))
    p.understood(test.start, test.end, p.weight(column.model))
    for mention in p.mentions:  # "a price above the average price": both name the column
        if 0 <= test.start - mention.end <= 12 and column in mention.meanings:
            p.used.add(mention.start)


def _column(p: PlanState, test: OverallTest) -> Meaning | None:
    if test.term is not None:
        start, end = test.term
        inside = p.near_column(start, start, _NUMERIC, fits=lambda m: within(p, m, start, end))
        if inside is not None:
            return inside
    before = p.near_column(test.start - NEAR, test.start, _NUMERIC)
    if before is not None:
        return before
    if test.measure is None:
        return None
    model = p.model_before(test.start) or p.subject
    if not p.draft.reachable(model):
        model = p.subject
    measured = p.own(p.domain.models[model], _NUMERIC, MEASURE_WORDS[test.measure])
    return Meaning("column", model, measured[0].name) if measured else None
