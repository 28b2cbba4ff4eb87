"""How the names in a schema read as words: spelled out, and what they say about the rows.

Column and table names are abbreviated and joined in many ways (``LName``, ``StuID``,
``cars_data``, ``Has_Pet``); these helpers turn them into the words a question would use.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from unified_search.db.nl import lexicon
from unified_search.db.nl.text import name_words
from unified_search.db.schema import ModelSchema

#: Name parts too generic to name a column alone ("hire_date" is named by "hire", not "date").
GENERIC = frozenset(
    [
        "id",
        "at",
        "on",
        "is",
        "has",
        "date",
        "time",
        "no",
        "num",
        "number",
        "type",
        "code",
        "flag",
        "key",
        "ts",
        "dt",
        "of",
        "per",
        "by",
        "in",
        "to",
        "the",
        "a",
        "and",
        "or",
        "for",
        "from",
        "with",
    ]
)


def content_words(schema: ModelSchema) -> list[str]:
    """The words of a model's name that say what its rows are (not ``data``, ``list``, ``has``)."""
    words = name_words(schema.name.rpartition(".")[2])
    return [w for w in words if w not in GENERIC and w not in lexicon.FILLER]


def spelled_out(words: Sequence[str], model_words: Sequence[str]) -> list[str]:
    """Spell out the abbreviated words of a column name.

    ``l name`` → last name, ``dept`` → department, and a clipped word of the model's own name
    (``stu`` of ``student``) → that word.
    """
    spelled: list[str] = []
    for index, word in enumerate(words):
        following = words[index + 1 : index + 2]
        if following == ["name"] and word in lexicon.NAME_INITIALS:
            spelled.append(lexicon.NAME_INITIALS[word])
            continue
        full = lexicon.COLUMN_ABBREVIATIONS.get(word) or lexicon.ABBREVIATIONS.get(word)
        if full is None and len(word) >= 3:
            full = next((m for m in model_words if m.startswith(word) and m != word), None)
        spelled += (full or word).split()
    return spelled


def is_person_model(schema: ModelSchema) -> bool:
    """Tell whether a model holds people (it has an email, phone, birth date … column)."""
    return _people(tuple(schema.columns))


@lru_cache(maxsize=4096)
def _people(columns: tuple[str, ...]) -> bool:
    words = {w for c in columns for w in (c.lower(), *name_words(c))}
    return bool(words & lexicon.PERSON_COLUMNS)
