"""Conversions between the core's ``ResultItem`` and LlamaIndex nodes, both ways.

A node made here carries the item's own metadata at the top level and the core
fields under ``metadata["unified_search"]`` (see ``unified_search.contract.metadata``),
kept out of embeddings; when a prompt asks for the node in LLM mode it is shown
as the core's ``<ref>`` element (escaped by the core), so a query engine's
context reads like the ``<references>`` block the citation prompt talks about.
Nodes from readers (``SimpleDirectoryReader`` sets ``file_path``,
``file_name``, ``page_label`` ...) keep their metadata as it is.
"""

from __future__ import annotations

import uuid

from llama_index.core.schema import BaseNode, MetadataMode, NodeWithScore, TextNode

from unified_search import Reference, ResultItem, Source
from unified_search.citations import render_ref
from unified_search.contract import core_fields, item_from_metadata, item_metadata

# Fixed so that the same item maps to the same node id in every run and process.
_NODE_NAMESPACE = uuid.UUID("6f1c5a52-3f7e-4d0b-9a4e-2b8f7f0c1d11")


class ReferenceNode(TextNode):
    """A text node that presents itself to an LLM as a cited ``<ref>`` element.

    ``get_content()`` and embeddings see the plain text; ``MetadataMode.LLM``
    (what response synthesizers use) returns the core's escaped ``<ref>`` tag.

    Example:
        >>> item = ResultItem(type="kb", content="a & b", citation_id="ref_001")
        >>> item_to_node(item).node.get_content(MetadataMode.LLM)
        '<ref id="ref_001" type="kb" source="user" weight="1">a &amp; b</ref>'
    """

    @classmethod
    def class_name(cls) -> str:
        """Return the name LlamaIndex serialisation records."""
        return "ReferenceNode"

    def get_content(self, metadata_mode: MetadataMode = MetadataMode.NONE) -> str:
        """Return the text, or the ``<ref>`` element when rendering for an LLM."""
        if metadata_mode is not MetadataMode.LLM or not citation_id_of(self):
            return super().get_content(metadata_mode)
        reference = Reference.from_item(node_to_item(NodeWithScore(node=self)))
        return render_ref(reference)


def node_id(item: ResultItem) -> str:
    """Return a node id derived from the item's identity, stable across runs."""
    return str(uuid.uuid5(_NODE_NAMESPACE, item.key))


def citation_id_of(node: BaseNode) -> str | None:
    """The citation ID of a node made by this package (``None`` for any other)."""
    cid = core_fields(node.metadata).get("citation_id")
    return str(cid) if cid else None


def item_score(item: ResultItem) -> float:
    """Return the item's final score: the reranker's when it gave one, else the source's."""
    return float(item.metadata.get("rerank_score", item.score))


def item_to_node(item: ResultItem) -> NodeWithScore:
    """Turn a result item into a scored node carrying its citation metadata."""
    metadata = item_metadata(item)
    node = ReferenceNode(
        id_=node_id(item),
        text=item.content,
        metadata=metadata,
        excluded_embed_metadata_keys=list(metadata),
        excluded_llm_metadata_keys=list(metadata),
    )
    return NodeWithScore(node=node, score=item_score(item))


def node_to_item(scored: NodeWithScore) -> ResultItem:
    """Turn a node back into a result item.

    Nodes made by this package round-trip exactly. Any other node becomes a
    knowledge-base item identified by its node id, scored by its
    ``NodeWithScore`` score, its metadata kept as the item's own.
    """
    node = scored.node
    content = node.get_content(MetadataMode.NONE)
    if "type" in core_fields(node.metadata):  # made by this package, not just cited by it
        return item_from_metadata(content, node.metadata)
    score = scored.score if scored.score is not None else 0.0
    return item_from_metadata(
        content, node.metadata, score=score, source=Source.USER, document_id=node.node_id
    )
