"""Ordering words: "cheapest", "most expensive", "newest", "top rated", "sorted by price desc", "最便宜".

A superlative before a singular noun ("cheapest book", "the cheapest laptop")
or with nothing after it ("which is the cheapest?", "who earns the most?")
asks for one row; a count before or after it ("3 cheapest", "newest 5",
"最便宜的3个") sets the limit. "top 3 earners" orders by what the words after
"top 3" name. "the next event" is the first one from today on.
"""

from __future__ import annotations

import datetime as dt
import re

from unified_search.db.nl.numbers import as_count
from unified_search.db.nl.reading import DateTest, OrderWish, Reading
from unified_search.db.nl.text import name_words, tokenize

_FIXED: tuple[tuple[str, str, str], ...] = (
    (
        r"\bmost expensive\b|\bpriciest\b|\bhighest[- ]priced\b|\bcostliest\b|\bdearest\b|最贵|价格最高",
        "money",
        "desc",
    ),
    (
        r"\bcheapest\b|\bleast expensive\b|\blowest[- ]priced\b|\bmost affordable\b|最便宜|价格最低|最实惠",
        "money",
        "asc",
    ),
    (
        r"\bnewest\b|\blatest\b|\bmost recent(?:ly)?\b|\brecently added\b|\brecent\b|最新|最近的",
        "date",
        "desc",
    ),
    (r"\bearliest\b|\bleast recent(?:ly)?\b|最早|最旧", "date", "asc"),
    (r"\byoungest\b", "age", "desc"),  # the latest birth date, where there is one
    (r"\boldest\b|最老", "age", "asc"),
    (
        r"\bmost popular\b|\bbest[- ]?sell(?:ing|er|ers)\b|\btop[- ]selling\b|\b(?:sold|sells?) the most\b|最受欢迎|最畅销|销量最高",
        "popularity",
        "desc",
    ),
    (
        r"\b(?:top|best|highest)[- ]rated\b|\bbest reviewed\b|评分最高|评价最好|最好评",
        "rating",
        "desc",
    ),
    (r"\b(?:worst|lowest)[- ]rated\b|评分最低|评价最差", "rating", "asc"),
    (r"\b(?:biggest|largest)\b(?!\s+(?:number|amount|share)\b)", "size", "desc"),
    (r"\bsmallest\b(?!\s+(?:number|amount|share)\b)", "size", "asc"),
    (r"\blongest\b", "length", "desc"),
    (r"\bshortest\b", "length", "asc"),
    (r"\bheaviest\b", "weight", "desc"),
    (r"\blightest\b", "weight", "asc"),
    (r"\btallest\b", "height", "desc"),
)
#: Words that lean towards an order without asking for one row ("cheap books").
_LEANING: tuple[tuple[str, str, str], ...] = (
    (r"\b(?:cheap|inexpensive|affordable|budget)\b", "money", "asc"),
    (r"\b(?:expensive|pricey|premium|luxury)\b", "money", "desc"),
    (r"\b(?:new|recent)\b", "date", "desc"),
)
_COUNT = r"(\d+|one|two|three|four|five|six|seven|eight|nine|ten|twelve|fifteen|twenty)"
_COUNT_BEFORE = re.compile(rf"(?:\b(?:top|first|the)\s+)?\b{_COUNT}\s*$")
_COUNT_AFTER = re.compile(
    r"^\s*(?:的?\s*(\d+|[一二两三四五六七八九十])\s*(?:个|款|件|条|位|名|种)|"
    rf"{_COUNT}\b(?!\s*(?:[$€£¥%]|dollars?|usd|stars?|units?|k\b)))"
)
_LEADING_COUNT = re.compile(
    rf"^(?:(?:show|list|give|find|get|name)(?:\s+me)?\s+)?(?:the\s+)?{_COUNT}\s+(?=[a-z])"
)
_DIRECTION = (
    r"asc(?:ending)?|desc(?:ending)?|high(?:est)? to low(?:est)?|low(?:est)? to high(?:est)?|"
    r"most to least|least to most|new(?:est)? to old(?:est)?|old(?:est)? to new(?:est)?|"
    r"(?:the\s+)?(?:oldest|youngest) to (?:the\s+)?(?:youngest|oldest)|"
    r"(?:the\s+)?(?:largest|biggest|smallest|longest|shortest|heaviest|lightest) to (?:the\s+)?[a-z]+|"
    r"in (?:an?\s+)?(?:asc(?:ending)?|desc(?:ending)?|increasing|decreasing|reverse|alphabetical) order"
)
_SORT_BY = re.compile(
    r"(?:\b(?:sorted|ordered|ranked|arranged)|(?:^|[,;]\s*|\band\s+|\bthen\s+)(?:sort|order|rank)"
    r"(?:\s+(?:all\s+)?(?:the\s+)?(?P<rows>[a-z_]+(?:\s+[a-z_]+)?)(?=\s+by\b))?)"  # "sort the shops by"
    r"\s+by\s+(?P<term>[a-z][a-z_ ]*?)"
    rf"(?:\s*,?\s+(?:from\s+)?(?P<dir>{_DIRECTION}))?"
    r"(?=$|[^a-z_ ]|\s(?:and|with|for|in|from|of)\b)"
)
#: "in descending order of age", "in alphabetical order": the direction before the column.
_IN_ORDER = re.compile(
    r"\b(?:(?:sorted|ordered|listed|arranged)\s+)?in\s+(?:an?\s+)?"
    r"(?P<dir>asc(?:ending)?|desc(?:ending)?|increasing|decreasing|reverse alphabetical|alphabetical)"
    r"\s+order(?:\s+(?:of|by)\s+(?:the\s+)?(?P<term>(?:number\s+of\s+)?[a-z][a-z_]*(?:\s+[a-z][a-z_]*)?))?"
    r"|\balphabetically\b"
)
_ZH_SORT = re.compile(r"按(?P<term>[\u4e00-\u9fff]+?)(?P<dir>从高到低|降序|从低到高|升序)?排序")
_SUPERLATIVE = re.compile(
    r"\b(?P<dir>highest|largest|biggest|most|greatest|best|top|lowest|smallest|least|fewest|worst)"
    r"\s+(?P<term>(?:(?:number|amount)\s+of\s+)?[a-z_]+(?:\s+[a-z_]+)?)"
)
_TRAILING = re.compile(
    r"\b(?P<term>[a-z]+)\s+(?:the\s+)?(?P<dir>most|least|highest|lowest|best|worst)\s*(?:[?.!]|$)"
)
_OFTEN = re.compile(
    r"\b(?P<term>[a-z]+)\s+(?:the\s+)?most\s+(?:often|frequently|times)\b"
    r"|\b(?:most\s+often|most\s+frequently)\s+(?P<after>[a-z]+)"
)
_ZH_SUPERLATIVE = re.compile(
    r"(?P<term>[\u4e00-\u9fff]{1,3}?)(?P<dir>最高|最大|最多|最低|最小|最少)"
)
_OWNER = re.compile(
    r"\b(?P<noun>[a-z]+)\s+(?:with|having|has|had|whose|(?:that|who|which)\s+(?:has|had|have))"
    r"\s+(?:the\s+)?$"
)
_NEXT = re.compile(r"\b(?:next|soonest)\b(?!\s+(?:\d|week|month|year|days?|few))")
_TOP = re.compile(r"\btop\s+(?P<term>[a-z_]+(?:\s+[a-z_]+)?\s+by\s+[a-z_]+(?:\s+[a-z_]+){0,2})")
_BOUNDARY = frozenset(
    [
        "in",
        "on",
        "of",
        "for",
        "with",
        "from",
        "and",
        "or",
        "by",
        "to",
        "under",
        "over",
        "at",
        "than",
        "is",
        "are",
        "was",
        "were",
        "we",
        "you",
        "they",
        "do",
        "does",
        "did",
        "has",
        "have",
        "that",
        "which",
        "who",
        "whose",
        "where",
        "when",
        "per",
    ]
)
_DESC = ("desc", "high", "highest", "largest", "biggest", "most", "greatest", "maximum", "best",
         "top", "new", "从高到低", "降序", "最高", "最大", "最多")  # fmt: skip


def apply_leading_count(reading: Reading) -> None:
    """Read a count opening the question ("3 cheapest books", "three events with …") as the limit."""
    match = _LEADING_COUNT.match(reading.rest)
    if match is not None and reading.limit is None and as_count(match.group(1)):
        reading.limit = as_count(match.group(1))
        reading.take(match.start(1), match.end(1))


def apply_orders(reading: Reading, today: dt.date) -> None:
    """Read every ordering phrase of the question ("sorted by …" first: it may hold "oldest")."""
    for match in [*_SORT_BY.finditer(reading.rest), *_ZH_SORT.finditer(reading.rest)]:
        sort, measure = _direction(match["dir"] or "")
        term = (match.start("term"), match.end("term"))
        wish = OrderWish(
            sort, match.start(), match.end(), measure=measure, term=term, explicit=True
        )
        reading.orders.append(wish)
        rows = match.span("rows") if "rows" in match.re.groupindex and match["rows"] else None
        reading.take(match.start(), rows[0] if rows else match.start("term"))
        if rows:  # "sort the shops by …": the shops are read as what they name
            reading.take(rows[1], match.start("term"))
        if match["dir"]:
            reading.take(match.start("dir"), match.end("dir"))
    for match in list(_IN_ORDER.finditer(reading.rest)):
        sort, measure = _direction(match["dir"] or "alphabetical")
        named = match.span("term") if match["term"] else None
        alpha = "alpha" if "alphabetical" in match.group() else measure
        wish = OrderWish(sort, match.start(), match.end(), alpha, term=named, explicit=True)
        reading.orders.append(wish)
        reading.take(match.start(), named[0] if named else match.end())
    for pattern, measure, sort in _FIXED:
        for match in list(re.finditer(pattern, reading.rest)):
            _order(reading, OrderWish(sort, match.start(), match.end(), measure))
    for pattern, measure, sort in _LEANING:
        for match in list(re.finditer(pattern, reading.rest)):
            if _names_column(reading, match.group()) or _starts_value(reading, match.start()):
                continue  # a "budget" column, "New York" are no leaning
            reading.orders.append(OrderWish(sort, match.start(), match.end(), measure))
            reading.take(match.start(), match.end())
    for match in list(_TOP.finditer(reading.rest)):
        term = (match.start("term"), match.end("term"))
        reading.orders.append(OrderWish("desc", match.start(), match.end(), term=term, top=True))
        reading.take(match.start(), match.start("term"))
    for match in list(_OFTEN.finditer(reading.rest)):
        group = "term" if match["term"] else "after"
        wish = OrderWish("desc", match.start(), match.end(), term=match.span(group))
        reading.orders.append(wish)
        reading.take(*_outside(match.span(), match.span(group)))
    for match in [*_SUPERLATIVE.finditer(reading.rest), *_ZH_SUPERLATIVE.finditer(reading.rest)]:
        _superlative(reading, match, match.start("term"), match.end("term"))
    for match in list(_TRAILING.finditer(reading.rest)):
        _superlative(reading, match, match.start("term"), match.end("term"))
    for match in list(_NEXT.finditer(reading.rest)):
        reading.dates.append(DateTest(today.isoformat(), None, match.start(), match.end()))
        _order(reading, OrderWish("asc", match.start(), match.end(), "date"))


def _direction(words: str) -> tuple[str, str | None]:
    """The sort a direction phrase asks for, and ``age`` when it speaks of the oldest first.

    "from the oldest to the youngest" is read as a date order (oldest first) and turned around
    on an age column, as the superlatives are.
    """
    words = re.sub(r"^(?:in\s+(?:an?\s+)?|the\s+)", "", words)
    if words.startswith(("oldest", "youngest")):
        return ("asc" if words.startswith("oldest") else "desc"), "age"
    descending = words.startswith(_DESC) or words.startswith(
        ("decreasing", "reverse", "heaviest", "longest")
    )
    return ("desc" if descending else "asc"), None


def _starts_value(reading: Reading, start: int) -> bool:
    """Tell whether a value of the data starts at ``start`` ("new" of "New York")."""
    tokens = [t for t in reading.tokens if t.start >= start][:4]
    return any(
        m.kind == "value"
        for size in range(2, len(tokens) + 1)
        for m in reading.vocabulary.meanings(tokens[:size])
    )


def _names_column(reading: Reading, word: str) -> bool:
    meanings = reading.vocabulary.meanings(tokenize(word))
    return any(m.kind == "column" and word in name_words(m.column or "") for m in meanings)


def _outside(whole: tuple[int, int], inner: tuple[int, int]) -> tuple[int, int]:
    """The part of ``whole`` before or after ``inner`` (the cue words around a term)."""
    return (inner[1], whole[1]) if inner[0] == whole[0] else (whole[0], inner[0])


def _superlative(reading: Reading, match: re.Match[str], start: int, end: int) -> None:
    """Order by the column named next to "highest"/"most"/…; the planner checks the words name one."""
    if not reading.free(match.start("dir"), match.end("dir")):
        return
    sort = "desc" if match["dir"] in _DESC else "asc"
    wish = OrderWish(sort, match.start(), match.end(), term=(start, end))
    reading.orders.append(wish)
    reading.take(match.start("dir"), match.end("dir"))
    _limit_near(reading, match.start(), match.end(), start)


def _order(reading: Reading, wish: OrderWish) -> None:
    if not reading.free(wish.start, wish.end):
        return
    reading.orders.append(wish)
    reading.take(wish.start, wish.end)
    _limit_near(reading, wish.start, wish.end, wish.end)


def _limit_near(reading: Reading, start: int, end: int, noun: int) -> None:
    """Set the limit from a count next to the superlative, else 1 when one thing is asked for."""
    if reading.limit is not None:
        return
    before = _COUNT_BEFORE.search(reading.rest[:start])
    after = _COUNT_AFTER.search(reading.rest[end:])
    if before is not None:
        reading.limit = as_count(before.group(1))
        reading.take(before.start(1), before.end(1))
    elif after is not None:
        reading.limit = as_count(after.group(1) or after.group(2))
        reading.take(end + after.start(), end + after.end())
    elif singular_after(reading.text, noun) or _singular_owner(reading.text[:start]):
        reading.limit = 1


def _singular_owner(before: str) -> bool:
    """Tell whether one thing owns the superlative: "the player with the most goals"."""
    match = _OWNER.search(before)
    if match is None:
        return False
    noun = match["noun"]
    return noun not in _BOUNDARY and (not noun.endswith("s") or noun.endswith(("ss", "us", "is")))


def singular_after(text: str, start: int) -> bool:
    """Tell whether the words from ``start`` name one thing ("book", "fantasy title", "?")."""
    if re.match(r"\s*[\u3400-\u9fff]", text[start:]):
        return False  # Chinese marks no plural: only a count asks for one row
    words: list[str] = []
    for word in re.findall(r"[a-z]+|[?.!,]", text[start:])[:5]:
        if word in _BOUNDARY or not word.isalpha():
            break
        words.append(word)
    if not words:
        return True  # "which is the cheapest?", "who earns the most"
    last = words[-1]
    return last in ("one", "single") or not last.endswith("s") or last.endswith("ss")
