"""The working state of the builtin DSL generator: a question being read, rule by rule.

Each rule looks at the text not yet used (``rest``), adds conditions or
ordering, and marks the words it used, so the next rule and the final keyword
step never read the same words twice.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from unified_search.db.dsl import Order, Where
from unified_search.db.lexicon import COLUMN_SYNONYMS, MONEY_WORDS, STOPWORDS, name_words
from unified_search.db.schema import ColumnInfo, ModelSchema

#: How far (characters) a column word may sit from a number to claim it.
NEAR = 30


def normalise(question: str) -> str:
    """Fold width and case and drop control and format characters (zero-width tricks)."""
    text = unicodedata.normalize("NFKC", question)
    text = "".join(" " if unicodedata.category(ch)[0] == "C" else ch for ch in text)
    return " ".join(text.lower().split())


@dataclass(frozen=True)
class Term:
    """A word of the question that names a column.

    Example:
        >>> Term(start=0, end=5, column="price")
        Term(start=0, end=5, column='price')
    """

    start: int
    end: int
    column: str


@dataclass
class Draft:
    """A question and what has been read from it so far for one model.

    Example:
        >>> draft = Draft.read("Cheap  MUGS", schema)  # doctest: +SKIP
        >>> draft.text  # doctest: +SKIP
        'cheap mugs'
    """

    schema: ModelSchema
    text: str
    wheres: list[Where] = field(default_factory=list)
    orders: list[Order] = field(default_factory=list)
    limit: int | None = None
    score: float = 0.0
    _mask: list[str] = field(default_factory=list)
    terms: list[Term] = field(default_factory=list)
    """Where the question names columns."""

    @classmethod
    def read(cls, question: str, schema: ModelSchema) -> Draft:
        """Start reading ``question`` for ``schema``."""
        text = normalise(question)
        draft = cls(schema=schema, text=text, _mask=list(text))
        draft.terms = find_terms(text, schema)
        return draft

    @property
    def rest(self) -> str:
        """The text with used words blanked out (positions match ``text``)."""
        return "".join(self._mask)

    def take(self, start: int, end: int) -> None:
        """Mark ``text[start:end]`` as used."""
        for index in range(start, end):
            self._mask[index] = " "

    def nearest(self, start: int, end: int, columns: Sequence[ColumnInfo]) -> ColumnInfo | None:
        """Return the column among ``columns`` whose word sits closest to ``start:end``."""
        allowed = {c.name: c for c in columns}
        best: tuple[int, str] | None = None
        for term in self.terms:
            if term.column not in allowed:
                continue
            distance = max(0, term.start - end, start - term.end)
            if distance <= NEAR and (best is None or distance < best[0]):
                best = (distance, term.column)
        return allowed[best[1]] if best else None

    def mentions(self) -> set[str]:
        """Return the columns whose words appear in the question."""
        return {t.column for t in self.terms}


def find_terms(text: str, schema: ModelSchema) -> list[Term]:
    """Find every place where ``text`` names a column (by name, synonym or description)."""
    terms: list[Term] = []
    for column in schema.columns.values():
        for word in column_words(column):
            terms += [
                Term(m.start(), m.end(), column.name) for m in word_pattern(word).finditer(text)
            ]
    return terms


def column_words(column: ColumnInfo) -> set[str]:
    """Return the words that name ``column`` in a question."""
    parts = [w for w in name_words(column.name) if w not in {"id", "at", "on", "is", "has"}]
    words = set(parts)
    if len(parts) > 1:
        words.add(" ".join(parts))
    for part in parts:
        words.update(COLUMN_SYNONYMS.get(part, ()))
    if column.description:
        described = re.findall(r"[a-z]{4,}", column.description.lower())
        words.update(w for w in described if w not in STOPWORDS)
    return words


def word_pattern(word: str) -> re.Pattern[str]:
    """Match ``word`` as a whole word (CJK and symbols match anywhere)."""
    escaped = re.escape(word)
    if word.isascii() and word[:1].isalnum():
        return re.compile(rf"(?<![a-z0-9]){escaped}(?![a-z0-9])")
    return re.compile(escaped)


def is_money(column: ColumnInfo) -> bool:
    """Tell whether a column holds currency amounts, judged by its name."""
    return bool(MONEY_WORDS & set(name_words(column.name)))


def value_columns(schema: ModelSchema, kinds: Iterable[str]) -> list[ColumnInfo]:
    """Return the columns of ``kinds`` that hold values, not keys or tenant guards."""
    wanted = set(kinds)
    guarded = set(schema.settings.permission)
    return [
        c
        for c in schema.columns.values()
        if c.kind in wanted and not c.primary_key and not c.foreign_key and c.name not in guarded
    ]
