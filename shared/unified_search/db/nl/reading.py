"""The working state of the builtin generator: a question being read, rule by rule.

Each rule looks at the text not yet used (``rest``), records what it
understood, and marks those characters as used, so the next rule and the
final accounting never read the same words twice. What a rule records is
not yet tied to a model: numbers, dates and orderings find their columns
once the planner knows which model the question is about.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from unified_search.db.dsl import Op
from unified_search.db.nl.text import Token, escape_like, tokenize
from unified_search.db.nl.vocabulary import Keyword, Meaning, Vocabulary

#: How far (characters) a column word may sit from a number, date or superlative to claim it.
NEAR = 30


@dataclass
class Mention:
    """A phrase of the question that names models, columns or values (the planner picks one)."""

    start: int
    end: int
    text: str
    meanings: list[Meaning]
    negated: bool = False

    def of(self, kind: str) -> list[Meaning]:
        """Return the meanings of one kind."""
        return [m for m in self.meanings if m.kind == kind]


@dataclass
class NumberTest:
    """A comparison with numbers ("under $100", "at least 3") waiting for its column."""

    op: Op
    values: list[float]
    start: int
    end: int
    currency: bool = False
    bare: bool = False
    """A number without a comparison word: it counts only next to a column word."""
    hint: str | None = None
    """A kind of column the phrase implies (``stock`` for "in stock")."""
    measure: str | None = None
    """What the comparison measures when its words say so (``age`` for "older than")."""


@dataclass
class OverallTest:
    """A comparison with a figure over all rows ("above the average age") waiting for its column."""

    op: Op
    fn: str
    start: int
    end: int
    term: tuple[int, int] | None = None
    """Where the words naming the column sit ("… the average age"), when they follow."""
    measure: str | None = None
    """What the comparison measures when its words say so (``age`` for "older than")."""
    scoped: bool = False
    """The figure names rows of its own ("the average age of members from Boulder")."""


@dataclass
class DateTest:
    """A date range ("last month", "after 2022") waiting for its column; either end may be open."""

    low: str | None
    high: str | None
    start: int
    end: int


@dataclass
class OrderWish:
    """An ordering ("cheapest", "sorted by price") by a column word or by a kind of measure."""

    sort: str
    start: int
    end: int
    measure: str | None = None
    """``money``, ``date``, ``rating``, ``popularity`` or ``size``, when no column word says."""
    term: tuple[int, int] | None = None
    """Where the words naming the column sit, when they do."""
    top: bool = False
    """Read from "top N …": when the words name no column, the count alone is meant."""
    explicit: bool = False
    """Asked as an order ("sorted by name"), not as a superlative: text columns may be sorted."""


@dataclass
class TextTest:
    """A text match asked for in words ("title contains analyst") waiting for its column."""

    text: str
    start: int
    end: int
    edge: str | None = None
    """``start`` or ``end`` when the text must begin or end the value, not only appear in it."""
    column: tuple[int, int] | None = None
    """Where the words naming the column sit ("'Hey' in its name"), when they follow."""
    owner: str | None = None
    """The word "its" stands for ("a song having 'Hey' in its name": the song's name)."""

    @property
    def pattern(self) -> str:
        """The ``like`` pattern (wildcards in the text escaped)."""
        escaped = escape_like(self.text)
        before = "" if self.edge == "start" else "%"
        after = "" if self.edge == "end" else "%"
        return f"{before}{escaped}{after}"


@dataclass
class Figure:
    """An aggregate asked for ("how many", "average price of")."""

    fn: str
    start: int
    end: int


@dataclass
class Reading:
    """A question and what has been read from it so far.

    Example:
        Not run here: ``vocabulary`` is read from a reflected database.

        >>> reading = Reading.read("cheap  mugs", vocabulary)  # doctest: +SKIP
        >>> reading.text  # doctest: +SKIP
        'cheap mugs'
    """

    text: str
    tokens: list[Token]
    vocabulary: Vocabulary
    _mask: list[str] = field(default_factory=list)
    limit: int | None = None
    numbers: list[NumberTest] = field(default_factory=list)
    overalls: list[OverallTest] = field(default_factory=list)
    dates: list[DateTest] = field(default_factory=list)
    texts: list[TextTest] = field(default_factory=list)
    orders: list[OrderWish] = field(default_factory=list)
    figure: Figure | None = None
    more_figures: list[Figure] = field(default_factory=list)
    """Aggregate cues after the first ("average, minimum and maximum age")."""
    extremes: list[Figure] = field(default_factory=list)
    """"highest and lowest" read as two figures."""
    groups: list[int] = field(default_factory=list)
    """Where a "per"/"by each" cue ends: the next mention names the grouping."""
    loose_groups: set[int] = field(default_factory=set)
    """Those of ``groups`` that are a bare "by": a grouping only after an aggregate cue."""
    negations: list[tuple[int, int]] = field(default_factory=list)
    mentions: list[Mention] = field(default_factory=list)
    keywords: list[tuple[Keyword, int]] = field(default_factory=list)
    """Words found in sampled text, and where they sit."""
    unknown: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    """What was read differently from how it was written ("custmers" → "customers")."""
    person: bool = False
    """The question asks for people ("who …")."""
    quoted: list[tuple[int, int]] = field(default_factory=list)
    """Spans of quoted text: each word there must be understood, filler or not."""
    shown: list[Mention] = field(default_factory=list)
    """Phrases naming the columns the question asks to see, in the order asked."""
    asked: str | None = None
    """The model those columns belong to ("… of the students"), when the question names it."""
    distinct: bool = False
    """"distinct"/"different" asks for the distinct values of the shown columns."""
    possessors: list[Mention] = field(default_factory=list)
    """Model mentions that only say whose column is asked ("the team name")."""
    owners: dict[int, str] = field(default_factory=dict)
    """The model of a shown column named after the subject ("the name of its artist"), by start."""

    @classmethod
    def read(cls, text: str, vocabulary: Vocabulary, notes: list[str] | None = None) -> Reading:
        """Start reading normalised ``text``."""
        return cls(text, tokenize(text), vocabulary, list(text), notes=list(notes or []))

    @property
    def rest(self) -> str:
        """The text with used characters blanked out (positions match ``text``)."""
        return "".join(self._mask)

    def take(self, start: int, end: int) -> None:
        """Mark ``text[start:end]`` as used."""
        for index in range(max(0, start), min(end, len(self._mask))):
            self._mask[index] = " "

    def give_back(self, start: int, end: int) -> None:
        """Mark ``text[start:end]`` as not used again (it was held from some rules)."""
        for index in range(max(0, start), min(end, len(self._mask))):
            self._mask[index] = self.text[index]

    def free(self, start: int, end: int) -> bool:
        """Tell whether no character of ``text[start:end]`` is used yet."""
        return self.rest[start:end] == self.text[start:end]

    def open_tokens(self) -> list[Token]:
        """Return the tokens no rule has used."""
        return [t for t in self.tokens if self.free(t.start, t.end)]
