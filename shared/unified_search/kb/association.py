"""Graph association at query time: query entities → their neighbourhood → nodes and chunks.

Entities of the query are the extractor's finds plus every one- to
three-word span of the query the graph already knows (a query is too short
for phrases to repeat). Their neighbours by co-occurrence become
``GraphNode``s scored by how often they co-occur, relative to the strongest;
chunks mentioning the most query entities become extra search candidates.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from unified_search.kb.graph import CO_OCCURS, query_entities
from unified_search.kb.sidestore import SideStore
from unified_search.types import Entity, GraphNode, Relation

_WORDS = re.compile(r"[\w-]+")


@dataclass(frozen=True)
class Association:
    """What the graph adds to one search of one collection."""

    entities: list[Entity] = field(default_factory=list)
    relations: list[Relation] = field(default_factory=list)
    nodes: list[GraphNode] = field(default_factory=list)
    chunks: list[tuple[str, float]] = field(default_factory=list)
    """``(chunk_id, share of query entities it mentions)``, best first."""


def spans(query: str) -> set[str]:
    """Lower-cased one- to three-word spans of ``query``."""
    words = [w.lower() for w in _WORDS.findall(query)]
    return {" ".join(words[i : i + n]) for n in (1, 2, 3) for i in range(len(words) - n + 1)}


def associate(side: SideStore, query: str, max_nodes: int, max_chunks: int) -> Association:
    """Look the query's entities up in ``side`` and collect their neighbourhood."""
    keys = {e.name.lower() for e in query_entities(query)} | spans(query)
    known = side.known_entities(keys)
    if not known:
        return Association()
    entities = [Entity(name=name, type=type_) for _, name, type_ in known]
    nodes = [
        GraphNode(
            name=e.name,
            type=e.type,
            description="named in the question",
            score=1.0,
            metadata={"in_query": True},
        )
        for e in entities
    ]
    relations: list[Relation] = []
    for key, name, _ in known:
        for _, other_name, other_type, weight, seen in _neighbours(side, key, keys, max_nodes):
            relations.append(
                Relation(source=name, target=other_name, type=CO_OCCURS, weight=float(weight))
            )
            nodes.append(
                GraphNode(
                    name=other_name,
                    type=other_type,
                    description=f"related to {name}: {seen:g} shared chunk(s) or relation(s)",
                    relation=f"{CO_OCCURS} with {name}",
                    score=weight,
                    metadata={"in_query": False, "with": name, "links": seen},
                )
            )
    chunks = side.mentioning([k for k, _, _ in known], max_chunks)
    return Association(
        entities=entities,
        relations=relations,
        nodes=_best_nodes(nodes, max_nodes),
        chunks=[(cid, n / len(known)) for cid, n in chunks],
    )


def _neighbours(
    side: SideStore, key: str, exclude: set[str], limit: int
) -> list[tuple[str, str, str, float, float]]:
    """Neighbours of ``key``: key, name, type, weight relative to the strongest, raw weight."""
    found = [row for row in side.neighbours(key, limit + len(exclude)) if row[0] not in exclude][
        :limit
    ]
    top = max((row[3] for row in found), default=1)
    return [(other, name, type_, weight / top, weight) for other, name, type_, weight in found]


def _best_nodes(nodes: list[GraphNode], limit: int) -> list[GraphNode]:
    """Keep each name once (the query's own entities first, then by score)."""
    best: dict[str, GraphNode] = {}
    for node in sorted(nodes, key=lambda n: (n.relation is not None, -n.score, n.name)):
        best.setdefault(node.name.lower(), node)
    return list(best.values())[:limit]
