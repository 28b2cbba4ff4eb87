"""Phrases that name values, models and columns, read into a plan's conditions.

A value names its own column; when several models hold it, the one whose column or model the
question names nearby wins, and a foreign key named just before it ("managed by X") says which
link to follow. A related model named alone asks for rows that have (or, negated, lack) related
rows. A yes/no column named as a quality is a test of it; "no rating", "without a manager" test a
column for emptiness. A negation governs the closest condition after it.
"""

from __future__ import annotations

import re
from typing import Any

from unified_search.db.dsl import Op, Where
from unified_search.db.nl.draft import Placed
from unified_search.db.nl.lexicon import DIRECTION_CUES, DIRECTION_WORDS
from unified_search.db.nl.reading import NEAR, Mention
from unified_search.db.nl.state import PlanState
from unified_search.db.nl.text import name_words
from unified_search.db.nl.vocabulary import Meaning

_HAVING = re.compile(
    r"\b(?:with|having|has|have|had|(?:that|who|which)\s+(?:has|have|had))\s+(?:an?\s+|any\s+)?$"
)
_TESTED = re.compile(r"\b(?:whose|where|with\s+the|when|if)\s+(?:the\s+|its\s+|their\s+)?$")
_COPULA = re.compile(
    r"\s*(?:(?:is|are|was|were|=|equals?|named|called|of)\s+)?(?:not\s+)?(?:the\s+)?['\"]?"
)
_YES_NO = (("yes", "no"), ("y", "n"), ("t", "f"), ("true", "false"))
_EMPTY_CUES = ("no", "without", "not", "never", "没有", "无")


def place(p: PlanState, mention: Mention) -> None:
    """Read one phrase naming a value, a model or a column into the plan."""
    if mention.start in p.used:
        return
    values = [m for m in mention.of("value") if p.draft.reachable(m.model)]
    if values:
        chosen = _best_value(p, mention, values)
        if chosen is None:  # "flights going LAX": the source or the destination?
            p.unknown.append(mention.text)
        else:
            _value(p, mention, chosen)
        return
    if mention.of("model"):
        _related(p, mention, mention.of("model")[0].model)
        return
    columns = [m for m in mention.of("column") if p.draft.reachable(m.model)]
    if not columns or _flag(p, mention, columns) or _empty(p, mention, columns):
        return
    related = {m.model for m in columns} - {p.subject}
    dated = all(p.column(m).kind in ("date", "datetime") for m in columns)
    if mention.text.endswith("ed") and dated and len(related) == len(columns) == 1:
        model = related.pop()
        if not p.draft.one_to_one(model):  # "members who borrowed": they have loans
            _related(p, mention, model)
            return
    cue = p.reading.figure
    if cue is not None and cue.start <= mention.start < cue.end:
        return  # "total" read as a total that found nothing to sum: not understood
    if link_named(p, columns):
        p.used.add(mention.start)  # "the head of the department": the link the plan follows
        return
    owner = _owner_after(p, mention)
    if owner is not None and owner != p.subject:
        _shown_of_related(p, mention, owner, columns)
        return
    if all(m.model != p.subject for m in columns):
        return  # a related model's column named bare ("bookings of …") shows nothing here
    if _HAVING.search(p.reading.text[: mention.start]):
        _filled(p, mention, columns)  # "stores with a manager": one is there
        return
    if _TESTED.search(p.reading.text[: mention.start]):
        return  # "teachers whose hometown …": a test nothing read is not understood
    p.used.add(mention.start)  # a column named only to show or compare it


_OF_OWNER = re.compile(r"\s+of\s+(?:the|their|its|his|her|each|every)\s+(?:[a-z]+\s+){0,2}?$")


def _owner_after(p: PlanState, mention: Mention) -> str | None:
    """The model named right after a column word ("the names of their home ports": ports)."""
    for other in p.mentions:
        if other.start >= mention.end and other.of("model"):
            gap = p.reading.text[mention.end : other.start]
            return other.of("model")[0].model if _OF_OWNER.fullmatch(gap) else None
    return None


def _shown_of_related(p: PlanState, mention: Mention, owner: str, columns: list[Meaning]) -> None:
    """Show a column of the one row a subject row links to; anything else is not understood."""
    mine = {m.column or "" for m in columns if m.model == owner}
    linked = len(mine) == 1 and p.draft.one_to_one(owner) and not p.draft.aggregates
    placed = p.draft.field(owner, mine.pop(), condition=False) if linked else None
    if placed is None or not p.draft.shown:
        if any(m.model == p.subject for m in columns):
            p.unknown.append(mention.text)  # not to be read as the subject's own column
        return
    if placed[0] not in p.draft.shown:
        p.draft.shown.append(placed[0])
    p.understood(mention.start, mention.end, p.weight(owner))


def _best_value(p: PlanState, mention: Mention, values: list[Meaning]) -> Meaning | None:
    """Pick the column a value belongs to: an exact match, its column or model named nearby.

    Between two columns of one model holding the value, the direction before it decides
    ("from JFK" is the source airport); without one, neither is chosen.
    """
    hint = direction(p, mention)
    named = {
        (c.model, c.column)
        for m in p.mentions
        if 0 <= mention.start - m.end <= NEAR
        for c in m.of("column")
    }
    nearest = p.models_near(mention.start)[1:2]

    def rank(meaning: Meaning) -> tuple[int, ...]:
        hops = p.domain.relations.paths(p.subject, meaning.model)
        return (
            int(meaning.exact),
            int((meaning.model, meaning.column) in named),
            int(_points(meaning.column or "", hint)),
            int(meaning.model in nearest),
            int(meaning.model == p.subject),
            -len(hops[0]) if hops else 0,
        )

    best = max(values, key=rank)
    tied = {m.column for m in values if rank(m) == rank(best) and m.model == best.model}
    return best if len(tied) == 1 else None


def direction(p: PlanState, mention: Mention) -> str | None:
    """The direction a preposition right before ``mention`` asks for ("to Paris": ``to``)."""
    before = re.search(r"([a-z]+)\s+(?:the\s+)?$", p.reading.text[: mention.start])
    return DIRECTION_CUES.get(before.group(1)) if before else None


def _points(column: str, hint: str | None) -> bool:
    return hint is not None and bool(DIRECTION_WORDS[hint] & set(name_words(column)))


def _value(p: PlanState, mention: Mention, meaning: Meaning) -> None:
    alternatives = [
        (other, m)
        for other in p.mentions
        if other is not mention and other.start not in p.used
        for m in other.of("value")
        if (m.model, m.column) == (meaning.model, meaning.column)
        and _joined_by_or(p.reading.text, mention, other)
    ]
    role = _role(p, mention, meaning)
    column = meaning.column or ""
    if role is not None:
        placed: Placed | None = p.draft.by_role(role, meaning.model, column)
    else:
        placed = p.draft.field(meaning.model, column, hint=direction(p, mention))
    if placed is None:
        return
    values = [meaning.value, *(m.value for _, m in alternatives)]
    negated = p.negated(mention)
    branch_negation = negated and placed[1] is not None
    both = placed[1] is not None and any(
        _joined_by_and(p.reading.text, mention, other) for other, _ in alternatives
    )
    if both and negated:
        p.unknown.append("and")  # "not by A and B": neither, or not both?
    elif both:  # "cartoons directed by A and B": a related row for each
        for each in values:
            p.where(placed, Where(field=placed[0], op=Op.EQ, value=each))
    else:
        op = _membership(len(values) > 1, negated and not branch_negation)
        value: Any = values if len(values) > 1 else values[0]
        p.where(placed, Where(field=placed[0], op=op, value=value), branch_negation)
    for other, _ in alternatives:
        p.reading.take(mention.end, other.start)  # the "or" between them
        p.understood(other.start, other.end)
    for named in p.mentions:  # "in room C": the word naming the value's column is read too
        close = named.end <= mention.start and _COPULA.fullmatch(
            p.reading.text[named.end : mention.start]
        )
        if close and any(
            (c.model, c.column) == (meaning.model, meaning.column) for c in named.of("column")
        ):
            p.used.add(named.start)
    p.understood(mention.start, mention.end, p.weight(meaning.model))


def _role(p: PlanState, mention: Mention, meaning: Meaning) -> str | None:
    """Find a foreign key named just before a value of what it points to ("managed by X")."""
    for other in p.mentions:
        if not 0 <= mention.start - other.end <= 12 or other.of("model"):
            continue
        for column in other.of("column"):
            info = p.column(column)
            target = (info.foreign_key or "").rpartition(".")[0]
            if column.model == p.subject and target == meaning.model:
                p.used.add(other.start)
                return info.name
    return None


def _related(p: PlanState, mention: Mention, model: str) -> None:
    """A related model named alone: "customers with orders" (or "without orders")."""
    if model == p.subject:
        p.used.add(mention.start)
        return
    placed = p.draft.field(model, "") if p.draft.reachable(model) else None
    if placed is None:
        p.unknown.append(mention.text)
        return
    branch = placed[1]
    cue = p.cue_for(mention)
    if p.negated(mention):
        if branch is None:  # "plots not assigned to any gardener": a link that may be empty
            p.unknown.append("not")
        elif cue is not None and branch.wheres and not branch.negated and _tested_before(p, cue):
            # "harvested beans but never harvested onions": the negation is about other rows
            # than those the branch already tests
            p.unknown.append(p.reading.text[cue[0] : cue[1]])
        else:
            branch.negated = True
    p.understood(mention.start, mention.end, 0.5)


def _tested_before(p: PlanState, cue: tuple[int, int]) -> bool:
    """Tell whether a related row's value was read before a negation cue ("beans but never")."""
    return any(
        m.end <= cue[0] and m.start in p.used and any(v.model != p.subject for v in m.of("value"))
        for m in p.mentions
    )


def _flag(p: PlanState, mention: Mention, columns: list[Meaning]) -> bool:
    """Read a yes/no column named as a quality: "vegetarian dishes", "non-VIP guests"."""
    flags = [m for m in columns if _yes(p, m) is not None and p.value_column(m)]
    if not flags:
        return False
    chosen = min(flags, key=lambda m: m.model != p.subject)
    placed = p.draft.field(chosen.model, chosen.column or "")
    if placed is None:
        return False
    negated = p.negated(mention)
    across = negated and placed[1] is not None  # "guests who never ordered a vegetarian dish"
    yes, no = _yes(p, chosen) or (True, False)
    value = no if negated and not across else yes
    p.where(placed, Where(field=placed[0], op=Op.EQ, value=value), across)
    p.understood(mention.start, mention.end, p.weight(chosen.model))
    return True


def _filled(p: PlanState, mention: Mention, columns: list[Meaning]) -> None:
    """Read a column named as something rows have: it is filled in, or it is not understood."""
    own = [m for m in columns if m.model == p.subject and p.column(m).nullable]
    if not own:
        return  # "channels that have pay per view" with nothing to test: not understood
    p.where((own[0].column or "", None), Where(field=own[0].column, op=Op.IS_NOT_NULL))
    p.understood(mention.start, mention.end, p.weight(own[0].model))


def _yes(p: PlanState, meaning: Meaning) -> tuple[Any, Any] | None:
    """The values of a yes/no column: a boolean, or text that says yes or no ("T", "yes")."""
    info = p.column(meaning)
    if info.kind == "bool":
        return True, False
    if info.kind == "int" and name_words(info.name)[:1] in (["is"], ["has"]):
        return 1, 0  # ``is_vegetarian``, ``has_water_tap``: a flag held as 1 or 0
    sample = p.domain.samples.get(meaning.model)
    values = sample.categories.get(meaning.column or "", ()) if sample else ()
    pairs = {v.strip().lower(): v for v in values}
    for yes, no in _YES_NO:
        if set(pairs) <= {yes, no} and yes in pairs:
            return pairs[yes], pairs.get(no, no)
    return None


def _empty(p: PlanState, mention: Mention, columns: list[Meaning]) -> bool:
    """Read "no rating", "without a manager", "not returned": the column is empty.

    A verb naming a column that may be empty ("returned loans") asks for it to be filled.
    """
    cue = p.cue_for(mention)
    nullable = [m for m in columns if p.column(m).nullable]
    cue_word = p.reading.text[cue[0] : cue[1]] if cue else ""
    dated = [m for m in nullable if p.column(m).kind in ("date", "datetime")]
    participle = mention.text.endswith("ed") and bool(dated)
    if not nullable or not (cue_word in _EMPTY_CUES or participle) or _valued(p, mention):
        return False
    chosen = nullable[0] if cue_word in _EMPTY_CUES else dated[0]
    placed = p.draft.field(chosen.model, chosen.column or "")
    if placed is None:
        return False
    op = Op.IS_NULL if cue_word in _EMPTY_CUES else Op.IS_NOT_NULL
    if op is Op.IS_NULL and placed[1] is not None:
        # "employees who never won an award": no related row has one (not a related row without)
        p.where(placed, Where(field=placed[0], op=Op.IS_NOT_NULL), True)
    else:
        p.where(placed, Where(field=placed[0], op=op))
    if cue and op is Op.IS_NULL:
        p.reading.take(*cue)
    p.understood(mention.start, mention.end, 1)
    return True


def _valued(p: PlanState, mention: Mention) -> bool:
    """Tell whether a value of the column follows it: "not written by X" tests X, not emptiness."""
    columns = {(c.model, c.column) for c in mention.of("column")}
    return any(
        0 <= other.start - mention.end <= 12
        and any((v.model, v.column) in columns for v in other.of("value"))
        for other in p.mentions
    )


def _membership(many: bool, negated: bool) -> Op:
    if many:
        return Op.NOT_IN if negated else Op.IN
    return Op.NE if negated else Op.EQ


def _joined_by_and(text: str, first: Mention, other: Mention) -> bool:
    """Tell whether "and" (not "or") joins two values: on related rows, both are asked for."""
    return _joined_by_or(text, first, other) and bool(
        re.search(r"\band\b|和", text[first.end : other.start])
    )


def _joined_by_or(text: str, first: Mention, other: Mention) -> bool:
    if other.start < first.end:
        return False
    return text[first.end : other.start].strip() in (
        "or",
        ",",
        ", or",
        "and",
        "/",
        "或",
        "或者",
        "和",
    )


def link_named(p: PlanState, columns: list[Meaning]) -> bool:
    """Tell whether a phrase names the foreign key of a link the plan already follows."""
    linked = {p.subject, *(j.model for j in p.draft.joins.values())}
    for meaning in columns:
        target = (p.column(meaning).foreign_key or "").rpartition(".")[0]
        if target and meaning.model in linked and target in linked and meaning.model != target:
            return True
    return False
