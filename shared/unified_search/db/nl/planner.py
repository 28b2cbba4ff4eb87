"""Tie what was read to the database: every condition on a column of the subject or a related model.

Numbers, dates and text matches take the column named closest to them (a
currency amount only a money column), else the subject's only fitting
column. A value names its own column; when several models hold it, the one
whose column or model the question names nearby wins. A negation governs the
closest condition after it. Whatever nothing claims is not understood, and
the plan says so instead of guessing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from unified_search.db.dsl import Op, QueryDSL, Where
from unified_search.db.nl import measures, quantities
from unified_search.db.nl.draft import Branch, Draft, Placed
from unified_search.db.nl.lexicon import (
    FILLER,
    RELATION_VERBS,
    SECONDARY_DATES,
)
from unified_search.db.nl.reading import (
    NEAR,
    Mention,
    NumberTest,
    Reading,
)
from unified_search.db.nl.text import name_words
from unified_search.db.nl.vocabulary import Domain, Keyword, Meaning
from unified_search.db.schema import ColumnInfo, ModelSchema

#: Most keywords turned into text tests.
MAX_KEYWORDS = 8
_EMPTY_CUES = ("no", "without", "not", "never", "没有", "无")


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
    lead: int = 1 << 30
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
        self.reading = reading
        self.domain = domain
        self.mentions = [m for m in reading.mentions if reading.free(m.start, m.end)]
        named = frozenset(x.model for m in self.mentions for x in m.of("model"))
        self.draft = Draft(domain, subject, limit=reading.limit, named=named)
        self.used: set[int] = set()
        """Start offsets of understood phrases."""
        self.unknown: list[str] = []
        self.keywords: list[str] = []
        self.score = 0.0
        self.lead = Plan.lead
        self.head: str | None = None
        """The model whose rows a ranked or counted answer is grouped by."""
        self.handled: set[int] = set()

    @property
    def subject(self) -> str:
        """The model the plan queries."""
        return self.draft.subject

    def build(self) -> Plan:
        """Place everything read, then account for the words left over."""
        measures.shape(self)
        self._note_subject()
        measures.figures(self)
        for test in self.reading.numbers:
            if id(test) not in self.handled:
                quantities.number(self, test)
        for date in self.reading.dates:
            quantities.date(self, date)
        for text in self.reading.texts:
            quantities.text(self, text)
        for mention in self.mentions:
            self._mention(mention)
        for wish in self.reading.orders:
            if id(wish) not in self.handled:
                measures.order(self, wish)
        measures.listing(self)
        for keyword, start in self.reading.keywords[:MAX_KEYWORDS]:
            self._keyword(keyword, start)
        self._account()
        dsl, relaxed = self.draft.dsl()
        unknown = tuple(dict.fromkeys(self.unknown))
        return Plan(dsl, tuple(self.keywords), relaxed, unknown, self.score, self.lead)

    def _note_subject(self) -> None:
        for mention in self.mentions:
            named = {m.model for m in mention.of("model")}
            if self.subject in named or (self.head is not None and self.head in named):
                self.understood(mention.start, mention.end, 3)

    # -- helpers shared with the measures -------------------------------------------------

    def understood(self, start: int, end: int, weight: float = 0.0) -> None:
        """Mark ``start:end`` as read and count what it says for the subject."""
        self.reading.take(start, end)
        self.used.add(start)
        self.score += weight
        if weight >= 2:
            self.lead = min(self.lead, start)

    def weight(self, model: str) -> float:
        """How much a condition says the subject is right: more on its own columns."""
        return 2.0 if model == self.subject else 1.0

    def column(self, meaning: Meaning) -> ColumnInfo:
        """The column a meaning names."""
        assert meaning.column is not None
        return self.domain.models[meaning.model].columns[meaning.column]

    def value_column(self, meaning: Meaning) -> bool:
        """Tell whether a column holds values (not a key or a tenant guard)."""
        info = self.column(meaning)
        guarded = self.domain.models[meaning.model].settings.permission
        return not info.primary_key and not info.foreign_key and info.name not in guarded

    def own(
        self, schema: ModelSchema, kinds: Sequence[str], words: frozenset[str] = frozenset()
    ) -> list[ColumnInfo]:
        """The value columns of ``schema`` of ``kinds`` (named with one of ``words``, if given)."""
        found = [
            c
            for c in schema.columns.values()
            if c.kind in kinds
            and not c.primary_key
            and not c.foreign_key
            and c.name not in schema.settings.permission
        ]
        return [c for c in found if words & set(name_words(c.name))] if words else found

    def near_column(
        self, start: int, end: int, kinds: Sequence[str], *, money: bool = False
    ) -> Meaning | None:
        """The column named closest to ``start:end`` (within ``NEAR``), of one of ``kinds``."""
        best: tuple[int, bool, Meaning, int] | None = None
        for mention in self.mentions:
            distance = max(0, mention.start - end, start - mention.end)
            if distance > NEAR or mention.of("model"):
                continue  # "tickets over 200": a word naming a model names no column
            for meaning in mention.of("column"):
                if money and not quantities.is_money(meaning):
                    continue
                if (
                    self.column(meaning).kind in kinds
                    and self.value_column(meaning)
                    and self.draft.reachable(meaning.model)
                ):
                    rank = (distance, meaning.model != self.subject)
                    if best is None or rank < best[:2]:
                        best = (*rank, meaning, mention.start)
        if best is None:
            return None
        self.used.add(best[3])  # the word is now read: it named this column
        return best[2]

    def models_near(self, start: int) -> list[str]:
        """The subject, then related models named before ``start`` (closest first)."""
        before = [
            m.of("model")[0].model
            for m in sorted(self.mentions, key=lambda m: -m.start)
            if m.of("model") and m.end <= start
        ]
        related = [m for m in before if m != self.subject and self.draft.reachable(m)]
        return [self.subject, *related]

    def main_date(self, start: int) -> Meaning | None:
        """The date column a bare date phrase means.

        That of a related model named right before it ("customers who ordered in 2024"),
        else the subject's main one, else that of a related model named earlier.
        """
        models = self.models_near(start)
        right_before = [
            m.of("model")[0].model
            for m in self.mentions
            if m.of("model") and 0 <= start - m.end <= 12
        ]
        if right_before and right_before[0] in models[1:]:
            models.insert(0, right_before[0])
        for model in models:
            dated = self.own(self.domain.models[model], ("date", "datetime"))
            primary = [c for c in dated if not SECONDARY_DATES & set(name_words(c.name))]
            chosen = (primary or dated)[:1]
            if chosen:
                return Meaning("column", model, chosen[0].name)
        return None

    def model_right_after(self, test: NumberTest) -> Mention | None:
        """The model named right after a number ("5 employees"), if any."""
        for mention in self.mentions:
            if 0 <= mention.start - test.end <= 2 and mention.of("model"):
                return mention
        return None

    def where(self, placed: Placed, where: Where, negated: bool = False) -> None:
        """Add a condition where ``placed`` says (the rows, or an exists branch)."""
        self.draft.add_where(where, placed[1], negated)

    # -- values, models and columns -------------------------------------------------------

    def _mention(self, mention: Mention) -> None:
        if mention.start in self.used:
            return
        values = [m for m in mention.of("value") if self.draft.reachable(m.model)]
        if values:
            self._value(mention, self._best_value(mention, values))
            return
        if mention.of("model"):
            self._related(mention, mention.of("model")[0].model)
            return
        columns = [m for m in mention.of("column") if self.draft.reachable(m.model)]
        if not columns or self._empty(mention, columns) or self._flag(mention, columns):
            return
        related = {m.model for m in columns} - {self.subject}
        dated = all(self.column(m).kind in ("date", "datetime") for m in columns)
        if mention.text.endswith("ed") and dated and len(related) == len(columns) == 1:
            model = related.pop()
            if not self.draft.one_to_one(model):  # "members who borrowed": they have loans
                self._related(mention, model)
                return
        cue = self.reading.figure
        if cue is not None and cue.start <= mention.start < cue.end:
            return  # "total" read as a total that found nothing to sum: not understood
        if all(m.model != self.subject for m in columns):
            return  # a related model's column named bare ("bookings of …") shows nothing here
        self.used.add(mention.start)  # a column named only to show or compare it

    def _best_value(self, mention: Mention, values: list[Meaning]) -> Meaning:
        """Pick the column a value belongs to: an exact match, its column or model named nearby."""
        named = {
            (c.model, c.column)
            for m in self.mentions
            if 0 <= mention.start - m.end <= NEAR
            for c in m.of("column")
        }
        nearest = self.models_near(mention.start)[1:2]

        def rank(meaning: Meaning) -> tuple[int, ...]:
            hops = self.domain.relations.paths(self.subject, meaning.model)
            return (
                int(meaning.exact),
                int((meaning.model, meaning.column) in named),
                int(meaning.model in nearest),
                int(meaning.model == self.subject),
                -len(hops[0]) if hops else 0,
            )

        return max(values, key=rank)

    def _value(self, mention: Mention, meaning: Meaning) -> None:
        alternatives = [
            (other, m)
            for other in self.mentions
            if other is not mention and other.start not in self.used
            for m in other.of("value")
            if (m.model, m.column) == (meaning.model, meaning.column)
            and _joined_by_or(self.reading.text, mention, other)
        ]
        role = self._role(mention, meaning)
        column = meaning.column or ""
        if role is not None:
            placed: Placed | None = self.draft.by_role(role, meaning.model, column)
        else:
            placed = self.draft.field(meaning.model, column)
        if placed is None:
            return
        values = [meaning.value, *(m.value for _, m in alternatives)]
        negated = self.negated(mention)
        branch_negation = negated and placed[1] is not None
        op = _membership(len(values) > 1, negated and not branch_negation)
        value: Any = values if len(values) > 1 else values[0]
        self.where(placed, Where(field=placed[0], op=op, value=value), branch_negation)
        for other, _ in alternatives:
            self.understood(other.start, other.end)
        self.understood(mention.start, mention.end, self.weight(meaning.model))

    def _role(self, mention: Mention, meaning: Meaning) -> str | None:
        """Find a foreign key named just before a value of what it points to ("managed by X")."""
        for other in self.mentions:
            if not 0 <= mention.start - other.end <= 12 or other.of("model"):
                continue
            for column in other.of("column"):
                info = self.column(column)
                target = (info.foreign_key or "").rpartition(".")[0]
                if column.model == self.subject and target == meaning.model:
                    self.used.add(other.start)
                    return info.name
        return None

    def negated(self, mention: Mention) -> bool:
        """Tell whether a negation cue governs ``mention`` (and mark the cue as read)."""
        cue = self._cue_for(mention)
        if cue is None:
            return False
        self.reading.take(*cue)
        mention.negated = True
        return True

    def _cue_for(self, mention: Mention) -> tuple[int, int] | None:
        """The negation cue closest before ``mention``, with no clause break or claim between.

        A cue that already governs something closer to it is spent ("non-vegetarian mains").
        """
        for start, end in sorted(self.reading.negations, key=lambda c: -c[0]):
            if end > mention.start:
                continue
            if not self.reading.free(start, end):
                return None
            between = self.reading.text[end : mention.start]
            if any(mark in between for mark in (",", ";", " and ", " or ", " but ")):
                return None
            claimed = any(
                end <= m.start < mention.start and (m.of("value") or m.of("model"))
                for m in self.mentions
            )
            return None if claimed else (start, end)
        return None

    def _related(self, mention: Mention, model: str) -> None:
        """A related model named alone: "customers with orders" (or "without orders")."""
        if model == self.subject:
            self.used.add(mention.start)
            return
        placed = self.draft.field(model, "") if self.draft.reachable(model) else None
        if placed is None:
            self.unknown.append(mention.text)
            return
        branch = placed[1]
        if self.negated(mention) and branch is not None:
            branch.negated = True
        self.understood(mention.start, mention.end, 0.5)

    def _flag(self, mention: Mention, columns: list[Meaning]) -> bool:
        """Read a yes/no column named as a quality: "vegetarian dishes", "non-VIP guests"."""
        flags = [m for m in columns if self.column(m).kind == "bool" and self.value_column(m)]
        if not flags:
            return False
        chosen = min(flags, key=lambda m: m.model != self.subject)
        placed = self.draft.field(chosen.model, chosen.column or "")
        if placed is None:
            return False
        negated = self.negated(mention)
        across = negated and placed[1] is not None  # "guests who never ordered a vegetarian dish"
        value = not (negated and not across)
        self.where(placed, Where(field=placed[0], op=Op.EQ, value=value), across)
        self.understood(mention.start, mention.end, self.weight(chosen.model))
        return True

    def _empty(self, mention: Mention, columns: list[Meaning]) -> bool:
        """Read "no rating", "without a manager", "not returned": the column is empty.

        A verb naming a column that may be empty ("returned loans") asks for it to be filled.
        """
        cue = self._cue_for(mention)
        nullable = [m for m in columns if self.column(m).nullable]
        cue_word = self.reading.text[cue[0] : cue[1]] if cue else ""
        dated = [m for m in nullable if self.column(m).kind in ("date", "datetime")]
        participle = mention.text.endswith("ed") and bool(dated)
        if not nullable or not (cue_word in _EMPTY_CUES or participle):
            return False
        chosen = nullable[0] if cue_word in _EMPTY_CUES else dated[0]
        placed = self.draft.field(chosen.model, chosen.column or "")
        if placed is None:
            return False
        op = Op.IS_NULL if cue_word in _EMPTY_CUES else Op.IS_NOT_NULL
        self.where(placed, Where(field=placed[0], op=op))
        if cue and op is Op.IS_NULL:
            self.reading.take(*cue)
        self.understood(mention.start, mention.end, 1)
        return True

    # -- keywords and the words left over -------------------------------------------------

    def _keyword(self, keyword: Keyword, start: int) -> None:
        """A word seen in sampled text: it must appear in the columns holding it (or not, negated)."""
        negated = self.negated(Mention(start, start + len(keyword.word), keyword.word, []))
        places = [p for p in keyword.places if p[0] == self.subject] or [
            p for p in keyword.places if self.draft.reachable(p[0])
        ]
        if not places:
            self.unknown.append(keyword.word)
            return
        model = places[0][0]
        op = Op.NOT_LIKE if negated else Op.LIKE
        placed = [self.draft.field(model, c) for m, c in places if m == model]
        tests = [
            Where(field=p[0], op=op, value=f"%{quantities.escape(form)}%")
            for p in placed
            if p is not None
            for form in keyword.forms
        ]
        branch: Branch | None = placed[0][1] if placed[0] else None
        where = Where(wheres=tests) if negated else Where(or_=tests) if len(tests) > 1 else tests[0]
        if branch is None and model == self.subject and not negated:
            self.draft.keyword_wheres.append(where)
            self.draft.keyword_any += tests
        else:
            self.draft.add_where(where, branch, negated and branch is not None)
        self.keywords.append(keyword.word)
        self.understood(start, start + len(keyword.word), self.weight(model))

    def _account(self) -> None:
        """Note every word no rule, mention or keyword claimed."""
        for token in self.reading.open_tokens():
            if token.start in self.used or token.text in FILLER:
                continue
            if not token.is_word and not token.text[0].isdigit():
                continue  # a symbol
            if any(m.start in self.used and m.start <= token.start < m.end for m in self.mentions):
                continue
            if self.draft.joins and token.stem in RELATION_VERBS:
                continue  # "who bought …": the join already says it
            self.unknown.append(token.text)


def _membership(many: bool, negated: bool) -> Op:
    if many:
        return Op.NOT_IN if negated else Op.IN
    return Op.NE if negated else Op.EQ


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
