"""The state of one plan being built: what is read, the DSL drafted, and the words accounted for.

The planner and its helpers (``measures``, ``quantities``, ``mentions``) all work on one
``PlanState``: they read the question through it, add to its draft and mark what they
understood. It imports none of them, so the planning modules import each other one way only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from unified_search.db.dsl import Where
from unified_search.db.nl.draft import Draft, Placed
from unified_search.db.nl.lexicon import MONEY_WORDS, SECONDARY_DATES
from unified_search.db.nl.reading import NEAR, Mention, NumberTest, Reading
from unified_search.db.nl.text import name_words, stems
from unified_search.db.nl.vocabulary import Domain, Meaning
from unified_search.db.schema import ColumnInfo, ModelSchema

#: Where ``PlanState.lead`` starts: no phrase about the subject's own columns yet.
NO_LEAD = 1 << 30


@dataclass
class PlanState:
    """One subject's plan in the making (each plan works on its own reading).

    Example:
        Not run here: ``reading`` and ``domain`` come from a question and a database.

        >>> state = PlanState.start(reading, domain, "orders")  # doctest: +SKIP
        >>> state.draft.subject  # doctest: +SKIP
        'orders'
    """

    reading: Reading
    domain: Domain
    mentions: list[Mention]
    draft: Draft
    used: set[int] = field(default_factory=set)
    """Start offsets of understood phrases."""
    unknown: list[str] = field(default_factory=list)
    keywords: list[str] = field(default_factory=list)
    score: float = 0.0
    lead: int = NO_LEAD
    head: str | None = None
    """The model whose rows a ranked or counted answer is grouped by."""
    handled: set[int] = field(default_factory=set)
    """Ids of the number tests and orderings already read into the plan's shape."""

    @classmethod
    def start(cls, reading: Reading, domain: Domain, subject: str) -> PlanState:
        """Begin a plan for ``subject`` from what the rules read."""
        mentions = [m for m in reading.mentions if reading.free(m.start, m.end)]
        named = frozenset(x.model for m in mentions for x in m.of("model"))
        draft = Draft(domain, subject, limit=reading.limit, named=named)
        return cls(reading, domain, mentions, draft)

    @property
    def subject(self) -> str:
        """The model the plan queries."""
        return self.draft.subject

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
        self,
        start: int,
        end: int,
        kinds: Sequence[str],
        *,
        money: bool = False,
        fits: Callable[[Meaning], bool] | None = None,
    ) -> Meaning | None:
        """The column named closest to ``start:end`` (within ``NEAR``), of one of ``kinds``.

        Between columns the same phrase names: that of the model named last before it ("in
        concerts in year 2014"), then the subject's, then the one it names whole.
        """
        best: tuple[int, bool, bool, bool, Meaning, int] | None = None
        for mention in self.mentions:
            distance = max(0, mention.start - end, start - mention.end)
            local = self.model_before(mention.start)
            if distance > NEAR or mention.of("model"):
                continue  # "tickets over 200": a word naming a model names no column
            for meaning in mention.of("column"):
                if (money and not is_money(meaning)) or (fits is not None and not fits(meaning)):
                    continue
                if (
                    self.column(meaning).kind in kinds
                    and self.value_column(meaning)
                    and self.draft.reachable(meaning.model)
                ):
                    whole = stems(mention.text) == stems(" ".join(name_words(meaning.column or "")))
                    mine = meaning.model != self.subject
                    rank = (distance, meaning.model != (local or self.subject), mine, not whole)
                    if best is None or rank < best[:4]:
                        best = (*rank, meaning, mention.start)
        if best is None:
            return None
        self.used.add(best[5])  # the word is now read: it named this column
        return best[4]

    def model_before(self, start: int) -> str | None:
        """The model named last before ``start`` ("pets whose age …", "a cat that is 3 …")."""
        before = [m for m in self.mentions if (m.of("model") or m.of("value")) and m.end <= start]
        if not before:
            return None
        last = max(before, key=lambda m: m.end)
        return (last.of("model") or last.of("value"))[0].model

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
            chosen = self.main_date_of(model)
            if chosen is not None:
                return chosen
        return None

    def main_date_of(self, model: str) -> Meaning | None:
        """The date column of ``model`` a bare date phrase means (not a birth or end date)."""
        dated = self.own(self.domain.models[model], ("date", "datetime"))
        primary = [c for c in dated if not SECONDARY_DATES & set(name_words(c.name))]
        chosen = (primary or dated)[:1]
        return Meaning("column", model, chosen[0].name) if chosen else None

    def model_right_after(self, test: NumberTest) -> Mention | None:
        """The model named right after a number ("5 employees"), if any."""
        for mention in self.mentions:
            if 0 <= mention.start - test.end <= 2 and mention.of("model"):
                return mention
        return None

    def where(self, placed: Placed, where: Where, negated: bool = False) -> None:
        """Add a condition where ``placed`` says (the rows, or an exists branch)."""
        self.draft.add_where(where, placed[1], negated)

    def negated(self, mention: Mention) -> bool:
        """Tell whether a negation cue governs ``mention`` (and mark the cue as read)."""
        cue = self.cue_for(mention)
        if cue is None:
            return False
        self.reading.take(*cue)
        mention.negated = True
        return True

    def cue_for(self, mention: Mention) -> tuple[int, int] | None:
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
            claimed = any(  # "except for stadiums having a concert": the subject claims nothing
                end <= m.start < mention.start
                and (m.of("value") or any(x.model != self.subject for x in m.of("model")))
                for m in self.mentions
            )
            return None if claimed else (start, end)
        return None


def is_money(meaning: Meaning) -> bool:
    """Tell whether a column holds money, judged by its name."""
    return bool(MONEY_WORDS & set(name_words(meaning.column or "")))
