"""The builtin natural-language → DSL generator: rules over the model's schema, no model needed.

Rules run in a fixed order, each using up the words it understood: limits
("top 5"), dates ("since March 2025"), numbers ("under $100"), ordering
("cheapest"), missing values ("no rating"), stock ("in stock"), category
values seen in the data ("electronics"),
and finally the content words left over, which become case-insensitive
``like`` tests over the searchable text columns (every keyword must match
some column). English is covered broadly; common Chinese forms cheaply.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from unified_search.db.draft import Draft, column_words, normalise, word_pattern
from unified_search.db.dsl import Op, QueryDSL, Where
from unified_search.db.lexicon import (
    CHINESE_STOP,
    MODEL_SYNONYMS,
    STOPWORDS,
    forms,
    name_words,
    singular,
)
from unified_search.db.nl_order import apply_orders
from unified_search.db.nl_rules import (
    apply_categories,
    apply_comparisons,
    apply_dates,
    apply_limit,
    apply_missing,
    apply_stock,
    apply_term_values,
)
from unified_search.db.schema import ModelSchema
from unified_search.errors import ErrorCode, SearchError

_WORD = re.compile(r"[a-z0-9][a-z0-9'\-]*[a-z0-9]|[a-z]|[\u3400-\u9fff]+")
#: Longest question accepted: rules scan the text once per column word and value.
MAX_QUESTION = 2000
#: Most keywords turned into ``like`` tests; more would only slow the query down.
MAX_KEYWORDS = 8


@dataclass(frozen=True)
class Generated:
    """What the builtin generator read from a question for one model.

    Example:
        >>> generate("books", schema, {"category": ["Books"]}).keywords  # doctest: +SKIP
        ()
    """

    dsl: QueryDSL
    keywords: tuple[str, ...]
    score: float
    """How strongly the question points at this model (its name, columns and values)."""
    relaxed: QueryDSL | None = None
    """The same query with any keyword enough, to retry when every-keyword finds nothing."""


def check_question(question: str) -> None:
    """Refuse a question with nothing to read in it, or too long to be a question."""
    if not re.search(r"\w", normalise(question)):
        raise SearchError(ErrorCode.INVALID_QUERY, "the question is empty; nothing was queried")
    if len(question) > MAX_QUESTION:
        raise SearchError(
            ErrorCode.INVALID_QUERY,
            f"the question has {len(question)} characters; at most {MAX_QUESTION} are read",
        )


def generate(
    question: str,
    schema: ModelSchema,
    samples: Mapping[str, Sequence[str]],
    *,
    today: dt.date | None = None,
) -> Generated:
    """Read ``question`` into a DSL over ``schema``.

    Example:
        >>> generate("electronics under $100", schema, {"category": ["Electronics"]}).dsl.as_json()  # doctest: +SKIP
        {'model': 'products', 'wheres': [{'field': 'price', 'op': '<', 'value': 100}, ...]}
    """
    check_question(question)
    draft = Draft.read(question, schema)
    draft.score += _model_mentions(draft) + len(draft.mentions())
    apply_limit(draft)
    apply_dates(draft, today or dt.date.today())
    apply_comparisons(draft)
    apply_term_values(draft)
    apply_orders(draft)  # after the numbers, so "under $100 cheapest" keeps its 100
    apply_missing(draft)
    apply_stock(draft)
    apply_categories(draft, samples)
    keywords = leftover_keywords(draft)
    groups = [keyword_where(schema.searchable, [k]) for k in keywords]
    base = {"model": schema.name, "orders": draft.orders, "limit": draft.limit}
    dsl = QueryDSL(wheres=[*draft.wheres, *filter(None, groups)], **base)
    relaxed = None
    if len(keywords) > 1 and schema.searchable:
        relaxed = QueryDSL(
            wheres=[*draft.wheres, keyword_where(schema.searchable, keywords)], **base
        )
    return Generated(dsl=dsl, keywords=tuple(keywords), score=draft.score, relaxed=relaxed)


def keyword_where(columns: Sequence[str], keywords: Sequence[str]) -> Where | None:
    """Return "some column contains some keyword" (case-insensitive), or ``None`` without columns."""
    tests = [Where(field=c, op=Op.LIKE, value=f"%{k}%") for k in keywords for c in columns]
    if not tests:
        return None
    return tests[0] if len(tests) == 1 else Where(or_=tests)


def model_words(schema: ModelSchema) -> set[str]:
    """Return the words that name the model itself (singular, plural, label, Chinese nouns)."""
    words: set[str] = set()
    for part in name_words(schema.name) + name_words(schema.settings.label or ""):
        words |= forms(part)
        words.update(MODEL_SYNONYMS.get(singular(part), ()))
    return words


def _model_mentions(draft: Draft) -> float:
    hits = [w for w in model_words(draft.schema) if word_pattern(w).search(draft.text)]
    return 3.0 * len(hits)


def leftover_keywords(draft: Draft) -> list[str]:
    """Return the content words nobody used, without stop words, numbers or schema words."""
    known = model_words(draft.schema)
    for column in draft.schema.columns.values():
        known |= column_words(column)
    found: list[str] = []
    for token in _WORD.findall(draft.rest):
        for word in _chinese_parts(token, known) if not token.isascii() else [token]:
            keyword = _keyword(word, known)
            if keyword and keyword not in found:
                found.append(keyword)
    return found[:MAX_KEYWORDS]


def _keyword(word: str, known: set[str]) -> str | None:
    if word.isascii():
        if len(word) < 2 or word.isdigit() or word in STOPWORDS or word in known:
            return None
        return singular(word.strip("'-"))
    return word if len(word) >= 2 else None


def _chinese_parts(run: str, known: set[str]) -> list[str]:
    """Split a run of Chinese characters at stop words and schema words."""
    pieces = [run]
    for stop in sorted(
        {*CHINESE_STOP, *(k for k in known if not k.isascii())}, key=len, reverse=True
    ):
        pieces = [part for piece in pieces for part in piece.split(stop)]
    return [p for p in pieces if p]
