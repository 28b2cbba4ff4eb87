"""Shapes of a finished plan that answer a different question than the one asked.

Each check names a construction the rules read only in part; the plan is then refused with the
words it could not place, never answered:

- a superlative ranking by one figure beside a figure of another kind ("the category with the
  highest average price" counted, "the port with the greatest total crew" ranked by its largest
  crew): ranked by which figure?
- a superlative over a named figure ranked by another ("the highest total sales" by the
  largest sale);
- a figure compared with a number ("breeds that have an average weight above 20"): a test on
  each group's figure, not on each row;
- a count of the groups a count test keeps ("how many authors wrote more than one book"): the
  plan lists the groups;
- two superlatives on different columns ("the highest fare and the shortest duration"): two
  figures, not one ordering broken by another;
- values shared by different related rows ("countries with guests who stayed in a tent and
  also guests who stayed in a cabin"): each test may hold for a different row;
- groups of one row ("the average rate per booking" when each booking has one rate): a figure
  per row is no grouping;
- a negated test on a column some rows leave empty ("books that are not Crime books" when some
  books have no genre): SQL drops the empty rows, which English keeps.
"""

from __future__ import annotations

import re

from unified_search.db.dsl import Op, field_name
from unified_search.db.nl.state import PlanState
from unified_search.db.nl.text import name_words

_FIGURE = r"(?:average|mean|total|sum|combined|overall|maximum|minimum|highest|lowest)"
_COMPARED = (
    r"(?:above|over|below|under|exceeding|(?:more|less|fewer|greater|higher|lower)\s+than|"
    r"at\s+(?:least|most))"
)
#: "that have an average weight above 20", "with a total cost of more than 100".
_FIGURE_TESTED = re.compile(
    rf"\b(?:have|has|had|having|with|whose)\s+(?:an?\s+|the\s+|their\s+|its\s+)?{_FIGURE}\b"
    rf"(?:\s+[a-z_]+){{0,3}}?\s+(?:(?:is|are|was|were|of)\s+)?{_COMPARED}\s+\S"
)


#: "the highest total sales", "the lowest average price": a superlative over a named figure.
_SUPERLATIVE_FIGURE = re.compile(
    r"\b(?:highest|largest|greatest|biggest|most|lowest|smallest|least|fewest)\s+"
    r"(?P<fn>total|sum|combined|average|mean)\b"
)
_FN = {"total": "sum", "sum": "sum", "combined": "sum", "average": "avg", "mean": "avg"}
#: A count asked of the whole answer ("how many authors …", "the number of countries …").
_COUNT_CUE = re.compile(r"\b(?:how\s+many|number\s+of|count)\b")


def doubts(p: PlanState) -> list[str]:
    """The words of each construction the plan answers only in part."""
    found = []
    text = p.reading.text
    if _ranked_beside_a_figure(p):
        found.append("ranked by which figure")
    if match := _FIGURE_TESTED.search(text):
        found.append(match.group(0))
    if (named := _superlative_figure(p)) and not _ranked_by(p, _FN[named["fn"]]):
        found.append(named.group(0))
    if p.draft.having and _COUNT_CUE.search(text):
        found.append("a count of groups")  # "how many authors wrote more than one book"
    if _two_superlatives(p):
        found.append("two superlatives")
    if _values_of_different_rows(p):
        found.append("the same row or different rows")
    if _groups_of_one_row(p):
        found.append("a figure per row")
    if _negated_over_empty(p):
        found.append("not, with rows that hold no value")
    return found


def _ranked_beside_a_figure(p: PlanState) -> bool:
    """A superlative ranks by one figure while the question asks for another of another kind."""
    if any(w.explicit for w in p.reading.orders):
        return False  # "… ordered by the number of books": the order says which
    names = {a.name: a.fn for a in p.draft.aggregates}
    ranked = {names[f] for f in map(field_name, (o.field for o in p.draft.orders)) if f in names}
    return bool(ranked) and len(set(names.values())) > 1


def _superlative_figure(p: PlanState) -> re.Match[str] | None:
    """A superlative over a figure word that names no column ("total cost" may be one)."""
    for named in _SUPERLATIVE_FIGURE.finditer(p.reading.text):
        columns = [
            c for m in p.reading.mentions if m.start == named.start("fn") for c in m.of("column")
        ]
        if not any(named["fn"] in name_words(c.column or "") for c in columns):
            return named
    return None


def _ranked_by(p: PlanState, fn: str) -> bool:
    names = {a.name: a.fn for a in p.draft.aggregates}
    return any(names.get(field_name(o.field)) == fn for o in p.draft.orders)


def _two_superlatives(p: PlanState) -> bool:
    wishes = [w for w in p.reading.orders if not w.explicit and w.measure != "alpha"]
    return len(wishes) > 1 and len({field_name(o.field) for o in p.draft.orders}) > 1


def _values_of_different_rows(p: PlanState) -> bool:
    """Distinct values asked of rows that two related-row tests each reach on their own."""
    if not p.draft.distinct:
        return False
    roots = [p.draft.joins[b.aliases[0]].model for b in p.draft.branches.values() if b.aliases]
    return len(roots) != len(set(roots))


def _negated_over_empty(p: PlanState) -> bool:
    aliases = {alias: join.model for alias, join in p.draft.joins.items()}
    for where in p.draft.wheres:
        if where.op not in (Op.NE, Op.NOT_IN, Op.NOT_LIKE) or where.field is None:
            continue
        alias, _, column = field_name(where.field).rpartition(".")
        sample = p.domain.samples.get(aliases.get(alias, p.subject) if alias else p.subject)
        if sample is not None and column in sample.empty:
            return True
    return False


def _groups_of_one_row(p: PlanState) -> bool:
    """Grouping by a model's rows, with figures over that row or the one row it points to."""
    aliases = {alias: join.model for alias, join in p.draft.joins.items()}
    grouped = set()
    for name in p.draft.group_by:
        alias, _, column = name.rpartition(".")
        model = aliases.get(alias, p.subject) if alias else p.subject
        if column in p.domain.models[model].primary_key:
            grouped.add(model)
    for figure in p.draft.aggregates:
        if figure.fn == "count" or figure.field is None:
            continue
        alias, _, _ = field_name(figure.field).rpartition(".")
        measured = aliases.get(alias, p.subject) if alias else p.subject
        for model in grouped:
            paths = p.domain.relations.paths(model, measured)
            if model == measured or (paths and all(s.forward for s in paths[0])):
                return True
    return False
