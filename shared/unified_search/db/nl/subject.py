"""Which model a question asks about.

In order: the thing counted ("how many orders"); the people a "who …"
question asks for; the first model named (unless it only follows "per");
the people a question mentions; the model whose column the question orders
by or aggregates; else every model holding a named column, value or keyword
(the planner then keeps the one that reads best, or all on a tie).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from unified_search.db.nl.names import is_person_model
from unified_search.db.nl.reading import NEAR, Mention, Reading
from unified_search.db.nl.text import is_plural
from unified_search.db.nl.vocabulary import Domain, Meaning


def subjects(reading: Reading, domain: Domain, allowed: Sequence[str]) -> list[str]:
    """Return the likely subjects of ``reading`` among ``allowed`` models."""
    mentions = [m for m in reading.mentions if reading.free(m.start, m.end)]
    people = [m for m in allowed if is_person_model(domain.models[m])]
    counted = _counted(reading, mentions, people)
    if counted is not None and counted in allowed:
        return [counted]
    if reading.asked is not None and reading.asked in allowed:
        return [reading.asked]  # "the names of the students …"
    named = [
        m.of("model")[0].model
        for m in mentions
        if m.of("model")
        and not m.negated
        and m not in reading.shown
        and (m not in reading.possessors or reading.asked is None)
    ]
    named = [m for m in named if m in allowed]
    if people and reading.tokens and reading.tokens[0].text in ("who", "whom"):
        return people  # "who bought …" asks for people, whatever else it names
    if named and not _grouping(reading, named[0], mentions):
        return [named[0]]
    if reading.person and people:
        return people
    targets = _targets(reading, domain, mentions, allowed)
    if targets:
        return targets
    hosts = {
        meaning.model
        for m in mentions
        for meaning in m.meanings
        if meaning.model in allowed and not _key(domain, meaning)
    }
    hosts |= {m for keyword, _ in reading.keywords for m, _ in keyword.places if m in allowed}
    return sorted(hosts) or named[:1]


def _counted(reading: Reading, mentions: list[Mention], people: list[str]) -> str | None:
    figure = reading.figure
    if figure is None or figure.fn != "count":
        return None
    if re.search(
        r"\b(?:by|most|fewest|least|highest|lowest|largest|smallest)$",
        reading.text[: figure.start].rstrip(),
    ):
        return None  # "top 5 customers by number of orders": the count ranks, it is not asked
    if reading.text[figure.start : figure.end] == "headcount" and len(people) == 1:
        return people[0]
    after = [m for m in mentions if m.start >= figure.end]
    for index, mention in enumerate(after[:3]):
        if any(0 <= mention.start - g <= 5 for g in reading.groups):
            break  # "headcount by department": the department groups, it is not counted
        if mention.of("model"):
            return mention.of("model")[0].model
        if _counted_value(reading, mention, after[index + 1 :]):
            return mention.of("value")[0].model  # "the number of dogs": rows holding "dog"
    return None


def _counted_value(reading: Reading, mention: Mention, rest: list[Mention]) -> bool:
    """Tell whether a plural value right after "number of" is the thing counted ("dogs")."""
    values = mention.of("value")
    if not values or len({v.model for v in values}) > 1 or not is_plural(mention.text):
        return False
    start = reading.text.rfind(" ", 0, mention.start)
    if not re.fullmatch(r"\s*(?:of\s+)?(?:the\s+)?", reading.text[start : mention.start]):
        return False
    following = rest[0] if rest else None  # "dog pets": the pets are counted
    return following is None or bool(reading.text[mention.end : following.start].strip())


def _key(domain: Domain, meaning: Meaning) -> bool:
    """Tell whether a meaning is a foreign key: its words name another model's rows, not these."""
    column = domain.models[meaning.model].columns.get(meaning.column or "")
    return meaning.kind == "column" and column is not None and column.foreign_key is not None


def _targets(
    reading: Reading, domain: Domain, mentions: list[Mention], allowed: Sequence[str]
) -> list[str]:
    """The model whose columns the question orders by or aggregates, when exactly one is."""
    spans = [w.term for w in reading.orders if w.term is not None]
    if reading.figure is not None:
        spans.append((reading.figure.end, reading.figure.end + NEAR))
    found = {
        c.model
        for start, end in spans
        for m in mentions
        if start <= m.start < end and not m.of("model")
        for c in m.of("column")
        if c.model in allowed and not _key(domain, c)
    }
    return sorted(found) if len(found) == 1 else []


def _grouping(reading: Reading, model: str, mentions: list[Mention]) -> bool:
    """Tell whether the first named model only follows a grouping cue ("per customer")."""
    first = next(m for m in mentions if m.of("model") and m.of("model")[0].model == model)
    return reading.figure is not None and any(0 <= first.start - g <= 5 for g in reading.groups)
