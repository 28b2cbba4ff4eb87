"""Columns named by a generic word and their model: "type of pet", "student id", "the id of each car".

Words such as "id", "type", "name" or "code" name no column alone, since many models have one.
Next to a model ("<word> of the <model>", "<model> <word>") they name that model's column whose
name holds the word: ``PetType`` for "type of pet", the primary key for "id of the students".
A word that fits several columns of the model names none of them.
"""

from __future__ import annotations

import re

from unified_search.db.nl.names import GENERIC, spelled_out
from unified_search.db.nl.reading import Mention, Reading
from unified_search.db.nl.text import Token, name_words, singular
from unified_search.db.nl.vocabulary import Domain, Meaning

#: What may stand between the word and the model: "type of pet", "id of the students".
_OF = re.compile(r"\s+of\s+(?:the\s+|a\s+|an\s+|each\s+|every\s+|all\s+(?:the\s+)?)?$")
_LIST_OF = re.compile(
    r"(?:\s*(?:,|\band\b)\s*(?:the\s+)?[a-z_]+(?:\s+[a-z_]+)?)+\s+of\s+"
    r"(?:(?:the|all|each|every|a|an)\s+)?"
)
_GENERIC_NAMES = GENERIC | {"name", "names", "ids", "types", "codes", "numbers", "dates"}


def find_generic_columns(reading: Reading, domain: Domain) -> None:
    """Add a column mention for each generic word standing next to a model mention."""
    models = [m for m in reading.mentions if m.of("model")]
    taken = [(m.start, m.end) for m in reading.mentions]
    for token in reading.open_tokens():
        if token.text not in _GENERIC_NAMES or any(a <= token.start < b for a, b in taken):
            continue
        word = "id" if token.text == "ids" else singular(token.text)
        for model in models:
            gap = (
                reading.text[token.end : model.start]
                if model.start > token.start
                else reading.text[model.end : token.start]
            )
            before = model.start > token.start and (
                _OF.fullmatch(" " + gap.strip() + " ") or _listed_before(reading, token, model)
            )
            after = model.end <= token.start and not gap.strip()
            if not (before or after):
                continue
            column = _column(domain, model.of("model")[0].model, word)
            if column is not None:
                mention = Mention(token.start, token.end, token.text, [column])
                reading.mentions.append(mention)
                break
    reading.mentions.sort(key=lambda m: m.start)


def _column(domain: Domain, model: str, word: str) -> Meaning | None:
    """The one column of ``model`` whose (spelled out) name holds ``word``; the key for "id"."""
    schema = domain.models[model]
    if word == "id" and len(schema.primary_key) == 1:
        return Meaning("column", model, schema.primary_key[0], exact=False)
    if word == "name" and schema.title is not None:
        return Meaning("column", model, schema.title, exact=False)
    own = name_words(model.rpartition(".")[2])
    found = [
        c for c in schema.columns if word in {singular(w) for w in spelled_out(name_words(c), own)}
    ]
    return Meaning("column", model, found[0], exact=False) if len(found) == 1 else None


def _listed_before(reading: Reading, token: Token, model: Mention) -> bool:
    """Tell whether the word opens a list of columns of the model: "the id and weight of pets"."""
    gap = reading.text[token.end : model.start]
    match = _LIST_OF.fullmatch(gap)
    if match is None:
        return False
    named = [(m.start, m.end) for m in reading.mentions]
    words = [t for t in reading.tokens if token.end <= t.start and t.end <= model.start]
    listed = [t for t in words if t.text not in ("and", "the", "of", "all", "each", "every")]
    return all(t.text in _GENERIC_NAMES or any(a <= t.start < b for a, b in named) for t in listed)
