"""Split an answer into sentences, each with the citations it carries (English and Chinese).

Code is not prose: fenced blocks and inline code are blanked out before anything
else, so a citation-looking string inside code is never read as a citation and
code is never checked as a claim. Citations are found first and blanked too, so
the dots of a URL never end a sentence; a citation written after the full stop
(``... rises. #ref:ref_001``) belongs to the sentence before it. Every offset
points into the original answer.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from unified_search.citations.format import Lookup, located
from unified_search.nlp.stopwords import ENGLISH

#: Longest sentence checked whole; longer runs without a full stop are cut at a space, so a
#: 100,000-character line costs what its pieces cost.
MAX_SENTENCE_CHARS = 1200

_FENCE = re.compile(r"^[ \t]*(```|~~~).*?(?:^[ \t]*\1[^\n]*$|\Z)", re.M | re.S)
_INLINE_CODE = re.compile(r"`[^`\n]+`")
# A sentence ends after . ! ? (and closing quotes or brackets) before white space, or after
# Chinese 。！？ (no space needed), or at a line break.
_END = re.compile(r"[.!?]+[\"')\]’”]*(?=\s)|[。！？]+[”’」』）)]*|\n")
_LEAD = re.compile(r"(?:[#>]+\s*|[-*+•]\s+|\d{1,3}[.)]\s+)+")
_ABBREVIATIONS = frozenset(
    [
        "e.g",
        "i.e",
        "et",
        "al",
        "fig",
        "figs",
        "vs",
        "dr",
        "mr",
        "mrs",
        "ms",
        "prof",
        "no",
        "nos",
        "approx",
        "ca",
        "cf",
        "eq",
        "ref",
        "refs",
        "st",
        "vol",
    ]
)
_LIST_NUMBER = re.compile(r"\s*\d{1,3}\.")
_LAST_WORD = re.compile(r"([A-Za-z][A-Za-z.]*)\.+$")
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
#: A claim has this many words that are not stop words (or twice as many Chinese characters).
MIN_CLAIM_WORDS = 3
#: Words an answer uses about itself ("Sure, here is a short summary."): they state no fact.
_ABOUT_ANSWER = frozenset(
    [
        "sure",
        "summary",
        "summarise",
        "summarize",
        "overview",
        "hope",
        "helps",
        "help",
        "thanks",
        "thank",
        "question",
        "questions",
        "answer",
        "points",
        "following",
        "anything",
        "else",
        "below",
        "above",
        "found",
        "looked",
        "note",
    ]
)


@dataclass(frozen=True)
class Sentence:
    """One sentence of an answer and the citations written in or right after it."""

    start: int
    end: int
    text: str
    cited: list[tuple[str | None, str]] = field(default_factory=list)
    """Each citation as (the ID it names or ``None``, what was written), in order."""
    claim: bool = True
    """Whether it states something (not a question, a heading or a line ending in a colon)."""


@dataclass(frozen=True)
class Split:
    """An answer cut into sentences, with the prose left once code and citations are blanked."""

    sentences: list[Sentence]
    prose: str
    """The answer with code and citations replaced by spaces (same length, same offsets)."""


def split_answer(text: str, fmt: str, lookup: Lookup | None) -> Split:
    """Cut ``text`` into sentences carrying the citations written in ``fmt``.

    Example:
        >>> [s.cited for s in split_answer("Ice melts. #ref:ref_001 Rain falls #ref:ref_002.", "#ref:{id}", None).sentences]
        [[('ref_001', '#ref:ref_001')], [('ref_002', '#ref:ref_002')]]
    """
    code_free = _blank_code(text)
    marks = [(m.start(), m.end(), cid, m.group(0)) for m, cid in located(code_free, fmt, lookup)]
    pieces, last = [], 0
    for start, end, _, _ in marks:
        pieces += [code_free[last:start], " " * (end - start)]
        last = end
    prose = "".join([*pieces, code_free[last:]])
    spans = list(_spans(prose))
    cites: list[list[tuple[str | None, str]]] = [[] for _ in spans]
    starts = [start for start, _, _ in spans]
    for start, _, cid, written in marks:
        if spans:
            cites[max(0, bisect.bisect_right(starts, start) - 1)].append((cid, written))
    sentences = [
        Sentence(start, end, text[start:end], cited, not heading and _is_claim(prose[start:end]))
        for (start, end, heading), cited in zip(spans, cites, strict=True)
    ]
    return Split(sentences, prose)


def _blank_code(text: str) -> str:
    def spaces(match: re.Match[str]) -> str:
        return re.sub(r"[^\n]", " ", match.group(0))

    return _INLINE_CODE.sub(spaces, _FENCE.sub(spaces, text))


def _spans(prose: str) -> Iterator[tuple[int, int, bool]]:
    """The (start, end, is a heading) of every sentence with text, list and heading marks left out."""
    start = 0
    for match in _END.finditer(prose):
        if match.group(0)[0] == "." and _abbreviated(prose, start, match.start() + 1):
            continue
        yield from _trimmed(prose, start, match.end())
        start = match.end()
    yield from _trimmed(prose, start, len(prose))


def _abbreviated(prose: str, start: int, dot: int) -> bool:
    """Whether the full stop at ``dot`` ends an abbreviation, or the next word is in lower case."""
    found = _LAST_WORD.search(prose[max(start, dot - 12) : dot])
    if found and found.group(1).lower().rstrip(".") in _ABBREVIATIONS:
        return True
    line = prose[max(start, prose.rfind("\n", 0, dot) + 1) : dot]
    if _LIST_NUMBER.fullmatch(line):  # "1." opening a numbered list item
        return True
    following = prose[dot : dot + 40].lstrip(" \t\"'")
    return bool(following) and following[0].islower()


def _trimmed(prose: str, start: int, end: int) -> Iterator[tuple[int, int, bool]]:
    piece = prose[start:end]
    stripped = piece.strip()
    if not stripped or not _WORD.search(stripped):
        return
    begin = start + len(piece) - len(piece.lstrip())
    lead = _LEAD.match(prose, begin, end)
    heading = lead is not None and "#" in lead.group(0)
    begin = lead.end() if lead is not None else begin
    finish = start + len(piece.rstrip())
    while finish - begin > MAX_SENTENCE_CHARS:
        cut = prose.rfind(" ", begin, begin + MAX_SENTENCE_CHARS)
        cut = cut if cut > begin else begin + MAX_SENTENCE_CHARS
        yield begin, cut, heading
        begin = cut + 1
    if finish > begin:
        yield begin, finish, heading


def _is_claim(body: str) -> bool:
    stripped = body.strip()
    if stripped.endswith(("?", "？", ":", "：")):
        return False
    words = [
        w
        for w in _WORD.findall(_CJK.sub(" ", stripped))
        if w.lower() not in ENGLISH and w.lower() not in _ABOUT_ANSWER
    ]
    return len(words) + len(_CJK.findall(stripped)) / 2 >= MIN_CLAIM_WORDS


def sentence_spans(text: str) -> Iterator[tuple[int, int, bool]]:
    """The sentences of plain ``text`` (a reference's content) as (start, end, is a heading)."""
    return _spans(text)
