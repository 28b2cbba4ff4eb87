"""Tie what was read to the database: one subject's plan, built step by step on a ``PlanState``.

The shape of the answer comes first (ranked or counted related rows, figures), then numbers,
dates and text matches (``quantities``), the phrases naming values, models and columns
(``mentions``), orderings and listings (``measures``) and the words seen in the data. Whatever
nothing claims is not understood, and the plan says so instead of guessing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from pydantic import ValidationError

from unified_search.db.dsl import Op, QueryDSL, Where
from unified_search.db.nl import figures, measures, mentions, orders, overall, quantities, shown
from unified_search.db.nl.doubts import doubts
from unified_search.db.nl.draft import Branch
from unified_search.db.nl.lexicon import (
    FILLER,
    GENERIC_VERBS,
    LIGHT_VERBS,
    PAST_ROOTS,
    RELATION_VERBS,
)
from unified_search.db.nl.mentions import link_named
from unified_search.db.nl.reading import Mention, Reading
from unified_search.db.nl.state import NO_LEAD, PlanState
from unified_search.db.nl.text import Token, escape_like, name_words, stem
from unified_search.db.nl.vocabulary import Domain, Keyword

#: Filler words that join conditions: left over, they join what the plan could not join.
_JOINING = frozenset({"or"})
_LIGHT = frozenset(stem(w) for w in LIGHT_VERBS)
_FIGURE_WORDS = {
    "number": "count",
    "count": "count",
    "total": "sum",
    "sum": "sum",
    "average": "avg",
}
_GENERIC = frozenset(stem(w) for w in GENERIC_VERBS)
#: Most keywords turned into text tests.
MAX_KEYWORDS = 8


@dataclass(frozen=True)
class Plan:
    """The DSL for one subject and how it was read.

    Example:
        >>> Plan(QueryDSL(model="orders")).dsl.model
        'orders'
    """

    dsl: QueryDSL
    keywords: tuple[str, ...] = ()
    relaxed: QueryDSL | None = None
    """The same query with any keyword enough, to retry when every-keyword finds nothing."""
    unknown: tuple[str, ...] = ()
    """Words of the question nothing understood."""
    score: float = 0.0
    """How strongly the question points at this subject (its own columns count double)."""
    lead: int = NO_LEAD
    """Where the first phrase about the subject's own columns sits: the head of the question."""


def best(plans: Sequence[Plan]) -> list[Plan]:
    """Keep the plans that understood the most, read best, and lead the question (all on a tie)."""
    if not plans:
        return []
    rank = [(len(p.unknown), -p.score, p.lead) for p in plans]
    top = min(rank)
    return [p for p, r in zip(plans, rank, strict=True) if r == top]


class Planner:
    """Builds one subject's plan from a reading (each plan works on its own reading)."""

    def __init__(self, reading: Reading, domain: Domain, subject: str) -> None:
        self.state = PlanState.start(reading, domain, subject)

    def build(self) -> Plan:
        """Place everything read, then account for the words left over."""
        p = self.state
        measures.shape(p)
        _note_subject(p)
        figures.figures(p)
        for test in p.reading.numbers:
            if id(test) not in p.handled:
                quantities.number(p, test)
        for compared in p.reading.overalls:
            overall.place_overall(p, compared)
        quantities.dates(p, p.reading.dates)
        for text in p.reading.texts:
            quantities.text(p, text)
        shown.place_shown(p)
        for mention in p.mentions:
            mentions.place(p, mention)
        for wish in p.reading.orders:
            if id(wish) not in p.handled:
                orders.order(p, wish)
        figures.listing(p)
        for keyword, start in p.reading.keywords[:MAX_KEYWORDS]:
            _keyword(p, keyword, start)
        _account(p)
        p.unknown += _unplaced_groups(p)
        p.unknown += doubts(p)
        if contradictory(p.draft.wheres):
            p.unknown.append("and")  # "a singer above 40 and a singer below 30": two rows
        if _negated_elsewhere(p):
            p.unknown.append("not")
        for model in dict.fromkeys(p.draft.ambiguous):  # "airports with flights": from or to?
            p.unknown.append(f"which link to {model}")
        try:
            dsl, relaxed = p.draft.dsl()
        except ValidationError as exc:  # more joins or figures than one query may hold
            p.unknown.append(f"a query this large ({exc.errors()[0]['msg']})")
            dsl, relaxed = QueryDSL(model=p.subject), None
        unknown = tuple(dict.fromkeys(p.unknown))
        return Plan(dsl, tuple(p.keywords), relaxed, unknown, p.score, p.lead)


def _note_subject(p: PlanState) -> None:
    for mention in p.mentions:
        named = {m.model for m in mention.of("model")}
        if p.subject in named or (p.head is not None and p.head in named):
            p.understood(mention.start, mention.end, 3)


def _keyword(p: PlanState, keyword: Keyword, start: int) -> None:
    """A word seen in sampled text: it must appear in the columns holding it (or not, negated)."""
    negated = p.negated(Mention(start, start + len(keyword.word), keyword.word, []))
    places = [spot for spot in keyword.places if spot[0] == p.subject] or [
        spot for spot in keyword.places if p.draft.reachable(spot[0])
    ]
    if not places:
        p.unknown.append(keyword.word)
        return
    model = places[0][0]
    op = Op.NOT_LIKE if negated else Op.LIKE
    placed = [p.draft.field(model, c) for m, c in places if m == model]
    tests = [
        Where(field=spot[0], op=op, value=f"%{escape_like(form)}%")
        for spot in placed
        if spot is not None
        for form in keyword.forms
    ]
    branch: Branch | None = placed[0][1] if placed[0] else None
    where = Where(wheres=tests) if negated else Where(or_=tests) if len(tests) > 1 else tests[0]
    if branch is None and model == p.subject and not negated:
        p.draft.keyword_wheres.append(where)
        p.draft.keyword_any += tests
    else:
        p.draft.add_where(where, branch, negated and branch is not None)
    p.keywords.append(keyword.word)
    p.understood(start, start + len(keyword.word), p.weight(model))


def _account(p: PlanState) -> None:
    """Note every word no rule, mention or keyword claimed."""
    for token in p.reading.open_tokens():
        quoted = any(a <= token.start < b for a, b in p.reading.quoted)
        if token.start in p.used or (
            token.text in FILLER and token.text not in _JOINING and not quoted
        ):
            continue
        if not token.is_word and not token.text[0].isdigit():
            continue  # a symbol
        if any(m.start in p.used and m.start <= token.start < m.end for m in p.mentions):
            continue
        if _verb_in_data(p, token):
            continue  # "films that won an award": the awards whose result is "Winner"
        if p.draft.joins and token.stem in RELATION_VERBS:
            continue  # "who bought …": the join already says it
        if token.stem in _LIGHT and _conditions(p) and _fits_link(p, token):
            continue  # "pets owned by students older than 20": the link and test say it
        if token.text in ("id", "ids") and p.draft.schema.primary_key:
            continue  # "their ids": the rows carry their key
        if _FIGURE_WORDS.get(token.text) in {a.fn for a in p.draft.aggregates}:
            continue  # "… and the number": the figure already asked for
        if any(
            m.start <= token.start < m.end and link_named(p, m.of("column")) for m in p.mentions
        ):
            continue  # "the head of the department": the link the plan follows
        p.unknown.append(token.text)


def _unplaced_groups(p: PlanState) -> list[str]:
    """The "each"/"per" cues of a figure that found nothing to group by ("… of each type").

    Answered without them, a figure per group would come back as one figure over all rows.
    """
    if not p.draft.aggregates or p.draft.group_by:
        return []
    text = p.reading.text
    cues = [g for g in p.reading.groups if g not in p.reading.loose_groups]
    return [text[start:end] for end in cues if p.reading.free(start := _word_start(text, end), end)]


def _word_start(text: str, end: int) -> int:
    words = text[:end].split()
    return end - len(words[-1]) if words else end


def _verb_in_data(p: PlanState, token: Token) -> bool:
    """Read a verb that stored values name ("won" where a result column holds "Winner").

    Such a verb is a condition, not only the link it seems to stand for: one value it names,
    in one column of the rows the plan reads, becomes that test; several, or a negation before
    the verb, are not understood (the verb is then left for the accounting to report).
    """
    if not token.is_word or token.text in FILLER or len(token.text) < 3:
        return False
    root = PAST_ROOTS.get(token.text, token.stem)
    models = [p.subject, *dict.fromkeys(j.model for j in p.draft.joins.values())]
    hits = [
        (model, column, value)
        for model in dict.fromkeys(models)
        for column, values in _categories(p, model).items()
        for value in values
        if _names_doing(value, token.text, root)
    ]
    if not hits:
        return False
    negated = any(
        b == token.start or p.reading.text[b : token.start].strip() == ""
        for _, b in p.reading.negations
    )
    placed = p.draft.field(hits[0][0], hits[0][1]) if len(hits) == 1 and not negated else None
    if placed is None:
        p.unknown.append(token.text)
        return True
    branch = placed[1]
    where = Where(field=placed[0], op=Op.EQ, value=hits[0][2])
    p.where(placed, where, branch is not None and branch.negated)
    p.understood(token.start, token.end, p.weight(hits[0][0]))
    return True


def _categories(p: PlanState, model: str) -> dict[str, tuple[str, ...]]:
    sample = p.domain.samples.get(model)
    schema = p.domain.models[model]
    if sample is None:
        return {}
    return {
        column: values
        for column, values in sample.categories.items()
        if not schema.columns[column].primary_key and not schema.columns[column].foreign_key
    }


_DOING = frozenset({"", "s", "e", "ed", "er", "ers", "ner", "ners", "ee", "ees", "or", "ors"})


def _names_doing(value: str, verb: str, root: str) -> bool:
    """Tell whether a stored value is the verb or one who does it ("Won", "Winner", "Nominee")."""
    words = value.lower().split()
    if len(words) != 1 or len(root) < 3:
        return False
    word = words[0]
    return word == verb or (word.startswith(root) and word[len(root) :] in _DOING)


def _negated_elsewhere(p: PlanState) -> bool:
    """Tell whether a negation may govern other rows than those the answer lists.

    "Countries not playing cartoons by X" lists values: are they the countries with a channel
    not playing them, or those with no channel playing them? And when the columns asked for
    belong to a related model, the negation may be about its rows, not the subject's. Either
    way two readings answer differently, so neither is given.
    """
    draft = p.draft
    cues = [(a, b) for a, b in p.reading.negations if not p.reading.free(a, b)]
    negated = bool(cues) and (
        any(w.op in (Op.NE, Op.NOT_IN, Op.NOT_LIKE) for w in draft.wheres)
        or any(b.negated for b in draft.branches.values())
    )
    if not negated:
        return False
    if any("." in f for f in draft.shown):
        return True
    keys = set(draft.schema.primary_key)
    listed = draft.distinct and not draft.aggregates and not keys & set(draft.shown)
    return listed and not all(_of_rows_that(p, start) for start, _ in cues)


def _of_rows_that(p: PlanState, cue: int) -> bool:
    """Tell whether a negation sits in a clause about the subject's rows: "… of players who are not"."""
    for mention in p.mentions:
        if mention.end <= cue and any(m.model == p.subject for m in mention.of("model")):
            before = p.reading.text[: mention.start]
            between = p.reading.text[mention.end : cue]
            if re.search(r"\bof\s+(?:all\s+)?(?:the\s+)?$", before) and re.fullmatch(
                r"\s*(?:that|who|which)\b.*", between
            ):
                return True
    return False


def _conditions(p: PlanState) -> bool:
    """Tell whether the plan follows a link or tests anything."""
    draft = p.draft
    return bool(draft.joins or draft.wheres or draft.having or draft.branches or draft.group_by)


def contradictory(wheres: list[Where]) -> bool:
    """Tell whether tests of one field cannot hold together (two values, an empty range).

    Such a question asks about two different rows ("countries with a singer above 40 and a
    singer below 30"), which one query over rows cannot answer: it is not understood.
    """
    tests: dict[str, list[Where]] = {}
    for where in wheres:
        if isinstance(where.field, str) and where.than is None and not (where.or_ or where.wheres):
            tests.setdefault(where.field, []).append(where)
    return any(_empty(found) for found in tests.values())


def _empty(tests: list[Where]) -> bool:
    if any(w.op is Op.IS_NULL for w in tests) and len(tests) > 1:
        return True  # "empty and equal to X"
    equal = {repr(w.value) for w in tests if w.op is Op.EQ}
    lows = [(w.value, w.op is Op.GT) for w in tests if w.op in (Op.GT, Op.GE)]
    highs = [(w.value, w.op is Op.LT) for w in tests if w.op in (Op.LT, Op.LE)]
    try:
        return len(equal) > 1 or any(
            low > high or (low == high and (strict_low or strict_high))
            for low, strict_low in lows
            for high, strict_high in highs
        )
    except TypeError:  # values of different kinds: nothing to say
        return False


def _fits_link(p: PlanState, token: Token) -> bool:
    """Tell whether a verb may stand for the links the plan follows.

    Verbs of having fit any link. Another verb naming who did it ("written by …") fits only
    where the schema names that doing (a ``Written_by`` column, a ``writer`` model): otherwise
    it would be read as a link it does not mean ("books written by Maya" are not her orders).
    """
    by = re.match(r"\s+by\b", p.reading.text[token.end :])
    if token.stem in _GENERIC or by is None:
        return True
    start = token.end + by.end()
    agents = [m for m in p.mentions if start <= m.start <= start + 30 and m.of("model")]
    if any(m.model == p.subject for a in agents[:1] for m in a.of("model")):
        return True  # "goals scored by English players": the subject's own rows did it
    root = token.stem[:4]
    names = (
        word
        for name, schema in p.domain.models.items()
        for word in [*name_words(name), *(w for c in schema.columns for w in name_words(c))]
    )
    return len(root) == 4 and any(word.startswith(root) for word in names)
