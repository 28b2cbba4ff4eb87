"""One reference per document: web results that are the same document under other URLs merge.

Two results are the same document when their URLs name the same document
(``unified_search.engine.identifiers``: arXiv versions and PDFs, DOIs at any
publisher, PubMed and PMC, AMP copies, mobile hosts, tracking parameters), or
when two web pages carry near-identical text: most of their word triples shared,
with enough text to tell (a syndicated article, a copied page). The kept result
is the one deduplication would keep (highest weight, then score) at the place of
the first one found, and it lists the others' URLs in ``metadata["mirrors"]``.
Knowledge-base chunks and database rows keep their own identity: a row that links
to a page, or two chunks of one indexed page, are not mirrors of each other.
"""

from __future__ import annotations

import functools
import math
import re
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence

from unified_search.engine.identifiers import document_identity
from unified_search.types import ResultItem, SearchType
from unified_search.urls import secure_url

#: Share of word triples two pages must share to be one text (Jaccard), and the words each
#: needs for that share to mean something (search snippets are shorter and stay apart).
SAME_TEXT = 0.85
MIN_WORDS = 40
#: Characters of each text compared: enough to tell pages apart, a bound on the work.
COMPARED_CHARS = 4000
_WORD = re.compile(r"\w+")
Triples = frozenset[tuple[str, ...]]


def merge_mirrors(items: Sequence[ResultItem]) -> list[ResultItem]:
    """Merge the items that are one document; the survivor lists the other URLs.

    Example:
        >>> a = ResultItem(type="web", url="https://arxiv.org/abs/2101.00001", score=0.9)
        >>> b = ResultItem(type="web", url="https://arxiv.org/pdf/2101.00001v2", score=0.5)
        >>> [(i.url, i.metadata["mirrors"]) for i in merge_mirrors([a, b])]
        [('https://arxiv.org/abs/2101.00001', ['https://arxiv.org/pdf/2101.00001v2'])]
    """
    groups = _groups(items)
    merged: list[ResultItem] = []
    for members in groups:
        merged.append(
            _merged([items[i] for i in members]) if len(members) > 1 else items[members[0]]
        )
    return merged


def _groups(items: Sequence[ResultItem]) -> list[list[int]]:
    """Positions of the items of each document, in order of first appearance."""
    parent = list(range(len(items)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def join(a: int, b: int) -> None:
        ra, rb = root(a), root(b)
        parent[max(ra, rb)] = min(ra, rb)

    first: dict[str, int] = {}
    for position, item in enumerate(items):
        if item.url and item.type is SearchType.WEB:
            identity = document_identity(item.url)
            join(position, first.setdefault(identity, position))
    texts = {
        i: text
        for i, item in enumerate(items)
        if item.type is SearchType.WEB and (text := _triples(item.content[:COMPARED_CHARS]))
    }
    for a, b in _same_texts(texts):
        join(a, b)
    groups: dict[int, list[int]] = {}
    for position in range(len(items)):
        groups.setdefault(root(position), []).append(position)
    return list(groups.values())


def _same_texts(texts: Mapping[int, Triples]) -> Iterator[tuple[int, int]]:
    """Pairs of texts that share at least ``SAME_TEXT`` of their word triples.

    Equal texts pair at once. Two others are compared only when they share one of the rarest
    triples each must share to reach the threshold (prefix filtering: a text of ``n``
    triples keeps its ``n - ceil(SAME_TEXT * n) + 1`` rarest), so pages with different text
    cost no comparison and the work stays near-linear in the number of results.
    """
    distinct: dict[Triples, int] = {}
    for position, text in texts.items():
        if text in distinct:
            yield distinct[text], position
        else:
            distinct[text] = position
    frequency = Counter(triple for text in distinct for triple in text)
    indexed: dict[tuple[str, ...], list[Triples]] = {}
    for text, position in distinct.items():
        rarest = sorted(text, key=lambda triple: (frequency[triple], triple))
        prefix = rarest[: len(rarest) - math.ceil(SAME_TEXT * len(rarest)) + 1]
        candidates = {other for triple in prefix for other in indexed.get(triple, ())}
        for other in sorted(candidates, key=distinct.__getitem__):
            if _jaccard(other, text) >= SAME_TEXT:
                yield distinct[other], position
        for triple in prefix:
            indexed.setdefault(triple, []).append(text)


@functools.lru_cache(maxsize=4096)
def _triples(text: str) -> Triples:
    """The word triples of ``text``; none when it is too short to tell pages apart.

    Callers pass a text's first ``COMPARED_CHARS`` characters, which also bounds what the
    cache holds.
    """
    words = _WORD.findall(text.lower())
    if len(words) < MIN_WORDS:
        return frozenset()
    return frozenset(zip(words, words[1:], words[2:], strict=False))


def _jaccard(a: Triples, b: Triples) -> float:
    return len(a & b) / len(a | b) if a and b else 0.0


def _merged(members: list[ResultItem]) -> ResultItem:
    """The best member (highest weight, then score; the first on a tie), listing the others."""
    _, best = max(enumerate(members), key=lambda pair: (pair[1].weight, pair[1].score, -pair[0]))
    urls = [m.url for m in members if m.url]
    shown = best.url
    for url in urls:
        shown = secure_url(shown, url) if shown and url and _same_page(shown, url) else shown
    known = list(best.metadata.get("mirrors") or [])
    mirrors = [u for u in dict.fromkeys([*known, *urls]) if u != shown]
    return best.model_copy(update={"url": shown, "metadata": {**best.metadata, "mirrors": mirrors}})


def _same_page(a: str, b: str) -> bool:
    """Whether two URLs differ only by scheme (the ``https`` one is shown)."""
    return a.split("://", 1)[-1] == b.split("://", 1)[-1]
