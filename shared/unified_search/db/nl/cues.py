"""Cue words whose meaning depends on what follows: negation, aggregates, grouping, people.

These rules only record where the cues sit. The planner decides what each
governs (the next value, the related model, the column after "average"), and
a cue that governs nothing stays not understood.
"""

from __future__ import annotations

import re

from unified_search.db.nl.lexicon import LIGHT_VERBS, NEGATION, PERSON_WORDS
from unified_search.db.nl.reading import Figure, Reading, TextTest

_FIGURES: tuple[tuple[str, str], ...] = (
    (
        "count",
        r"\bhow many\b|\btotal number of\b|\bcount the number of\b|\bnumber of\b|\bcount(?:\s+(?:of|all|the))*\b|\bheadcount\b|多少个|几个|数量",
    ),
    ("avg", r"\bon average\b|\baverage\b|\bavg\b|\bmean\b|\btypical\b|平均"),
    (
        "sum",
        r"\bin total\b|\btotal\b|\bsum(?:\s+of)?\b|\bhow much\b|\boverall\b|"
        r"\b(?:revenue|turnover|earnings)\b(?!\s+(?:over|above|under|below))|总计|总额|合计|总共",
    ),
    ("max", r"\bmaximum\b|\bmax\b|最大值|最高值"),
    ("min", r"\bminimum\b|\bmin\b|最小值|最低值"),
)
_HIGH = frozenset({"highest", "largest", "biggest", "greatest", "maximum", "max"})
_LOW = "lowest|smallest|least|minimum|min"
_EXTREMES = re.compile(
    rf"\b(?P<first>{'|'.join(_HIGH)}|{_LOW})\s+and\s+(?:the\s+)?(?P<second>{'|'.join(_HIGH)}|{_LOW})\b"
)
_GROUP = re.compile(
    r"\b(?:per|for each|for every|in each|by each|each|grouped by|group by|broken down by|"
    r"breakdown by|split by|by)\b|每个|每|按"
)


_CONTAINS = re.compile(
    r"\b(?:contains?|containing|includes?|including|mentions?|mentioning|matching|"
    r"with the (?:word|text))\s+(?:the\s+(?:word|text)\s+)?"
    r"(?:['\"](?P<quoted>[^'\"]{1,80})['\"]|(?P<word>[^\s'\",?.!;]{2,40}))"
)


_QUOTED = re.compile(r"(?:^|(?<=[\s(]))(['\"])(?P<inner>[^'\"]{1,80}?)\1(?=[\s?.,!;:)]|$)")
_QUOTED_IN = re.compile(
    r"(?:\b(?P<owner>[a-z]+)\s+)?\b(?:having|has|have|with|containing|contains?|including|includes?)\s+"
    r"(?:the\s+(?:word|text|phrase|string)\s+)?['\"](?P<quoted>[^'\"]{1,80})['\"]\s+in\s+"
    r"(?:its|their|his|her|the)\s+(?P<column>[a-z][a-z_]*(?:\s+[a-z][a-z_]*)?)(?=[\s?.,!;]|$)"
)


_EDGES = re.compile(
    r"\b(?P<edge>starts?|starting|begins?|beginning|ends?|ending)\s+(?:with|in)\s+"
    r"(?:['\"](?P<quoted>[^'\"]{1,80})['\"]|(?P<word>[^\s'\",?!;]{1,40}))"
)


def find_quoted(reading: Reading) -> None:
    """Note quoted text ('Hey', "Smith"): its words are never filler."""
    reading.quoted = [m.span("inner") for m in _QUOTED.finditer(reading.text)]


def find_contains(reading: Reading) -> None:
    """Read "title contains analyst", "name starts with A", "email ends with .org": text matches.

    "having 'Hey' in its name" tests the column named after the quoted text.
    """
    for match in list(_QUOTED_IN.finditer(reading.rest)):
        column = match.span("column")
        owner = match["owner"] if match["owner"] not in (None, "who", "that", "which") else None
        start = match.start("owner") if owner else match.start()
        test = TextTest(match["quoted"], start, match.end(), column=column, owner=owner)
        reading.texts.append(test)
        reading.take(match.end("owner") if owner else match.start(), column[0])
        reading.take(column[1], match.end())
    for match in list(_CONTAINS.finditer(reading.rest)):
        text = match["quoted"] or match["word"]
        reading.texts.append(TextTest(text, match.start(), match.end()))
        reading.take(match.start(), match.end())
    for match in list(_EDGES.finditer(reading.rest)):
        text = match["quoted"] or match["word"]
        edge = "start" if match["edge"].startswith(("start", "begin")) else "end"
        reading.texts.append(TextTest(text, match.start(), match.end(), edge))
        reading.take(match.start(), match.end())


def find_negations(reading: Reading) -> None:
    """Record every negation cue; it is used (and marked) when it governs something."""
    reading.negations = [(m.start(), m.end()) for m in NEGATION.finditer(reading.text)]


def find_extremes(reading: Reading) -> None:
    """Read "the highest and lowest price" as the two figures, before orderings take the words."""
    for match in list(_EXTREMES.finditer(reading.rest)):
        if (match["first"] in _HIGH) == (match["second"] in _HIGH):
            continue  # "largest and biggest" is no pair of extremes
        for group in ("first", "second"):
            fn = "max" if match[group] in _HIGH else "min"
            reading.extremes.append(Figure(fn, *match.span(group)))
        reading.take(match.start(), match.end())


def find_figures(reading: Reading) -> None:
    """Record the aggregate cues ("how many", "average", "maximum") and the grouping cues.

    The first cue is ``Reading.figure``, the others ``Reading.more_figures``.
    """
    cues = (
        Figure(fn, m.start(), m.end()) for fn, p in _FIGURES for m in re.finditer(p, reading.rest)
    )
    found = sorted([*reading.extremes, *cues], key=lambda f: (f.start, -f.end))
    named = [(m.start, m.end) for m in reading.mentions if m.of("column") and not m.of("model")]
    kept: list[Figure] = []
    for figure in found:
        inside = any(
            a <= figure.start and figure.end <= b and b - a > figure.end - figure.start
            for a, b in named
        ) or _ordered_column(reading, figure, named)
        if not inside and (not kept or figure.start >= kept[-1].end):
            kept.append(figure)  # "number of products" naming ``Number_products`` is no count
    if kept:
        reading.figure, reading.more_figures = kept[0], kept[1:]
    for match in _GROUP.finditer(reading.rest):
        before = reading.text[: match.start()].split()
        if match.group() == "by" and before and _agent(before[-1]):
            continue  # "pets owned by students": who did it, not a grouping
        reading.groups.append(match.end())
        if match.group() == "by":  # "placed by", "written by": grouping only with a figure
            reading.loose_groups.add(match.end())


def _ordered_column(reading: Reading, figure: Figure, named: list[tuple[int, int]]) -> bool:
    """Tell whether a cue word names the column an ordering sorts ("the lowest average")."""
    exact = (figure.start, figure.end) in named
    return exact and any(
        w.term is not None and w.term[0] <= figure.start and figure.end <= w.term[1]
        for w in reading.orders
    )


def _agent(word: str) -> bool:
    """Tell whether ``word`` is a verb whose "by" names who did it ("owned", "written")."""
    return word.endswith(("ed", "en")) or word in LIGHT_VERBS


def find_person(reading: Reading) -> None:
    """Note a question about people ("who …", "people who …")."""
    reading.person = any(t.text in PERSON_WORDS for t in reading.tokens)
