"""The columns a question asks to see: "the names and ages of the students", "the model of the car".

A question that opens with "what is/are", "which", "show", "list", "find", "give" … and then
names columns, joined by commas and "and", asks for those columns; the model named after them
("of the students", "for all singers") is what the question is about. "… and the name of its
artist" asks for a column of a related model. The answer returns the asked-for columns first,
then the rest of the row (a row stays whole, so it can be cited); "distinct" or "different"
before them asks for their distinct values only. A column of a related model is shown only when
each row has at most one such related row ("the name of its artist"); otherwise it is left to the
rules that count or group related rows.
"""

from __future__ import annotations

import itertools
import re

from unified_search.db.nl.names import is_person_model
from unified_search.db.nl.reading import Mention, Reading
from unified_search.db.nl.state import PlanState
from unified_search.db.nl.text import is_plural, name_words, stems
from unified_search.db.nl.vocabulary import Meaning

_LEAD = re.compile(
    r"(?:(?=the\s)|(?:what|which)(?:\s+(?:is|are|was|were))?\s+|who\s+(?:is|are|was|were)\s+"
    r"|(?:please\s+)?(?:show|list|find|give|return|display|get|tell|report|provide|output"
    r"|retrieve|print|name)(?:\s+(?:me|us))?\s+|(?=[a-z]))"
)
_SENTENCE = re.compile(r"[.?!;]\s+(?=[a-z])")
_SEPARATOR = re.compile(
    r"(?:[\s,&]|\b(?:and|as well as|along with|together with|plus|also|both|the|their|its|his"
    r"|her|all|every|each|distinct|different|unique)\b)*"
)
_OF = re.compile(
    r"\s*(?:of|for|from|in|among|on)\s+"
    r"(?:(?:the|all|each|every|a|an|its|their|his|her|all\s+the|any)\s+)?"
)
_OWNED = re.compile(r"\s*of\s+(?:its|their|his|her|the)\s+")
_ALSO = re.compile(
    r"\s*,?\s*(?:and|as well as|along with|together with)\s+(?:(?:the|what|which|their|its)\s+)?"
)
_PEOPLE_OF = re.compile(r"\s+of\s+(?:all\s+)?(?:the\s+)?(?P<who>people|persons|person)\b")
_DISTINCT = re.compile(r"\b(?:distinct|different|unique)\b")


def find_shown(reading: Reading) -> None:
    """Record the columns the question asks for and the model they belong to.

    Each sentence may ask ("Which teams were founded before 1900? Show their names.").
    """
    mentions = sorted(reading.mentions, key=lambda m: m.start)
    for sentence in (0, *(m.end() for m in _SENTENCE.finditer(reading.text))):
        lead = _LEAD.match(reading.text, sentence)
        if lead is None:
            continue
        before = len(reading.shown), reading.asked
        _shown_after(reading, mentions, lead.end())
        if lead.end() == lead.start() and reading.asked is before[1]:
            del reading.shown[before[0] :]  # no lead word: only "the names … of the X" asks
    _owned(reading, mentions)


def _shown_after(reading: Reading, mentions: list[Mention], position: int) -> None:
    """Record the asked-for columns named from ``position`` on."""
    for index, mention in enumerate(mentions):
        if mention.start < position:
            continue
        gap = reading.text[position : mention.start]
        if reading.shown and mention.of("model") and _OF.fullmatch(gap):
            weak = not re.match(r"\s*(?:of|for)\b", gap)  # "singer names in concerts"
            if not (weak and reading.shown[-1].start in reading.owners):
                reading.asked = mention.of("model")[0].model  # "the names of the students"
                _also_asked(reading, mention, mentions[index + 1 :])
            break
        if not _SEPARATOR.fullmatch(gap) or not mention.of("column"):
            break
        if mention.of("model") and _model_column(reading, mention, mentions[index + 1 :]):
            position = reading.shown[-1].end  # "the team name": the team's name
            continue
        if mention.of("model") and not _column_first(reading, mentions[index + 1 :], mention):
            break  # "which countries …", "orders of customers": a model named first is the subject
        if _DISTINCT.search(gap):
            reading.distinct = True
            reading.take(position, mention.start)
        reading.shown.append(mention)
        position = mention.end


def _also_asked(reading: Reading, asked: Mention, after: list[Mention]) -> None:
    """Record "… of teachers and the courses they teach": another model's rows are asked too."""
    following = after[0] if after else None
    if following is None or not following.of("model"):
        return
    gap = reading.text[asked.end : following.start]
    if _ALSO.fullmatch(gap) and following.of("model")[0].model != reading.asked:
        reading.shown.append(following)
        reading.owners[following.start] = following.of("model")[0].model


def _model_column(reading: Reading, model: Mention, after: list[Mention]) -> bool:
    """Read "the team name" as a column of the model named right before the column word."""
    following = after[0] if after else None
    if following is None or reading.text[model.end : following.start].strip():
        return False
    name = model.of("model")[0].model
    if not any(m.model == name and m.exact for m in following.of("column")) or following.of(
        "model"
    ):
        return False  # "which venue holds …": a synonym is no column named after its model
    reading.shown.append(following)
    reading.owners[following.start] = name
    reading.possessors.append(model)
    return True


def _column_first(reading: Reading, after: list[Mention], mention: Mention) -> bool:
    """Tell whether a phrase naming a model names a column first: "the model of the car".

    It must name the column whole and be followed by "of" and another model.
    """
    whole = [
        m
        for m in mention.of("column")
        if stems(" ".join(name_words(m.column or ""))) == stems(mention.text)
    ]
    return bool(whole) and _owner(reading, after, mention.end) is not None


def _owner(reading: Reading, after: list[Mention], end: int) -> Mention | None:
    """The model mention right after "of …" that follows a phrase ending at ``end``."""
    for mention in after:
        if mention.of("model") and _OF.fullmatch(reading.text[end : mention.start]):
            return mention
        return None
    return None


def _owned(reading: Reading, mentions: list[Mention]) -> None:
    """Add "… the name of its artist": a column of a related model, named after the subject."""
    for mention, model in itertools.pairwise(mentions):
        if mention in reading.shown or not mention.of("column") or not model.of("model"):
            continue
        gap = reading.text[mention.end : model.start]
        before = reading.text[: mention.start].rstrip()
        if _OWNED.fullmatch(gap) and re.search(r"(?:,|\band)(?:\s+the)?$", before):
            reading.shown.append(mention)
            reading.owners[mention.start] = model.of("model")[0].model


def place_shown(p: PlanState) -> None:
    """Put the asked-for columns first in the answer (or among the groups of a grouped answer).

    Only when the question names a model: "which brands do we sell?" lists distinct values.
    """
    for mention in p.reading.shown[-1:]:  # "the names of the people who …": people's names
        people = _PEOPLE_OF.match(p.reading.text, mention.end)
        if people and not is_person_model(p.draft.schema):
            p.unknown.append(people["who"])
    named = any(m.of("model") for m in p.mentions if m not in p.reading.shown)
    if not (named or p.reading.asked):
        return
    asked: set[tuple[str, str]] = set()
    for mention in p.reading.shown:
        if mention.start in p.used:
            continue
        meaning = _column_of(p, mention)
        placed = (
            p.draft.field(meaning.model, meaning.column or "", condition=False)
            if meaning is not None
            else None
        )
        if meaning is None or placed is None:
            if mention.text not in ("id", "ids"):  # the rows carry their key
                p.unknown.append(mention.text)  # asked for, yet not in the answer: never dropped
            continue
        if (placed[0], mention.text) in asked:  # "the names of vessels and the names of …"
            p.unknown.append(mention.text)
            continue
        asked.add((placed[0], mention.text))
        if p.draft.aggregates:
            if placed[0] not in p.draft.group_by and not _groups_rows_of(p, meaning.model):
                p.unknown.append(mention.text)  # "the names … and the number of …" per what?
                continue
            if placed[0] not in p.draft.group_by:
                p.draft.group_by.append(placed[0])
        elif placed[0] not in p.draft.shown:
            p.draft.shown.append(placed[0])
        p.understood(mention.start, mention.end, p.weight(meaning.model))
        for possessor in p.reading.possessors:  # "the team name": "team" is read too
            if not p.reading.text[possessor.end : mention.start].strip():
                p.understood(possessor.start, possessor.end)
    if _listed(p):  # "the cities of our customers": the distinct cities
        p.draft.distinct = True
    p.draft.distinct = p.draft.distinct or (p.reading.distinct and bool(p.draft.shown))


def _listed(p: PlanState) -> bool:
    """Tell whether one plural text column is asked for, other than the rows' names."""
    if len(p.draft.shown) != 1 or len(p.reading.shown) != 1 or p.draft.aggregates:
        return False
    field = p.draft.shown[0]
    info = p.draft.schema.columns.get(field)
    return (
        info is not None
        and info.kind == "str"
        and field != p.draft.schema.title
        and is_plural(p.reading.shown[0].text)
    )


def _column_of(p: PlanState, mention: Mention) -> Meaning | None:
    """The meaning of an asked-for phrase: a column of the subject, else of a model it leads to."""
    owner = p.reading.owners.get(mention.start)
    if owner is not None:  # "… and the name of its artist": the artist's name
        owned = [m for m in mention.of("column") if m.model == owner] or _title(p, mention, owner)
        if any(m.model == owner for m in mention.of("model")):  # "and the courses": their names
            owned = _title(p, mention, owner, named=True)
        reached = owner == p.subject or p.draft.one_to_one(owner) or _grouped(p, owner)
        return owned[0] if owned and reached else None
    if p.draft.aggregates:  # "the name of each team and the number of players": a group's
        groups = [m for m in mention.of("column") if _grouped(p, m.model)]
        for model in p.domain.models:
            groups += _title(p, mention, model) if _grouped(p, model) else []
        if groups:
            return groups[0]
    grouped = p.head if p.draft.aggregates and p.head is not None else None
    columns = [m for m in mention.of("column") if m.model == (grouped or p.subject)]
    columns = columns or [
        m for m in mention.of("column") if m.model != p.subject and p.draft.one_to_one(m.model)
    ]
    columns.sort(key=lambda m: (not m.exact, _hops(p, m.model)))
    if not columns and stems(mention.text) in (("name",),) and p.draft.schema.title:
        if _of_other(p, mention):
            return None  # "the names of the people who teach math courses": not the courses'
        return Meaning("column", p.subject, p.draft.schema.title)  # "the names of the airlines"
    return columns[0] if columns else None


def _of_other(p: PlanState, mention: Mention) -> bool:
    """Tell whether "of …" after an asked-for word names something other than the subject."""
    after = _OF.match(p.reading.text, mention.end)
    if after is None or not re.match(r"\s*of\b", p.reading.text[mention.end :]):
        return False
    return not any(
        m.start == after.end() and any(x.model == p.subject for x in m.of("model"))
        for m in p.mentions
    )


def _title(p: PlanState, mention: Mention, model: str, *, named: bool = False) -> list[Meaning]:
    """The column naming ``model``'s rows, for "name(s)" (``Airline`` of ``airlines``)."""
    title = p.domain.models[model].title
    named = named or stems(mention.text) in (("name",),)
    return [Meaning("column", model, title)] if named and title else []


def _grouped(p: PlanState, model: str) -> bool:
    """Tell whether the answer is grouped by the rows of ``model``."""
    return bool(p.draft.aggregates) and _groups_rows_of(p, model)


def _hops(p: PlanState, model: str) -> int:
    paths = p.domain.relations.paths(p.subject, model)
    return len(paths[0]) if paths else 0


def _groups_rows_of(p: PlanState, model: str) -> bool:
    """Tell whether a grouped answer is grouped by the rows of ``model`` (its key is a group)."""
    alias = p.draft.alias_of(model) if model != p.subject else None
    keys = p.domain.models[model].primary_key
    names = {f"{alias}.{k}" if alias else k for k in keys}
    return bool(names) and names <= set(p.draft.group_by)
