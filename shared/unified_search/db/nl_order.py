"""Ordering words: "cheapest", "most expensive", "newest", "top rated", "sorted by price desc", "最便宜".

A superlative before a singular noun ("the cheapest laptop") asks for one
row; a count before it ("3 cheapest", "最便宜的3个") sets the limit.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from unified_search.db.draft import Draft, value_columns
from unified_search.db.lexicon import NUMBER_WORDS
from unified_search.db.nl_rules import (
    add_order,
    date_column,
    money_column,
    popularity_column,
    rating_column,
)
from unified_search.db.schema import ColumnInfo

Pick = Callable[[Draft], ColumnInfo | None]

_FIXED: tuple[tuple[str, Pick, str], ...] = (
    (
        r"\bmost expensive\b|\bpriciest\b|\bhighest[- ]priced\b|\bcostliest\b|最贵|价格最高",
        money_column,
        "desc",
    ),
    (
        r"\bcheapest\b|\bleast expensive\b|\blowest[- ]priced\b|\bmost affordable\b|最便宜|价格最低|最实惠",
        money_column,
        "asc",
    ),
    (
        r"\bnewest\b|\blatest\b|\bmost recent\b|\brecently added\b|\brecent\b|最新|最近的",
        date_column,
        "desc",
    ),
    (r"\boldest\b|\bearliest\b|\bleast recent\b|最早|最旧|最老", date_column, "asc"),
    (
        r"\bmost popular\b|\bbest[- ]?selling\b|\btop[- ]selling\b|最受欢迎|最畅销|销量最高",
        popularity_column,
        "desc",
    ),
    (
        r"\b(?:top|best|highest)[- ]rated\b|\bbest reviewed\b|评分最高|评价最好|最好评",
        rating_column,
        "desc",
    ),
    (r"\b(?:worst|lowest)[- ]rated\b|评分最低|评价最差", rating_column, "asc"),
)
_COUNT = r"(\d+|" + "|".join(w for w in NUMBER_WORDS if w.isascii()) + r")"
_COUNT_BEFORE = re.compile(rf"(?:\b(?:top|first|the)\s+)?\b{_COUNT}\s*$")
_COUNT_AFTER = re.compile(
    r"^\s*(?:的?\s*(\d+|[一二两三四五六七八九十])\s*(?:个|款|件|条|位|名|种)|"
    rf"{_COUNT}\b(?!\s*(?:[$€£¥%]|dollars?|usd|stars?|units?)))"
)
_SINGULAR_AFTER = re.compile(r"^\s+([a-z]+)\b")
_SORT_BY = re.compile(
    r"\b(?:sort(?:ed)?|order(?:ed)?|rank(?:ed)?)\s+by\s+(?P<term>[a-z][a-z_ ]*?)"
    r"(?:\s+(?P<dir>asc(?:ending)?|desc(?:ending)?|high(?:est)? to low(?:est)?|low(?:est)? to high(?:est)?))?(?=$|[^a-z_ ]|\s(?:and|with|for|in)\b)"
)
_ZH_SORT = re.compile(r"按(?P<term>[\u4e00-\u9fff]+?)(?P<dir>从高到低|降序|从低到高|升序)?排序")
_SUPERLATIVE = re.compile(
    r"\b(?P<dir>highest|largest|biggest|most|greatest|maximum|lowest|smallest|least|fewest|minimum)\s+(?P<term>[a-z_]+)"
)
_ZH_SUPERLATIVE = re.compile(
    r"(?P<term>[\u4e00-\u9fff]{1,3}?)(?P<dir>最高|最大|最多|最低|最小|最少)"
)
_NOT_NOUN_TEXT = "first one in on of for with from and or by to under over at last than is are was"
_NOT_NOUNS = frozenset(_NOT_NOUN_TEXT.split())
_SIZE = frozenset({"largest", "biggest", "smallest"})
_DESC = (
    "desc",
    "high",
    "highest",
    "largest",
    "biggest",
    "most",
    "greatest",
    "maximum",
    "从高到低",
    "降序",
    "最高",
    "最大",
    "最多",
)


def apply_orders(draft: Draft) -> None:
    """Read every ordering phrase of the question."""
    for pattern, pick, sort in _FIXED:
        for match in list(re.finditer(pattern, draft.rest)):
            if add_order(draft, pick(draft), sort, match.start(), match.end()):
                _limit_near(draft, match.start(), match.end())
    for match in [*_SORT_BY.finditer(draft.rest), *_ZH_SORT.finditer(draft.rest)]:
        sort = "desc" if (match["dir"] or "").startswith(_DESC) else "asc"
        column = _term_column(draft, match.start("term"), match.end("term"))
        add_order(draft, column, sort, match.start(), match.end())
    for match in [*_SUPERLATIVE.finditer(draft.rest), *_ZH_SUPERLATIVE.finditer(draft.rest)]:
        _superlative(draft, match)


def _superlative(draft: Draft, match: re.Match[str]) -> None:
    """Order by the column named after "highest"/"most"/...; size words alone mean money."""
    sort = "desc" if match["dir"] in _DESC else "asc"
    column = _term_column(draft, match.start("term"), match.end("term"))
    end = match.end()
    if column is None and match["dir"] in _SIZE:
        column, end = money_column(draft), match.end("dir")  # "the largest orders"
    if add_order(draft, column, sort, match.start(), end):
        _limit_near(draft, match.start(), end)


def _term_column(draft: Draft, start: int, end: int) -> ColumnInfo | None:
    """Return the sortable column named inside ``start:end`` of the question."""
    columns = value_columns(draft.schema, ("int", "float", "date", "datetime", "str"))
    names = {c.name: c for c in columns}
    inside = [t.column for t in draft.terms if t.start >= start and t.end <= end]
    return next((names[c] for c in inside if c in names), None)


def _limit_near(draft: Draft, start: int, end: int) -> None:
    if draft.limit is not None:
        return
    before = _COUNT_BEFORE.search(draft.rest[:start])
    after = _COUNT_AFTER.search(draft.rest[end:])
    if before is not None:
        draft.limit = _as_count(before.group(1))
        draft.take(before.start(), before.end())
    elif after is not None:
        draft.limit = _as_count(after.group(1) or after.group(2))
        draft.take(end + after.start(), end + after.end())
    elif _singular_object(draft, start, end):
        draft.limit = 1


def _singular_object(draft: Draft, start: int, end: int) -> bool:
    """Tell whether the phrase reads "the <superlative> <singular noun>"."""
    if not re.search(r"\bthe\s+$", draft.text[:start]):
        return False
    noun = _SINGULAR_AFTER.match(draft.text[end:])
    if noun is None:
        return True  # "which is the cheapest?"
    word = noun.group(1)
    return word not in _NOT_NOUNS and not word.endswith("s")


def _as_count(text: str) -> int | None:
    if text.isdigit():
        return int(text) or None
    return NUMBER_WORDS.get(text)
