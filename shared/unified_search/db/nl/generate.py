"""The builtin natural-language → DSL generator: rules over the schema and sampled data, no model.

The question is normalised, the user's lexicon applied and misspellings
corrected (a capitalised name is not corrected into part of another name);
then rules read it in a fixed order, each using up the words it understood:
negation cues, quoted text and text matches, dates, limits, comparisons with
a figure over all rows ("above the average age") and with numbers, stock and
price words, "the highest and lowest" pairs, orderings, the names of models,
columns and values (with generic words such as "id" or "type" next to a
model), the columns asked for, aggregate and grouping cues, and words seen in
the data. The planner ties all of it to one model (or several on a tie) and
builds the DSL. Words that nothing understood are reported, never turned into
filters.
"""

from __future__ import annotations

import datetime as dt
import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from unified_search.db.nl.cues import (
    find_contains,
    find_extremes,
    find_figures,
    find_negations,
    find_person,
    find_quoted,
)
from unified_search.db.nl.dates import find_dates
from unified_search.db.nl.lexicon import ABBREVIATIONS, CUE_WORDS, FILLER
from unified_search.db.nl.naming import find_generic_columns
from unified_search.db.nl.numbers import (
    apply_bare_numbers,
    apply_comparisons,
    apply_limit,
    apply_stock,
)
from unified_search.db.nl.ordering import apply_leading_count, apply_orders
from unified_search.db.nl.overall import find_overall
from unified_search.db.nl.planner import Plan, Planner, best
from unified_search.db.nl.reading import DateTest, Mention, Reading
from unified_search.db.nl.shown import find_shown
from unified_search.db.nl.subject import subjects as likely_subjects
from unified_search.db.nl.text import Token, name_words, normalise, tokenize, word_pattern
from unified_search.db.nl.vocabulary import MAX_PHRASE, Domain, Meaning
from unified_search.errors import ErrorCode, SearchError
from unified_search.types import MAX_QUERY_CHARS

#: Longest question accepted: longer text is a document, not a question.
MAX_QUESTION = MAX_QUERY_CHARS


@dataclass(frozen=True)
class Interpretation:
    """What the builtin generator read from a question.

    Example:
        Not run here: ``domain`` is read from a reflected database.

        >>> interpret("books under $20", domain, ["books"]).plans[0].dsl.model  # doctest: +SKIP
        'books'
    """

    text: str
    """The question as read (normalised, lexicon applied, spelling corrected)."""
    plans: list[Plan]
    notes: tuple[str, ...] = ()
    """Words read differently from how they were written ("custmers" → "customers")."""

    words: tuple[str, ...] = ()
    """The question's content words (all of them are not understood when there is no plan)."""

    @property
    def unknown(self) -> tuple[str, ...]:
        """Words the best plan did not understand (every content word when there is none)."""
        return self.plans[0].unknown if self.plans else self.words


def check_question(question: str) -> None:
    """Refuse a question with nothing to read in it, or too long to be a question."""
    if not re.search(r"\w", normalise(question)):
        raise SearchError(ErrorCode.INVALID_QUERY, "the question is empty; nothing was queried")
    if len(question) > MAX_QUESTION:
        raise SearchError(
            ErrorCode.INVALID_QUERY,
            f"the question has {len(question)} characters; at most {MAX_QUESTION} are read",
        )


def interpret(
    question: str,
    domain: Domain,
    subjects: Sequence[str],
    *,
    today: dt.date | None = None,
    every: bool = False,
) -> Interpretation:
    """Read ``question`` into plans over ``domain`` whose subject is one of ``subjects``.

    With ``every``, one plan per subject that can answer; otherwise the most likely one
    (several on a tie).
    """
    check_question(question)
    text, notes = _rewritten(normalise(question), domain, proper_names(question))
    day = today or dt.date.today()
    reading = read(text, domain, day, notes)
    candidates = list(subjects) if every else likely_subjects(reading, domain, subjects)
    # Each plan uses up words as it reads them, so each reads its own copy of the question.
    plans = [
        Planner(reading if i == 0 else read(text, domain, day, notes), domain, subject).build()
        for i, subject in enumerate(candidates)
    ]
    chosen = ([p for p in plans if not p.unknown] or plans[:1]) if every else best(plans)
    words = tuple(t.text for t in reading.tokens if t.is_word and t.text not in FILLER)
    return Interpretation(text, chosen, tuple(reading.notes), words)


def read(text: str, domain: Domain, today: dt.date, notes: list[str]) -> Reading:
    """Apply every rule to normalised ``text``."""
    reading = Reading.read(text, domain.vocabulary, notes)
    find_negations(reading)
    held = _stored_cue_phrases(reading)
    for start, end in held:
        reading.take(start, end)
    find_quoted(reading)
    find_contains(reading)
    _dates(reading, today)
    apply_limit(reading)
    find_overall(reading)
    apply_comparisons(reading)
    apply_stock(reading)
    apply_leading_count(reading)
    find_extremes(reading)
    apply_orders(reading, today)
    for start, end in held:
        reading.give_back(start, end)
    _mentions(reading)
    find_generic_columns(reading, domain)
    find_shown(reading)
    apply_bare_numbers(reading)
    find_figures(reading)
    find_person(reading)
    _keywords(reading)
    return reading


def _rewritten(
    text: str, domain: Domain, names: frozenset[str] = frozenset()
) -> tuple[str, list[str]]:
    """Apply the user's lexicon, then correct misspellings, noting each change.

    ``names`` are words written with a capital inside a sentence: a name is never "corrected"
    into a word known only as part of other names ("Mara" is not the "Maya" of "Maya Patel").
    """
    notes: list[str] = []
    text = re.sub(r"\bno\.?\s+(?=of\b)", "number ", text)  # "no. of bookings"
    text = re.sub(r"[a-z]+", lambda m: _spelled(m.group(), domain), text)
    for phrase, meaning in domain.lexicon.items():
        pattern = word_pattern(normalise(phrase))
        if pattern.search(text):
            text = pattern.sub(normalise(meaning), text)
            notes.append(f"{phrase} → {meaning}")
    pieces: list[str] = []
    position = 0
    for token in tokenize(text):
        corrected = _unprefixed(token.text, domain) or domain.vocabulary.correct(token.text)
        if token.text in names and corrected and domain.vocabulary.part_only(corrected):
            continue  # "Mara" is no misspelt "Maya" (of "Maya Patel")
        if corrected is not None:
            pieces += [text[position : token.start], corrected]
            position = token.end
            notes.append(f"{token.text} → {corrected}")
    return "".join([*pieces, text[position:]]), notes


def proper_names(question: str) -> frozenset[str]:
    """Words written with a capital letter that does not start a sentence ("by Mara Quell")."""
    found = re.finditer(r"(?<![.?!:]\s)(?<!^)(?<![.?!:])\b([A-Z][a-z]+)\b", question.strip())
    return frozenset(m.group(1).lower() for m in found)


def _spelled(word: str, domain: Domain) -> str:
    """Spell out an abbreviation ("dept"), unless the data itself holds the word ("cat")."""
    full = ABBREVIATIONS.get(word)
    return word if full is None or domain.vocabulary.names_word(word) else full


def _unprefixed(word: str, domain: Domain) -> str | None:
    """Read "undelivered" as "not delivered" when only the word without "un"/"non" is known."""
    known = domain.vocabulary.known
    for prefix in ("un", "non"):
        rest = word[len(prefix) :].lstrip("-")
        if word.startswith(prefix) and word not in known and rest in known and len(rest) > 3:
            return f"not {rest}"
    return None


def _dates(reading: Reading, today: dt.date) -> None:
    for span in find_dates(reading.rest, today):
        low = span.low.isoformat() if span.low else None
        high = span.high.isoformat() if span.high else None
        reading.dates.append(DateTest(low, high, span.start, span.end))
        reading.take(span.start, span.end)


def _mentions(reading: Reading) -> None:
    """Find the longest phrases, left to right, that name a model, column or value."""
    tokens = reading.open_tokens()
    index = 0
    while index < len(tokens):
        for length in range(min(MAX_PHRASE, len(tokens) - index), 0, -1):
            phrase = tokens[index : index + length]
            if not _contiguous(reading.text, phrase):
                continue
            meanings = reading.vocabulary.meanings(phrase)
            if length == 1 and phrase[0].text in FILLER:  # "list" is no synonym of "listed"
                meanings = [m for m in meanings if _names(phrase[0].text, m)]
                meanings = [m for m in meanings if _letter_after_column(reading, phrase[0], m)]
            if meanings:
                start, end = phrase[0].start, phrase[-1].end
                reading.mentions.append(Mention(start, end, reading.text[start:end], meanings))
                index += length
                break
        else:
            index += 1


def _stored_cue_phrases(reading: Reading) -> list[tuple[int, int]]:
    """Find stored values of several words that hold a cue word ("Best Film", "Most Improved").

    They are kept from the rules that read cue words, so "films that won Best Film" names a
    category instead of asking for the best film.
    """
    tokens, spans = reading.tokens, []
    index = 0
    while index < len(tokens):
        for length in range(min(MAX_PHRASE, len(tokens) - index), 1, -1):
            phrase = tokens[index : index + length]
            if not any(t.text in CUE_WORDS for t in phrase) or not _contiguous(
                reading.text, phrase
            ):
                continue
            if any(m.kind == "value" and m.exact for m in reading.vocabulary.meanings(phrase)):
                spans.append((phrase[0].start, phrase[-1].end))
                index += length - 1
                break
        index += 1
    return spans


def _names(word: str, meaning: Meaning) -> bool:
    """Tell whether a filler word names this itself (a column "type", a value "Work")."""
    if meaning.kind == "column":
        return word in name_words(meaning.column or "")
    return meaning.exact


def _letter_after_column(reading: Reading, token: Token, meaning: Meaning) -> bool:
    """A one-letter value that is also a word ("a", "i") counts only after its column ("room A")."""
    if meaning.kind != "value" or len(meaning.value or "") > 1:
        return True
    last = reading.mentions[-1] if reading.mentions else None
    return (
        last is not None
        and not reading.text[last.end : token.start].strip()
        and any((m.model, m.column) == (meaning.model, meaning.column) for m in last.of("column"))
    )


def _contiguous(text: str, tokens: Sequence[object]) -> bool:
    spans = [(t.start, t.end) for t in tokens]  # type: ignore[attr-defined]
    return all(
        re.fullmatch(r"[\s'\-/&.]*", text[a[1] : b[0]]) for a, b in itertools.pairwise(spans)
    )


def _keywords(reading: Reading) -> None:
    """Record open words that sampled text holds (they become text tests).

    Words of one or two letters ("up" of "check-up") are too common to search for.
    """
    covered = [(m.start, m.end) for m in reading.mentions]
    for token in reading.open_tokens():
        if token.text in FILLER or token.text in CUE_WORDS or not token.is_word:
            continue  # "number of …", "count …" are cues, whatever titles hold those words
        if len(token.text) < 3 or any(start <= token.start < end for start, end in covered):
            continue
        if any(start <= token.start < end for start, end in reading.negations):
            continue
        found = reading.vocabulary.keyword(token)
        if found is not None:
            reading.keywords.append((found, token.start))
