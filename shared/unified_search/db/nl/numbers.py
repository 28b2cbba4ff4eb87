"""Numbers in words: comparisons, ranges, "in stock", "free", limits ("top 5").

Each rule reads ``Reading.rest``, records what it found (the column comes
later, from the planner) and marks the words it used. A negation right
before a comparison turns it around ("not over $100" is "at most $100").
"""

from __future__ import annotations

import re

from unified_search.db.dsl import Op
from unified_search.db.nl.lexicon import CURRENCY, NUMBER_WORDS
from unified_search.db.nl.reading import NumberTest, OrderWish, Reading
from unified_search.db.nl.text import tokenize

_WORDS = "|".join(sorted((w for w in NUMBER_WORDS if w.isascii()), key=len, reverse=True))
_NUM = (
    r"(?P<cur{i}>[$€£¥])?\s*(?P<num{i}>\d+(?:[.,]\d+)?|(?:zero|" + _WORDS + r")\b)\s*"
    r"(?P<k{i}>k\b|thousand\b|m\b|million\b|mn\b)?"
    r"(?:\s*(?:dollars?|usd|eur|euros?|bucks|pounds?|gbp|美元|元|块)(?![a-z]))?"
)
_N1, _N2 = _NUM.format(i=1), _NUM.format(i=2)
_PREFIX_OPS: dict[Op, str] = {
    Op.LE: r"no more than|not more than|no higher than|not over|at most|up to|max(?:imum)?(?: of)?|<=|不超过|不高于|最多|至多",
    Op.GE: r"at least|no less than|not less than|no fewer than|min(?:imum)?(?: of)?|>=|至少|不低于|不少于|最少",
    Op.LT: r"under|below|less than|lower than|fewer than|beneath|<|低于|小于|少于|不到",
    Op.GT: r"over|above|more than|greater than|higher than|exceeding|exceeds|>|高于|大于|超过|多于",
    Op.EQ: r"exactly|equal to|equals|precisely|=|等于",
}
#: Comparisons that say what they measure: "older than 30" is about an age.
#: "3 years old", "aged 30": an age given outright.
_AGED = (
    re.compile(rf"(?<![a-z])(?:aged|at the age of)\s*{_N1}"),
    re.compile(rf"(?<![a-z.]){_N1}\s*(?:years?|yrs?)[\s-]+old\b"),
)
_MEASURED: tuple[tuple[Op, str, str], ...] = (
    (Op.GT, "age", r"older than"),
    (Op.LT, "age", r"younger than"),
    (
        Op.GT,
        "weight",
        r"heavier than|weigh(?:s|ed|ing)? (?:more|over) than|weigh(?:s|ed|ing)? over",
    ),
    (Op.LT, "weight", r"lighter than|weigh(?:s|ed|ing)? less than|weigh(?:s|ed|ing)? under"),
    (Op.GT, "height", r"taller than"),
    (Op.GT, "length", r"longer than"),
    (Op.LT, "length", r"shorter than"),
    (Op.GT, "money", r"more expensive than|pricier than|costlier than|dearer than"),
    (Op.LT, "money", r"cheaper than|less expensive than"),
    (Op.GT, "size", r"larger than|bigger than"),
    (Op.LT, "size", r"smaller than"),
)
_MEASURED_PATTERNS = [
    (op, measure, re.compile(rf"(?<![a-z])(?:{words})\s*{_N1}")) for op, measure, words in _MEASURED
]
#: "above age 20", "a greater weight than 10": the comparison with its column named inside.
_AROUND = re.compile(
    r"(?<![a-z])(?:(?P<pre>above|over|under|below|at least|at most)\s+(?:an?\s+|the\s+)?"
    r"(?P<term>[a-z_]+(?:\s+[a-z_]+)?)\s+(?:of\s+)?"
    r"|(?P<cmp>more|greater|higher|larger|bigger|less|fewer|smaller|lower|longer|shorter)\s+"
    r"(?P<term2>[a-z_]+(?:\s+[a-z_]+)?)\s+than\s+)" + _N1.replace("(?P<cur1>", "(?P<cur1>", 1)
)
_AROUND_OPS = {
    "above": Op.GT, "over": Op.GT, "under": Op.LT, "below": Op.LT, "at least": Op.GE,
    "at most": Op.LE, "more": Op.GT, "greater": Op.GT, "higher": Op.GT, "larger": Op.GT,
    "bigger": Op.GT, "longer": Op.GT, "less": Op.LT, "fewer": Op.LT, "smaller": Op.LT,
    "lower": Op.LT, "shorter": Op.LT,
}  # fmt: skip
_POSTFIX_OPS: dict[str, Op] = {
    "or more": Op.GE,
    "or higher": Op.GE,
    "or above": Op.GE,
    "or over": Op.GE,
    "or later": Op.GE,
    "and up": Op.GE,
    "and above": Op.GE,
    "and over": Op.GE,
    "+": Op.GE,
    "plus": Op.GE,
    "以上": Op.GE,
    "及以上": Op.GE,
    "or less": Op.LE,
    "or fewer": Op.LE,
    "or lower": Op.LE,
    "or below": Op.LE,
    "or under": Op.LE,
    "and under": Op.LE,
    "and below": Op.LE,
    "以下": Op.LE,
    "以内": Op.LE,
    "及以下": Op.LE,
}
_UNIT = r"(?:\s*(?:[a-z]+|元|块|美元|星|分|个|件|页))?"
_PREFIX = {
    op: re.compile(rf"(?<![a-z])(?:{alts})\s*(?:of\s+|than\s+)?{_N1}")
    for op, alts in _PREFIX_OPS.items()
}
_POSTFIX = re.compile(
    rf"{_N1}(?P<unit>{_UNIT})\s*(?P<post>{'|'.join(re.escape(p) for p in sorted(_POSTFIX_OPS, key=len, reverse=True))})"
)
_BETWEEN = re.compile(
    rf"(?:\bbetween\s+|\bfrom\s+|在|介于)?{_N1}{_UNIT}\s*(?:and|to|-|–|~|到|至|和)\s*{_N2}{_UNIT}\s*(?:之间)?"
)
_REMAINING = re.compile(r"\s*(?:[a-z]+\s+)?(?P<word>left|remaining|in stock)\b")
_IN_STOCK = re.compile(r"\bin[- ]stock\b|\bavailable\b|有货|有库存|现货")
_OUT_OF_STOCK = re.compile(
    r"\bout[- ]of[- ]stock\b|\bsold[- ]out\b|\bunavailable\b|\b(?:run|ran|running)\s+out(?:\s+of)?\b"
    r"|\bnone left\b|缺货|无货|没货"
)
_FREE = re.compile(r"\bfree\b(?!\s+(?:of|from|shipping|delivery))|免费")
_BARE = re.compile(rf"(?<![a-z0-9.]){_N1}(?![a-z0-9.])")
_TURNED: dict[Op, Op] = {
    Op.GT: Op.LE,
    Op.GE: Op.LT,
    Op.LT: Op.GE,
    Op.LE: Op.GT,
    Op.EQ: Op.NE,
}
_COUNT = r"(\d+|" + "|".join(NUMBER_WORDS) + r")"
_LIMITS = (
    re.compile(rf"\b(?:top|first|last)\s+{_COUNT}\b"),
    re.compile(rf"前\s*{_COUNT}\s*(?:个|款|件|条|位|名|种)?"),
)
_MULTIPLIERS = {"k": 1e3, "thousand": 1e3, "m": 1e6, "million": 1e6, "mn": 1e6}


def number_value(match: re.Match[str], i: int = 1) -> float:
    """Read the number of group ``i`` (``5k`` → 5000, ``1,5`` → 1.5, ``five`` → 5)."""
    text = match[f"num{i}"]
    value = float(NUMBER_WORDS.get(text, 0) if text.isalpha() else text.replace(",", "."))
    return value * _MULTIPLIERS.get(match[f"k{i}"] or "", 1)


def as_count(text: str) -> int | None:
    """Read a count written in digits or words ("3", "three"); 0 is no count."""
    if text.isdigit():
        return int(text) or None
    return NUMBER_WORDS.get(text)


def apply_comparisons(reading: Reading) -> None:
    """Read "between 10 and 20", "under $100", "4 stars or more", "至少4星" and the like."""
    for match in list(_BETWEEN.finditer(reading.rest)):
        if match.group().strip()[0].isdigit() and not _has_unit(match):
            continue  # a bare "3-4" is too ambiguous to be a range
        _record(reading, match, Op.BETWEEN, [number_value(match, 1), number_value(match, 2)])
    for match in list(_POSTFIX.finditer(reading.rest)):
        _record(reading, match, _POSTFIX_OPS[match["post"]], [number_value(match)])
    for pattern in _AGED:
        for match in list(pattern.finditer(reading.rest)):
            _record(reading, match, Op.EQ, [number_value(match)], "age")
    for op, measure, pattern in _MEASURED_PATTERNS:
        for match in list(pattern.finditer(reading.rest)):
            _record(reading, match, op, [number_value(match)], measure)
    for op, pattern in _PREFIX.items():  # "no more than" is read before "more than"
        for match in list(pattern.finditer(reading.rest)):
            _record(reading, match, op, [number_value(match)])
    for match in list(_AROUND.finditer(reading.rest)):
        _around(reading, match)


def _around(reading: Reading, match: re.Match[str]) -> None:
    """Read "above age 20", "a greater weight than 10" when the inner words name a column."""
    group = "term" if match["term"] else "term2"
    words = tokenize(match[group])
    if not words or not any(m.kind == "column" for m in reading.vocabulary.meanings(words)):
        return
    op = _AROUND_OPS[match["pre"] or match["cmp"]]
    term = match.span(group)
    if not reading.free(match.start(), match.end()):
        return
    currency = bool(CURRENCY.search(reading.text[match.start() : match.end() + 9]))
    test = NumberTest(op, [number_value(match)], match.start(), match.end(), currency)
    reading.numbers.append(test)
    reading.take(match.start(), term[0])  # the column words stay for the column to be named
    reading.take(term[1], match.end())


def apply_bare_numbers(reading: Reading) -> None:
    """Record numbers no rule has read ("stock of 0", "400 pages"): equality, if a column claims them."""
    for match in list(_BARE.finditer(reading.rest)):
        if reading.free(match.start(), match.end()):
            currency = bool(match["cur1"]) or bool(CURRENCY.match(reading.text, match.end() + 1))
            test = NumberTest(
                Op.EQ, [number_value(match)], match.start(), match.end(), currency, bare=True
            )
            reading.numbers.append(test)


def _has_unit(match: re.Match[str]) -> bool:
    return bool(
        match["cur1"]
        or match["cur2"]
        or CURRENCY.search(match.group())
        or re.match(r"(?:between|from|在|介于)", match.group())
    )


def _record(
    reading: Reading, match: re.Match[str], op: Op, values: list[float], measure: str | None = None
) -> None:
    if not reading.free(match.start(), match.end()):
        return  # an earlier rule already used part of this phrase
    currency = bool(CURRENCY.search(reading.text[match.start() : match.end() + 9]))
    start, end = match.start(), match.end()
    remaining = _REMAINING.match(reading.text, end)
    if remaining is not None:  # "fewer than 10 units left": a count of what is in stock
        reading.take(remaining.start("word"), remaining.end())
    cue = _negation_right_before(reading, start)
    if cue is not None and op in _TURNED:
        op, start = _TURNED[op], cue
    hint = "stock" if remaining is not None else None
    test = NumberTest(op, values, start, end, currency, hint=hint, measure=measure)
    reading.numbers.append(test)
    reading.take(start, end)


def _negation_right_before(reading: Reading, start: int) -> int | None:
    for cue_start, cue_end in reading.negations:
        if cue_end <= start and not reading.text[cue_end:start].strip():
            return cue_start
    return None


def apply_stock(reading: Reading) -> None:
    """Read "in stock" / "out of stock" (a stock-like count above zero or not) and "free" (zero price)."""
    for pattern, op in ((_OUT_OF_STOCK, Op.LE), (_IN_STOCK, Op.GT)):
        for match in list(pattern.finditer(reading.rest)):
            if _is_value(reading, match.group()):
                continue  # "sold out" may be a status of the data itself
            start = match.start()
            cue = _negation_right_before(reading, start)
            if cue is not None:
                op, start = _TURNED[op], cue
            reading.numbers.append(NumberTest(op, [0], start, match.end(), hint="stock"))
            reading.take(start, match.end())
    for match in list(_FREE.finditer(reading.rest)):
        if _is_value(reading, match.group()):
            continue  # a "Free" plan or tier of the data itself
        before = re.search(r"[^\s-]+[\s-]+$", reading.text[: match.start()])
        if before is not None and _named(reading, reading.text[before.start() : match.end()]):
            continue  # "gluten free" names a column or a value, not a price of zero
        reading.numbers.append(NumberTest(Op.EQ, [0], match.start(), match.end(), currency=True))
        reading.take(match.start(), match.end())


def _is_value(reading: Reading, phrase: str) -> bool:
    meanings = reading.vocabulary.meanings(tokenize(phrase))
    return any(m.kind == "value" for m in meanings)


def _named(reading: Reading, phrase: str) -> bool:
    return any(m.kind != "model" for m in reading.vocabulary.meanings(tokenize(phrase)))


def apply_limit(reading: Reading) -> None:
    """Read "top 5", "first three", "前3个"."""
    for pattern in _LIMITS:
        match = pattern.search(reading.rest)
        if match is not None and as_count(match.group(1)):
            reading.limit = as_count(match.group(1))
            reading.take(match.start(), match.end())
            if match.group().startswith("last"):
                reading.orders.append(OrderWish("desc", match.start(), match.end(), "date"))
            elif match.group().startswith("top"):  # "top 3 earners": by what the words name
                term = re.match(r"\s*((?:[a-z]+\s*){1,5})", reading.rest[match.end() :])
                if term is not None:
                    span = (match.end() + term.start(1), match.end() + term.end(1))
                    wish = OrderWish("desc", match.start(), match.end(), term=span, top=True)
                    reading.orders.append(wish)
            return
