"""Figures and groups: "how many", "average price of", "total … per status", "which brands …".

A figure cue takes the numeric column named right after it (else right before it); "how many"
counts the subject's rows. "per", "for each", "by" after a figure group by the column or the
related model's rows they name. A plural text column named first, with no model named, asks for
its distinct values.
"""

from __future__ import annotations

import re

from unified_search.db.dsl import Aggregate, Op, Where
from unified_search.db.nl.draft import row_names
from unified_search.db.nl.measures import count_rows
from unified_search.db.nl.orders import measure_column
from unified_search.db.nl.reading import NEAR, Figure, Mention
from unified_search.db.nl.state import PlanState
from unified_search.db.nl.text import is_plural
from unified_search.db.nl.vocabulary import Meaning

_NUMBER_OF = re.compile(r"\s*(?:the\s+)?(?:number|count|amount)\s+of\b")
_NUMERIC = ("int", "float")
_JOINED = re.compile(r"\s*(?:,|&|\band\b|,\s*and\b)?\s*(?:the\s+)?")
_LISTED = re.compile(r"\s*(?:,|&|\band\b)")
_DISTINCT = re.compile(r"\s*(?:of\s+)?(?:the\s+)?(?:distinct|different|unique)\b")
_MONEY_MEASURES = frozenset({
    "revenue", "sales", "spent", "spend", "spending", "value", "worth", "turnover", "income",
    "earnings", "money", "cost", "costs",
})  # fmt: skip


def figures(p: PlanState) -> None:
    """Read "how many", "average …", "total …" (and "… per …" without them) into aggregates.

    Cues joined by commas and "and" share the column named after the last of them ("average,
    minimum and maximum age"); a later cue takes the column named after it.
    """
    figure = p.reading.figure
    if figure is None:
        _implied(p)
        return
    if p.reading.text[: figure.start].rstrip().endswith(" by"):
        p.unknown.append(p.reading.text[figure.start : figure.end])  # a ranking not understood
        return
    if figure.fn == "count" and _summed(p, figure):  # "total number of pages": their sum
        figure = Figure("sum", figure.start, figure.end)
    runs = _runs(p.reading.text, [figure, *p.reading.more_figures])
    if figure.fn == "count":
        p.draft.aggregates = [_counted(p, figure)]
        p.understood(figure.start, figure.end)
    elif not _figures_of(p, runs[0], first=True):
        return
    for run in runs[1:]:
        if not p.reading.free(run[0].start, run[-1].end):
            continue  # "average number of pages": read with the cue before it
        if _repeated(p, run):
            continue
        _figures_of(p, run, first=False)
    group(p)


def _repeated(p: PlanState, run: list[Figure]) -> bool:
    """Read "… and the count", "… and the average" as naming figures already asked for."""
    start, end = run[0].start, run[-1].end
    fns = {a.fn for a in p.draft.aggregates}
    named_after = any(0 <= m.start - end <= 3 and not m.of("model") for m in p.mentions)
    if named_after or not all(cue.fn in fns for cue in run):
        return False
    p.understood(start, end)
    return True


def _summed(p: PlanState, figure: Figure) -> bool:
    """Tell whether "total number of", "how many" count a numeric column: its sum, not rows.

    ("the total number of pages", "how many goals did the forwards score")
    """
    if not p.reading.text[figure.start : figure.end].startswith(("total", "how many")):
        return False
    after = min(
        (m for m in p.mentions if m.start >= figure.end), key=lambda m: m.start, default=None
    )
    return (
        after is not None
        and after.start - figure.end <= 5
        and not after.of("model")
        and any(p.column(m).kind in _NUMERIC and p.value_column(m) for m in after.of("column"))
    )


def _runs(text: str, cues: list[Figure]) -> list[list[Figure]]:
    """Group cues joined only by commas and "and" ("average, minimum, and maximum")."""
    runs: list[list[Figure]] = []
    for cue in cues:
        if (
            runs
            and runs[-1][-1].fn != "count"
            and cue.fn != "count"
            and _JOINED.fullmatch(text[runs[-1][-1].end : cue.start])
        ):
            runs[-1].append(cue)
        else:
            runs.append([cue])
    return runs


def _figures_of(p: PlanState, run: list[Figure], *, first: bool) -> bool:
    """Add one figure per cue of ``run`` over the column they are about; report it if none."""
    start, end = run[0].start, run[-1].end
    text = p.reading.text[start:end]
    if run[0].fn == "count":
        p.unknown.append(text)  # a second count in one question
        return False
    target = _figure_column(p, start, end, after_only=not first)
    if target is None:
        if not (first and run[0].fn == "sum" and len(run) == 1):  # "total" may be a column
            p.unknown.append(text)
        return False
    placed = p.draft.field(target.model, target.column or "", condition=False)
    if placed is None:
        return False
    for cue in run:
        figure = Aggregate.model_validate({"fn": cue.fn, "field": placed[0]})
        if all(a.name != figure.name for a in p.draft.aggregates):
            p.draft.aggregates.append(figure)
    counted = _NUMBER_OF.match(p.reading.rest, end)
    if counted:  # "average number of pages": the average of the pages
        p.reading.take(*counted.span())
    for word in _money_words(p, end):
        p.reading.take(end + word.start(), end + word.end())
    p.score += p.weight(target.model)
    p.understood(start, end)
    return True


def _counted(p: PlanState, figure: Figure) -> Aggregate:
    """Count the rows, or the distinct values of a column ("how many different types of pet")."""
    distinct = _DISTINCT.match(p.reading.rest, figure.end)
    if distinct is None:
        return count_rows()
    after = [m for m in p.mentions if m.start >= distinct.end()]
    first = min(after, key=lambda m: m.start, default=None)
    p.reading.take(*distinct.span())
    if first is None or first.start - distinct.end() > 5 or first.of("model"):
        return count_rows()  # "how many different students": each is counted once anyway
    columns = [m for m in first.of("column") if p.draft.reachable(m.model) and p.value_column(m)]
    columns.sort(key=lambda m: m.model != p.subject)
    placed = (
        p.draft.field(columns[0].model, columns[0].column or "", condition=False)
        if columns
        else None
    )
    if placed is None:
        p.unknown.append(first.text)
        return count_rows()
    p.understood(first.start, first.end, p.weight(columns[0].model))
    return Aggregate.model_validate(
        {"fn": "count", "field": placed[0], "distinct": True, "as": "count"}
    )


def _implied(p: PlanState) -> None:
    """Total or count per group without "how many" ("units ordered per category")."""
    explicit = [g for g in p.reading.groups if g not in p.reading.loose_groups]
    if not explicit or p.draft.aggregates:
        return
    before = [m for m in p.mentions if m.end <= min(explicit)]
    numeric = [
        c
        for m in before
        if not m.of("model") and min(explicit) - m.end <= NEAR  # "units ordered per category"
        for c in m.of("column")
        if p.column(c).kind in _NUMERIC and p.value_column(c) and c.model == p.subject
    ]
    counted = any(p.subject in {x.model for x in m.of("model")} for m in before)
    if not numeric and not counted:
        return
    p.draft.aggregates = [Aggregate(fn="sum", field=numeric[0].column) if numeric else count_rows()]
    group(p)
    if not p.draft.group_by:
        p.draft.aggregates = []


def _figure_column(
    p: PlanState, start: int, end: int, *, after_only: bool = False
) -> Meaning | None:
    """The numeric column an aggregate cue is about: named after it, else just before it."""
    after = sorted((m for m in p.mentions if 0 <= m.start - end <= NEAR), key=lambda m: m.start)
    before = sorted((m for m in p.mentions if 0 <= start - m.end <= NEAR), key=lambda m: -m.end)
    for side in (after,) if after_only else (after, before):
        for mention in side:
            if mention.of("model") or mention.of("value") or not mention.of("column"):
                continue
            numeric = [
                m
                for m in mention.of("column")
                if p.column(m).kind in _NUMERIC and p.value_column(m) and p.draft.reachable(m.model)
            ]
            numeric.sort(key=lambda m: m.model != p.subject)
            if not numeric:
                break  # "maximum mpg" where mpg is text: no figure, whatever is named next
            p.used.add(mention.start)
            return numeric[0]
    if _money_words(p, start) or p.reading.text[start:end] == "how much":
        return measure_column(p, "money")  # "total revenue", "revenue per status", "how much"
    return None


def _money_words(p: PlanState, end: int) -> list[re.Match[str]]:
    words = re.finditer(r"[a-z]+", p.reading.text[end : end + NEAR])
    return [w for w in words if w.group() in _MONEY_MEASURES]


def group(p: PlanState) -> None:
    """Group by what a "per"/"by"/"in each" cue names: a column, or a model's rows."""
    for position in p.reading.groups:
        chain = _chain_after(p, position)
        columns = [
            m
            for mention in chain
            if not mention.of("model")  # "type of pet": the pets are no column
            for m in mention.of("column")
            if p.draft.reachable(m.model) and (p.value_column(m) or _named_key(p, mention, m))
        ]
        models = [m.model for mention in chain for m in mention.of("model") if m.model != p.subject]
        if columns:
            placed = p.draft.field(columns[-1].model, columns[-1].column or "", condition=False)
            fields = [placed[0]] if placed else []
            if placed and _left_empty(p, columns[-1]):  # "how many members hold each title"
                p.draft.wheres.append(Where(field=placed[0], op=Op.IS_NOT_NULL))
        elif models:
            alias = p.draft.joined(models[0])
            fields = (
                [f"{alias}.{c}" for c in row_names(p.domain.models[models[0]])] if alias else []
            )
        else:
            fields = []
        if fields:
            p.draft.group_by += fields
            p.used.update(m.start for m in chain)
            p.reading.take(_word_start(p.reading.text, position), chain[-1].end)
            grouped = columns[-1].model if columns else models[0]
            p.understood(chain[0].start, chain[0].end, p.weight(grouped))
            return


def _left_empty(p: PlanState, column: Meaning) -> bool:
    """Tell whether some rows hold no value in ``column``: they belong to no group of it."""
    sample = p.domain.samples.get(column.model)
    return sample is not None and column.column in sample.empty


def _named_key(p: PlanState, mention: Mention, meaning: Meaning) -> bool:
    """Tell whether a phrase names a foreign key by its own words ("per source airport")."""
    return p.column(meaning).foreign_key is not None and meaning.exact


def _chain_after(p: PlanState, position: int) -> list[Mention]:
    """The mentions right after a grouping cue, one phrase ("per customer country")."""
    chain: list[Mention] = []
    end = position
    for mention in sorted(p.mentions, key=lambda m: m.start):
        if mention.start < end:
            continue
        gap = p.reading.text[end : mention.start].strip()
        if gap not in ("", "the", "each", "every", "of") or mention.of("value"):
            break
        chain.append(mention)
        end = mention.end
    return chain


def _word_start(text: str, end: int) -> int:
    words = text[:end].split()
    return end - len(words[-1]) if words else end


def listing(p: PlanState) -> None:
    """List a plural column named first by its distinct values ("which brands do we sell?")."""
    if p.draft.aggregates or p.draft.orders or p.draft.shown or not p.mentions:
        return
    first = min(p.mentions, key=lambda m: m.start)
    columns = [
        m
        for m in first.of("column")
        if m.model == p.subject
        and p.column(m).kind == "str"
        and p.value_column(m)
        and m.column != p.draft.schema.title  # "titles published since 2023" are the rows
    ]
    if first.of("model") or first.of("value") or not columns or not is_plural(first.text):
        return
    if _LISTED.match(p.reading.text, first.end):
        return  # "the site codes and types of …": several columns, asked of the rows
    p.draft.select, p.draft.distinct = [columns[0].column or ""], True
    p.used.add(first.start)
