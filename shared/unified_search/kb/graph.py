"""Entities and relations: the builtin extractor and the agent delegate.

The builtin extractor is deliberately plain and fast enough to run on every
chunk while indexing: capitalised multi-word names ("Marie Curie"), acronyms
("BRCA1", "MRI") and noun phrases, taken as runs of two or three content words
repeated within the chunk (a repeated phrase is what a passage is about).
Entities found in the same chunk are related by co-occurrence. An agent
delegate (any registered callable, or an MCP tool) can replace it; it receives
``{"task": "extract_entities", "text": ..., "title": ...}`` and answers
``{"entities": [{"name", "type"}], "relations": [{"source", "target", "type"}]}``.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from unified_search.types import Entity, Relation

#: Relations are drawn between at most this many entities of a chunk (the most frequent),
#: which keeps the pair count per chunk at 45 instead of growing quadratically.
MAX_RELATED = 10
#: The relation of two entities found in the same text.
CO_OCCURS = "co_occurs"
_NAME = re.compile(r"\b[A-Z][a-z]+(?:[ -](?:of |de |van |von )?[A-Z][a-z]+)+\b")
_ACRONYM = re.compile(r"\b(?=[A-Z0-9-]*[A-Z][A-Z0-9-]*[A-Z0-9])[A-Z][A-Za-z0-9-]{1,9}\b")
_TWO_CAPITALS = re.compile(r"[A-Z][^A-Z]*[A-Z]")
_WORD = re.compile(r"[A-Za-z][A-Za-z-]+")
_STOP_WORDS = """a about above after again against all also am an and any are as at be because been before
    being below between both but by can could did do does doing down during each either few for
    from further had has have having he her here hers him his how i if in into is it its itself
    just may me might more most must my no nor not now of off on once only or other our out over
    own same she should so some such than that the their them then there these they this those
    through to too under until up very was we were what when where which while who whom why will
    with would you your however thus therefore using used use based among within without whether
    several many much well show shows shown study studies result results"""
_STOP = frozenset(_STOP_WORDS.split())


@dataclass(frozen=True)
class Extraction:
    """What one text yields: entities and the relations between them."""

    entities: list[Entity] = field(default_factory=list)
    relations: list[Relation] = field(default_factory=list)


def extract(text: str) -> Extraction:
    """Find names, acronyms and repeated noun phrases, related by co-occurrence."""
    entities = extract_entities(text)
    return Extraction(entities, co_occurrences(entities[:MAX_RELATED]))


def extract_entities(text: str) -> list[Entity]:
    """Names, acronyms and repeated noun phrases of ``text``, the most frequent first.

    What indexing stores: the side store derives co-occurrence from the entities each
    chunk mentions, so the pairs ``extract`` lists are not built there.
    """
    counts: Counter[str] = Counter()
    types: dict[str, str] = {}
    for kind, names in (
        ("name", _names(text)),
        ("acronym", _acronyms(text)),
        ("phrase", _phrases(text)),
    ):
        counts.update(names)
        for key in map(str.lower, names):
            types.setdefault(key, kind)
    found: list[Entity] = []
    for name, _ in counts.most_common():
        kind = types.pop(name.lower(), "")  # popped: a name differing only in case is kept once
        if kind:
            found.append(Entity(name=name, type=kind))
    return found


def query_entities(text: str) -> list[Entity]:
    """Entities of a query: the extractor's finds (phrases need not repeat in a short query)."""
    found = extract_entities(text) + [Entity(name=p, type="phrase") for p in _phrases(text, 1)]
    return _unique(found)


def co_occurrences(entities: list[Entity]) -> list[Relation]:
    """Relate every pair of entities seen together."""
    return [
        Relation(source=a.name, target=b.name, type="co_occurs")
        for a, b in itertools.combinations(entities, 2)
    ]


def parse_extraction(answer: Any) -> Extraction:
    """Read an agent's answer; malformed entries are dropped, not guessed at."""
    if not isinstance(answer, Mapping):
        raise ValueError("the entity extractor must answer a mapping with entities and relations")
    entities = [
        Entity(name=str(e["name"]), type=str(e.get("type") or "concept"))
        for e in answer.get("entities") or []
        if isinstance(e, Mapping) and str(e.get("name", "")).strip()
    ]
    relations = [
        Relation(
            source=str(r["source"]),
            target=str(r["target"]),
            type=str(r.get("type") or "related_to"),
        )
        for r in answer.get("relations") or []
        if isinstance(r, Mapping) and r.get("source") and r.get("target")
    ]
    return Extraction(_unique(entities), relations)


def _names(text: str) -> list[str]:
    # A sentence-initial capital is not a name by itself; two capitalised words in a row are.
    return [m.group(0) for m in _NAME.finditer(text)]


def _acronyms(text: str) -> list[str]:
    return [m for m in _ACRONYM.findall(text) if _TWO_CAPITALS.search(m)]


def _phrases(text: str, min_count: int = 2) -> list[str]:
    words = _WORD.findall(text.lower())
    counts = Counter(itertools.pairwise(words))
    # Only the few repeated pairs are judged: content words both (not stop words, not short).
    repeated = {
        p: None for p, c in counts.items() if c >= min_count and _content(p[0]) and _content(p[1])
    }
    found = [" ".join(p) for p in repeated]
    if repeated:  # three words repeat only where both their pairs do: most texts stop here
        consecutive = itertools.pairwise(itertools.pairwise(words))
        both = [a in repeated and b in repeated for a, b in consecutive]
        triples = Counter(itertools.compress(zip(words, words[1:], words[2:], strict=False), both))
        found += [" ".join(t) for t, c in triples.items() if c >= min_count]
    return found


def _content(word: str) -> bool:
    return len(word) > 2 and word not in _STOP


def _unique(entities: list[Entity]) -> list[Entity]:
    seen: dict[str, Entity] = {}
    for entity in entities:
        seen.setdefault(entity.name.lower(), entity)
    return list(seen.values())
