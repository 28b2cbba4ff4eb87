"""Map the citations in a query engine's answer back to its source nodes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from llama_index.core.schema import NodeWithScore

from llama_index_unified_search.nodes import citation_id_of, node_to_item
from unified_search import Reference
from unified_search.citations import parse_citations
from unified_search.config import CitationConfig, SearchConfig


@dataclass(frozen=True)
class ResolvedCitations:
    """The citations of an answer, resolved against the nodes it was given."""

    ids: list[str]
    """Cited IDs in order of first appearance."""
    nodes: dict[str, NodeWithScore] = field(default_factory=dict)
    """The source node of each cited ID that matched one."""
    unknown: list[str] = field(default_factory=list)
    """Citations that match no source node (invented, or from another context): the ID, or
    the citation as written when the format names no ID (an unknown URL)."""

    @property
    def cited_nodes(self) -> list[NodeWithScore]:
        """The matched source nodes, in citation order."""
        return [self.nodes[cid] for cid in self.ids if cid in self.nodes]


def resolve_citations(
    response: Any,
    source_nodes: Sequence[NodeWithScore] | None = None,
    config: SearchConfig | CitationConfig | None = None,
) -> ResolvedCitations:
    """Find the citations in ``response`` and map each to the source node carrying its ID.

    Args:
        response: a LlamaIndex ``Response`` (its ``source_nodes`` are used) or plain text.
        source_nodes: the nodes to resolve against, instead of ``response.source_nodes``.
        config: where the citation format comes from (default ``#ref:{id}``); a format
            citing by URL or title is resolved against the nodes' URLs and titles.

    Example:
        Not run here: ``engine`` is the caller's query engine.

        >>> answer = engine.query("What is a heat pump?")  # doctest: +SKIP
        >>> resolve_citations(answer).unknown  # doctest: +SKIP
        []
    """
    text = response if isinstance(response, str) else str(getattr(response, "response", ""))
    nodes = list(source_nodes if source_nodes is not None else _source_nodes(response))
    by_id = _by_citation_id(nodes)
    citation = config.citation if isinstance(config, SearchConfig) else config or CitationConfig()
    references = [Reference.from_item(node_to_item(node)) for node in by_id.values()]
    found = parse_citations(text, fmt=citation.format, references=references)
    matched = {cid: by_id[cid] for cid in found.ids if cid in by_id}
    return ResolvedCitations(ids=found.ids, nodes=matched, unknown=found.unknown)


def _source_nodes(response: Any) -> list[NodeWithScore]:
    return list(getattr(response, "source_nodes", None) or [])


def _by_citation_id(nodes: Sequence[NodeWithScore]) -> dict[str, NodeWithScore]:
    """Index nodes by citation ID; the first node carrying an ID wins."""
    by_id: dict[str, NodeWithScore] = {}
    for node in nodes:
        cid = citation_id_of(node.node)
        if cid:
            by_id.setdefault(cid, node)
    return by_id
