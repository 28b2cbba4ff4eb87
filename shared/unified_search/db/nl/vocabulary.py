"""What the words of a question can mean in one database, learnt from its schema and data.

A model is named by its name, its label and everyday synonyms; a column by
the words of its name, its description and the lexicon; a value by its own
words (stemmed, or with spaces and hyphens removed, so "non-fiction" finds
"Nonfiction"), or by prefixes of them ("sci-fi" finds "Science Fiction").
Words seen in sampled text columns make those columns searchable by keyword.
Misspelled words are corrected towards these words within an edit distance
that grows with the word's length.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Literal

from rapidfuzz import process
from rapidfuzz.distance import OSA

from unified_search.db.nl import lexicon
from unified_search.db.nl.names import GENERIC, content_words, spelled_out
from unified_search.db.nl.text import (
    Token,
    compact,
    fold,
    name_words,
    plural,
    singular,
    stem,
    stem_all,
    tokenize,
)
from unified_search.db.relations import Relations
from unified_search.db.schema import ColumnInfo, ModelSchema
from unified_search.tokens import encoding

#: Longest phrase (in words) looked up.
MAX_PHRASE = 5

Kind = Literal["model", "column", "value"]


@dataclass(frozen=True)
class Sample:
    """What sampling learnt about one model's text columns.

    Example:
        >>> Sample(categories={"status": ("active", "inactive")}).categories["status"]
        ('active', 'inactive')
    """

    categories: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Columns with few distinct values, and those values."""
    words: Mapping[str, frozenset[str]] = field(default_factory=dict)
    """Other text columns, and the words seen in their sampled rows."""
    empty: frozenset[str] = frozenset()
    """Text columns that some rows leave empty (NULL)."""


@dataclass(frozen=True)
class Meaning:
    """One thing a phrase of the question may name.

    Example:
        >>> Meaning("value", "orders", "status", "shipped").column
        'status'
    """

    kind: Kind
    model: str
    column: str | None = None
    value: str | None = None
    exact: bool = True
    """Named by its own words (not a synonym, description or abbreviation)."""


@dataclass(frozen=True)
class Keyword:
    """A word of the question seen in sampled text: the columns holding it and its spellings there."""

    word: str
    places: tuple[tuple[str, str], ...]
    forms: tuple[str, ...]


@dataclass(frozen=True)
class Domain:
    """The exposed models of one database and what sampling learnt about them.

    Example:
        Not run here: ``schema`` is a model reflected from a database.

        >>> domain = Domain(models={"products": schema}, samples={})  # doctest: +SKIP
    """

    models: Mapping[str, ModelSchema]
    samples: Mapping[str, Sample] = field(default_factory=dict)
    lexicon: Mapping[str, str] = field(default_factory=dict)

    @cached_property
    def relations(self) -> Relations:
        """The foreign keys among the models."""
        return Relations(self.models)

    @cached_property
    def vocabulary(self) -> Vocabulary:
        """The words of this domain (built once)."""
        return Vocabulary(self)


class Vocabulary:
    """Phrases of a domain and their meanings, looked up by stems or compact spelling."""

    def __init__(self, domain: Domain) -> None:
        self.domain = domain
        # Ordered sets (a dict's keys): a meaning is listed once, in the order it was learnt.
        self._phrases: dict[tuple[str, ...], dict[Meaning, None]] = {}
        self._compact: dict[str, dict[Meaning, None]] = {}
        self._values: dict[str, list[tuple[Meaning, tuple[str, ...]]]] = {}
        """Values of several words, by the first two letters of their first word."""
        self._data: dict[str, dict[tuple[str, str], set[str]]] = {}
        self._words: set[str] = set()
        """Words of synonyms and descriptions."""
        self._names: set[str] = set()
        """Words of model, column and value names and of sampled text."""
        self._parts: set[str] = set()
        """Words seen only inside longer values or sampled text ("maya" of "Maya Patel")."""
        self._whole: set[str] = set()
        """Words that are a name or a value by themselves."""
        for schema in domain.models.values():
            self._add_model(schema)
            for column in schema.columns.values():
                self._add_column(schema, column)
            sample = domain.samples.get(schema.name, Sample())
            for column_name, values in sample.categories.items():
                searchable = column_name in schema.searchable
                for value in values:
                    self._add_value(schema.name, column_name, value, searchable=searchable)
            for column_name, words in sample.words.items():
                self._add_data_words(schema.name, column_name, words)
        for schema in domain.models.values():
            self._add_model_head(schema)
        for schema in domain.models.values():
            self._add_model_parts(schema)

    # -- building -------------------------------------------------------------------------

    def _add(self, phrase: str, meaning: Meaning) -> None:
        tokens = tokenize(phrase.lower())
        words = self._names if meaning.exact else self._words
        for token in tokens:
            word = fold(token.text)
            words.update({word, singular(word), plural(singular(word))})
        if len(tokens) == 1 or meaning.kind != "value":
            self._whole.update(fold(t.text) for t in tokens)
        else:
            self._parts.update(fold(t.text) for t in tokens)
        key = _key(tokens, meaning.kind)
        if key and len(key) <= MAX_PHRASE:
            self._phrases.setdefault(key, {})[meaning] = None

    def _add_model(self, schema: ModelSchema) -> None:
        table = schema.name.rpartition(".")[2]
        words = name_words(table)
        meaning = Meaning("model", schema.name)
        self._add(" ".join(words), meaning)
        if schema.settings.label:
            self._add(schema.settings.label, meaning)
        synonym = Meaning("model", schema.name, exact=False)
        head = stem(words[-1]) if words else ""
        for key, others in lexicon.MODEL_SYNONYMS.items():
            # Each line is a set of names for one thing: a model called "staff" is also "employees".
            if key == head or head in {stem(o) for o in others}:
                self._phrases.setdefault((key,), {})[synonym] = None
                for other in others:
                    if stem(other) != head:
                        self._add(other, synonym)

    def _add_model_head(self, schema: ModelSchema) -> None:
        """Let the one content word of a model name name it: "cars" for ``cars_data``.

        The other words say nothing about the rows (``data``, ``list``, ``has``), so the
        model is named by that word alone, unless the word already names another model.
        """
        content = content_words(schema)
        if len(content) == 1 and len(name_words(schema.name.rpartition(".")[2])) > 1:
            key = (stem(content[0]),)
            if not any(m.kind == "model" and m.exact for m in self._phrases.get(key, {})):
                self._add(content[0], Meaning("model", schema.name))

    def _add_model_parts(self, schema: ModelSchema) -> None:
        """Let one word of a longer model name name it ("menu", "tables" for ``dining_tables``).

        Only words that name no model on their own: "order" names ``orders`` where there is one,
        ``order_lines`` only where there is not.
        """
        if len(name_words(schema.name.rpartition(".")[2])) < 2:
            return
        part = Meaning("model", schema.name, exact=False)
        for word in content_words(schema):
            key = (stem(word),)
            named = any(m.kind == "model" and m.exact for m in self._phrases.get(key, {}))
            if not named:
                self._add(word, part)

    def _add_column(self, schema: ModelSchema, column: ColumnInfo) -> None:
        written = name_words(column.name)
        meaning = Meaning("column", schema.name, column.name)
        self._add(" ".join(written), meaning)
        words = spelled_out(written, name_words(schema.name.rpartition(".")[2]))
        if words != written:  # "LName" is also "last name", ``StuID`` "student id"
            self._add(" ".join(words), meaning)
        if len(words) > 2 and words[0] in ("is", "has", "number"):
            # "full time" names ``Is_full_time``; "number of products" ``Number_products``
            rest = " ".join(words[1:])
            self._add(f"number of {rest}" if words[0] == "number" else rest, meaning)
        specific = [w for w in words if w not in GENERIC]
        # A key's words that name the model it points to name that model, not the key:
        # "menu" of ``menu_item_id`` is the menu, while "waiter" of ``waiter_id`` is a role.
        # A view declares no keys: there an ``…_id`` column is taken for one.
        target = (column.foreign_key or "").rpartition(".")[0].rpartition(".")[2]
        pointed = {stem(w) for w in name_words(target)}
        if not column.primary_key and words[-1:] == ["id"] and not target:
            pointed = {stem(w) for w in specific}
        if len(specific) > 1:  # "pet" of ``pet_age`` names the pets, "age" names the column
            pointed |= {stem(w) for w in name_words(schema.name.rpartition(".")[2])}
        loose = Meaning("column", schema.name, column.name, exact=False)
        for word in specific:
            self._add(word, loose if stem(word) in pointed else meaning)
        for word in specific:
            for other in lexicon.SYNONYMS.get(stem(word), ()):
                self._add(other, loose)
        if column.description:
            for word in re.findall(r"[a-z]{4,}", column.description.lower()):
                if word not in lexicon.FILLER:
                    self._add(word, loose)

    def _add_value(self, model: str, column: str, value: str, *, searchable: bool) -> None:
        meaning = Meaning("value", model, column, value)
        self._add(value, meaning)
        sexes = lexicon.SEX_WORDS.get(value.strip().lower()) if _sexes(column) else None
        for word in sexes or ():  # "female students" where ``Sex`` holds "F"
            self._add(word, Meaning("value", model, column, value, exact=False))
        key = compact(value)
        if key:
            self._compact.setdefault(key, {})[meaning] = None
        words = tuple(t.text for t in tokenize(value.lower()) if t.text[0].isalnum())
        if len(words) > 1:
            entry = (Meaning("value", model, column, value, exact=False), words)
            self._values.setdefault(words[0][:2], []).append(entry)
        if searchable:
            self._add_data_words(model, column, words)

    def _add_data_words(self, model: str, column: str, words: Iterable[str]) -> None:
        kept = [w for w in words if len(w) >= 2 and not w.isdigit()]
        self._names.update(fold(w) for w in kept)
        self._parts.update(fold(w) for w in kept)
        place = (model, column)
        for word, root in zip(kept, stem_all(kept), strict=True):
            self._data.setdefault(root, {}).setdefault(place, set()).add(word)

    # -- reading --------------------------------------------------------------------------

    def meanings(self, tokens: Sequence[Token]) -> list[Meaning]:
        """Return what the phrase ``tokens`` names: models, columns or values."""
        found = [m for m in self._phrases.get(_key(tokens, "model"), {}) if m.kind != "value"]
        found += [m for m in self._phrases.get(_key(tokens, "value"), {}) if m.kind == "value"]
        joined = fold("".join(t.text for t in tokens))
        for key in dict.fromkeys((joined, singular(joined))):  # "e-books" finds "ebook"
            for meaning in self._compact.get(key, {}):
                if meaning not in found:
                    found.append(meaning)
        if not found:
            found = self._abbreviated([t.text for t in tokens])
        if not found and len(tokens) == 1:
            found = self._implied(tokens[0])
        if any(m.exact and m.kind != "model" for m in found):  # "title" is a column here
            found = [m for m in found if m.kind != "model" or m.exact]
        # A model's own name comes before the models it is a synonym of ("hiring" is ``hiring``).
        return sorted(found, key=lambda m: m.kind == "model" and not m.exact)

    def _implied(self, token: Token) -> list[Meaning]:
        """What a single word implies: "German" a country, "borrowed" the model of loans."""
        if token.text in lexicon.DEMONYMS:
            country = tokenize(lexicon.DEMONYMS[token.text])
            return [m for m in self.meanings(country) if m.kind == "value"]
        nouns = lexicon.RELATION_VERBS.get(token.stem, ())
        found = [
            m
            for noun in nouns
            for m in self._phrases.get(_key(tokenize(noun), "model"), {})
            if m.kind == "model"
        ]
        return [Meaning("model", m.model, exact=False) for m in found[:1]]

    def _abbreviated(self, words: list[str]) -> list[Meaning]:
        """Values whose words start with these words, in order ("sci fi", "scifi" → "science fiction")."""
        joined = "".join(words)
        if len(joined) < 4:
            return []
        return [
            meaning
            for meaning, full in self._values.get(joined[:2], [])
            if (len(words) == 1 or len(full) == len(words))
            and _prefixes(joined, full)
            and joined != "".join(full)
        ]

    def part_only(self, word: str) -> bool:
        """Tell whether ``word`` is known only as part of longer values or text ("maya")."""
        return word in self._parts and word not in self._whole and word not in self._words

    def names_word(self, word: str) -> bool:
        """Tell whether a model, column or value name, or sampled text, holds ``word``."""
        return fold(word) in self._names

    def keyword(self, token: Token) -> Keyword | None:
        """Return where sampled text holds this word (by stem), or ``None``."""
        places = self._data.get(token.stem)
        if not places:
            return None
        forms = sorted({form for spelled in places.values() for form in spelled})
        return Keyword(token.text, tuple(places), tuple(forms))

    @cached_property
    def known(self) -> frozenset[str]:
        """Every word the domain or the lexicon knows, for spelling correction."""
        words = set(lexicon.FILLER) | set(lexicon.NUMBER_WORDS) | self._words | self._names
        words |= set(lexicon.CUE_WORDS) | set(lexicon.DEMONYMS)
        for table in (lexicon.SYNONYMS, lexicon.MODEL_SYNONYMS, lexicon.RELATION_VERBS):
            for others in table.values():
                words.update(w for phrase in others for w in phrase.split())
        return frozenset(w for w in words if w.isascii() and w.isalpha())

    @cached_property
    def _by_length(self) -> dict[int, list[str]]:
        """Known words by length, sorted (a misspelling is compared with near lengths only)."""
        groups: dict[int, list[str]] = {}
        for word in sorted(self.known):
            groups.setdefault(len(word), []).append(word)
        return groups

    def correct(self, word: str) -> str | None:
        """Return the known word ``word`` is a misspelling of, or ``None``.

        Words the domain knows, and common English words (one token in cl100k's
        vocabulary, which serves as a frequency list), are never corrected.
        """
        if len(word) < 4 or not word.isalpha() or not word.isascii():
            return None
        if word in self.known or _common(word):
            return None
        edits = 1 if len(word) <= 5 else 2
        lengths = range(len(word) - edits, len(word) + edits + 1)
        choices = [w for n in lengths for w in self._by_length.get(n, ())]
        found = process.extract(
            word, choices, scorer=OSA.distance, score_cutoff=edits, limit=None, processor=None
        )
        if not found:
            return None
        # The closest word wins; between equals, a word of the schema or data beats the lexicon's.
        best = str(min(found, key=lambda f: (f[1], f[0] not in self._names, f[0]))[0])
        return None if stem(best) == stem(word) else best  # another form of the same word


def _sexes(column: str) -> bool:
    return bool({"sex", "gender"} & set(name_words(column)))


def _prefixes(text: str, words: Sequence[str]) -> bool:
    """Tell whether ``text`` is a prefix of each of ``words`` in turn (two letters at least each)."""
    if not words:
        return not text
    first = words[0]
    return any(
        text[:size] == first[:size] and _prefixes(text[size:], words[1:])
        for size in range(min(len(first), len(text)), 1, -1)
    )


def _key(tokens: Sequence[Token], kind: Kind) -> tuple[str, ...]:
    """Models and columns are looked up by stem ("ordered" → orders), values by singular only."""
    if kind == "value":
        return tuple(singular(fold(t.text)) for t in tokens)
    return tuple(t.stem for t in tokens)


def _common(word: str) -> bool:
    return len(encoding().encode(" " + word)) == 1
