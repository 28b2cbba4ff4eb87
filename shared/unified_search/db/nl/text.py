"""Question text as the generator reads it: normalised, split into words, each with its stem.

Normalisation folds width and case (NFKC), turns control and format
characters (zero-width tricks, direction overrides) into spaces, straightens
quotes and spells out "n't" as "not", so negation is one word everywhere.
Words keep their character offsets, so a rule that understood a word can mark
exactly those characters as used. Stems come from the Snowball English
stemmer ("ordered", "orders" → "order"); Chinese runs are split with jieba.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import Stemmer  # type: ignore[import-not-found]  # PyStemmer ships no type hints

from unified_search.nlp.keywords import segment_chinese

_QUOTES = str.maketrans({"’": "'", "‘": "'", "`": "'", "“": '"', "”": '"', "´": "'"})
_CONTRACTIONS = (
    (re.compile(r"\bcan'?t\b"), "can not"),
    (re.compile(r"\bwon'?t\b"), "will not"),
    (re.compile(r"\b(\w+)n't\b"), r"\1 not"),
)
_LATIN = "a-z0-9\u00df-\u00f6\u00f8-\u024f"  # accented letters are letters: "éclair", "müller"
_TOKEN = re.compile(rf"[{_LATIN}]+(?:[.'][{_LATIN}]+)*|[\u3400-\u9fff]+|[$€£¥%<>=+]")
_CJK = re.compile(r"[\u3400-\u9fff]")
_stemmer = Stemmer.Stemmer("english")


def normalise(question: str) -> str:
    """Fold width and case, drop control and format characters, spell out "n't"."""
    text = unicodedata.normalize("NFKC", question).translate(_QUOTES)
    text = "".join(" " if unicodedata.category(ch)[0] == "C" else ch for ch in text)
    text = " ".join(text.lower().split())
    for pattern, replacement in _CONTRACTIONS:
        text = pattern.sub(replacement, text)
    return text


@dataclass(frozen=True)
class Token:
    """One word (or symbol) of the normalised question and where it sits.

    Example:
        >>> tokenize(normalise("Orders placed"))[0]
        Token(text='orders', start=0, end=6, stem='order')
    """

    text: str
    start: int
    end: int
    stem: str

    @property
    def is_word(self) -> bool:
        """True for letters (Latin or Chinese), false for numbers and symbols."""
        return self.text[0].isalpha()


def tokenize(text: str) -> list[Token]:
    """Split normalised text into words, numbers and symbols; Chinese runs into jieba words."""
    tokens: list[Token] = []
    for match in _TOKEN.finditer(text):
        word = match.group()
        if _CJK.match(word):
            offset = match.start()
            for part in segment_chinese(word):
                start = text.index(part, offset)
                tokens.append(Token(part, start, start + len(part), part))
                offset = start + len(part)
            continue
        if word.endswith("'s"):  # a possessive: "Anna's" is read as "Anna"
            word = word[:-2]
        tokens.append(Token(word, match.start(), match.start() + len(word), stem(word)))
    return tokens


def fold(word: str) -> str:
    """Drop accents, so "crème brûlée" and "creme brulee" are looked up alike."""
    if word.isascii():
        return word
    return "".join(c for c in unicodedata.normalize("NFKD", word) if not unicodedata.combining(c))


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """Return the Snowball stem of an English word (accents dropped); others come back unchanged."""
    word = fold(word)
    if not word.isascii() or not word.isalpha():
        return word
    result: str = _stemmer.stemWord(word)
    return result


def stem_all(words: Sequence[str]) -> list[str]:
    """Return the stems of many words at once (the stemmer works through them in C)."""
    folded = [fold(w) for w in words]
    stems: list[str] = _stemmer.stemWords(folded)
    return [s if w.isascii() and w.isalpha() else w for w, s in zip(folded, stems, strict=True)]


def singular(word: str) -> str:
    """Return a light English singular ("batteries" → "battery", "boxes" → "box"), nothing more.

    Values are matched on these, not on stems: "engineers" must not find "Engineering".
    """
    if len(word) <= 3 or not word.isascii() or not word.isalpha():
        return word
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "sses", "xes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def plural(word: str) -> str:
    """Return a light English plural of a singular word."""
    if word.endswith("y") and word[-2:-1] not in "aeiou":
        return word[:-1] + "ies"
    return word + ("es" if word.endswith(("s", "x", "ch", "sh")) else "s")


def is_plural(text: str) -> bool:
    """Tell whether a phrase ends with a plural noun ("customers", not "status" or "class")."""
    last = text.split()[-1] if text.split() else ""
    return last.endswith("s") and not last.endswith(("ss", "us", "is"))


def stems(text: str) -> tuple[str, ...]:
    """Return the stems of every word in ``text`` (normalised first)."""
    return tuple(t.stem for t in tokenize(normalise(text)))


def compact(text: str) -> str:
    """Return the letters and digits of ``text`` only: "Sci-Fi", "sci fi" and "scifi" agree."""
    return "".join(ch for ch in fold(normalise(text)) if ch.isalnum())


@lru_cache(maxsize=65536)
def _name_words(name: str) -> tuple[str, ...]:
    spaced = re.sub(r"([a-z])([A-Z])", r"\1 \2", name)
    spaced = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1 \2", spaced)  # "LName", "HTMLParser"
    return tuple(w for w in re.split(r"[\s_.\-]+", spaced.lower()) if w)


def name_words(name: str) -> list[str]:
    """Split a column or model name into words: ``createdAt``, ``created_at`` → created, at."""
    return list(_name_words(name))


def word_pattern(word: str) -> re.Pattern[str]:
    """Match ``word`` as a whole word (Chinese and symbols match anywhere)."""
    escaped = re.escape(word)
    if word.isascii() and word[:1].isalnum():
        return re.compile(rf"(?<![a-z0-9]){escaped}(?![a-z0-9])")
    return re.compile(escaped)


def escape_like(text: str) -> str:
    """Escape ``like`` wildcards (and the escape character) in text taken from the question."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
