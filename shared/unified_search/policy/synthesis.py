"""Turn a ranked list into compact text for a prompt or a terminal, shaped by its size.

* up to 5 results: one line each (citation, title, URL, snippet, source tags, score); a
  web result's tags are the providers that agreed on it (``[brave, exa]``);
* 6 to 15: grouped by topic, a topic being a keyword shared by several results;
* more than 15: one overview line, the top 5, and how many more from which sources.

Titles and snippets are untrusted text: line breaks and control characters are
flattened so that one result stays on one line. ``answer_prompt`` wraps the
same shapes in the instructions of answer mode.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from unified_search.dedup import agreeing_providers
from unified_search.nlp.keywords import extract_keywords
from unified_search.types import ResultItem
from unified_search.urls import host_of

SHORT_LIST = 5
"""Up to this many results, each gets a line of its own."""
GROUPED_LIST = 15
"""Up to this many results, they are grouped by topic; beyond, only the top is shown."""
SNIPPET_CHARS = 160
"""Characters of content shown per result."""
OTHER_TOPIC = "Other"

_CONTROL = re.compile(r"[\x00-\x1f\x7f]+")


def synthesize(items: Sequence[ResultItem], *, query: str | None = None) -> str:
    """Render ``items`` (best first) as text sized to how many there are.

    Example:
        >>> print(synthesize([ResultItem(type="web", title="RRF", url="https://x.io/rrf", score=0.9)]))
        1. RRF <https://x.io/rrf> [web user] score 0.90
    """
    if not items:
        return f"No results for {flat(query)!r}." if query else "No results."
    if len(items) <= SHORT_LIST:
        return "\n".join(line(item, n) for n, item in enumerate(items, start=1))
    if len(items) <= GROUPED_LIST:
        return grouped(items, query)
    return overview(items)


def flat(text: str | None, limit: int | None = None) -> str:
    """One line of ``text``: control characters and runs of spaces become single spaces."""
    single = " ".join(_CONTROL.sub(" ", text or "").split())
    if limit is not None and len(single) > limit:
        return single[: limit - 1].rstrip() + "…"
    return single


def line(item: ResultItem, number: int) -> str:
    """One result on one line."""
    label = f"[{item.citation_id}] " if item.citation_id else ""
    parts = [f"{number}. {label}{flat(item.title) or '(untitled)'}"]
    if item.url:
        parts.append(f"<{flat(item.url)}>")
    snippet = flat(item.content, SNIPPET_CHARS)
    if snippet:
        parts.append(f"— {snippet}")
    parts.append(f"[{tags(item)}] score {shown_score(item):.2f}")
    return " ".join(parts)


def tags(item: ResultItem) -> str:
    """The source tags of an item: the web providers that agreed on it, else where it is from.

    Where it is from: its type, who asked, and its collection or table.

    Example:
        >>> tags(ResultItem(type="web", metadata={"providers": ["brave", "exa"]}))
        'brave, exa'
    """
    providers = agreeing_providers([item])
    if providers:
        return ", ".join(providers)
    where = item.collection or item.model
    return " ".join([item.type.value, item.source.value, *([where] if where else [])])


def shown_score(item: ResultItem) -> float:
    """The rerank score when there is one, else the source's score."""
    value = item.metadata.get("rerank_score", item.score)
    return float(value) if isinstance(value, int | float) else item.score


def grouped(items: Sequence[ResultItem], query: str | None) -> str:
    """Results grouped under the keyword they share, groups in order of their best result."""
    groups: dict[str, list[tuple[int, ResultItem]]] = {}
    for number, (item, topic) in enumerate(zip(items, topics(items, query), strict=True), start=1):
        groups.setdefault(topic, []).append((number, item))
    if OTHER_TOPIC in groups:
        groups[OTHER_TOPIC] = groups.pop(OTHER_TOPIC)
    blocks = []
    for topic, members in groups.items():
        rows = "\n".join(f"  {line(item, number)}" for number, item in members)
        blocks.append(f"{topic} ({len(members)}):\n{rows}")
    return "\n".join(blocks)


def topics(items: Sequence[ResultItem], query: str | None) -> list[str]:
    """The topic of each item: its most widely shared keyword that is not a query word."""
    skip = set(extract_keywords(query, 50)) if query else set()
    words = [
        [k for k in extract_keywords(f"{i.title}\n{i.content}", 8) if k not in skip] for i in items
    ]
    spread = Counter(word for keywords in words for word in set(keywords))
    return [_topic(keywords, spread, len(items)) for keywords in words]


def _topic(keywords: list[str], spread: Counter[str], count: int) -> str:
    """The keyword shared by the most other items, ignoring words every item has."""
    shared = [word for word in keywords if 2 <= spread[word] < count]
    return max(shared, key=lambda word: spread[word]) if shared else OTHER_TOPIC


def overview(items: Sequence[ResultItem]) -> str:
    """An overview line, the top results, and the count of the rest with their sources."""
    types = Counter(item.type.value for item in items)
    mix = ", ".join(f"{count} {kind}" for kind, count in types.most_common())
    head = f"{len(items)} results ({mix}); top {SHORT_LIST}:"
    top = [line(item, number) for number, item in enumerate(items[:SHORT_LIST], start=1)]
    rest = items[SHORT_LIST:]
    where = sources(items)
    tail = f"… and {len(rest)} more. Sources covered: {', '.join(where)}."
    return "\n".join([head, *top, tail])


def sources(items: Sequence[ResultItem]) -> list[str]:
    """Where the items come from (web domains, collections, tables), most frequent first."""
    counted = Counter(_origin(item) for item in items)
    return [f"{origin} ({count})" for origin, count in counted.most_common()]


def _origin(item: ResultItem) -> str:
    host = host_of(item.url)
    if host:
        return host
    where = item.collection or item.model
    return f"{item.type.value}:{where}" if where else item.type.value


#: How the model should go through the results, by the size of the result set.
_SHAPES = (
    (SHORT_LIST, "There are only a few results: go through each one and cite it."),
    (
        GROUPED_LIST,
        "Group what the results say into the topics below and summarise each topic, "
        "citing the results it rests on.",
    ),
    (
        None,
        "There are many results: open with an overview of the main findings, then go "
        "through the five most relevant ones, and close by saying how many results from "
        "which sources were found and asking which aspect to look into further.",
    ),
)

ANSWER_RULES = (
    "Give the answer first, then the evidence; do not begin by describing the search.",
    "Organise the answer by topic, not by where each result came from.",
    "When results contradict each other, say so plainly and cite each side.",
    "Show how sure you are: state a fact directly when several recent results agree; "
    "write 'according to' and cite the one result a claim rests on, or when it is old; "
    "present the competing claims when results disagree or leave the question open.",
)
"""What answer mode asks of the model, whatever the number of results."""


def answer_prompt(items: Sequence[ResultItem], *, query: str) -> str:
    """The synthesis instructions of answer mode for ``items`` (best first), sized to their number.

    Example:
        >>> print(answer_prompt([], query="rust async").splitlines()[0])
        Answer the question 'rust async' from the references.
    """
    shape = next(text for limit, text in _SHAPES if limit is None or len(items) <= limit)
    rules = "\n".join(f"- {rule}" for rule in (*ANSWER_RULES, shape))
    heading = f"Answer the question {flat(query)!r} from the references."
    return f"{heading}\n{rules}\n\nResults at a glance:\n{synthesize(items, query=query)}"
