"""``UnifiedRerankPostprocessor``: the core's rerankers as a LlamaIndex node postprocessor."""

from __future__ import annotations

from typing import Any

from llama_index.core.bridge.pydantic import Field, PrivateAttr
from llama_index.core.postprocessor.types import BaseNodePostprocessor
from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode

from llama_index_unified_search.nodes import ReferenceNode, node_to_item
from llama_index_unified_search.retriever import resolve_session
from unified_search import Searcher, run_sync
from unified_search.citations import cite_together
from unified_search.config import ConfigLike
from unified_search.contract import METADATA_KEY


class UnifiedRerankPostprocessor(BaseNodePostprocessor):
    """Reorder nodes with a core reranker (weighted, rrf, intent, cross_encoder, agent ...).

    Works on any nodes: those of ``UnifiedSearchRetriever`` keep their citation
    metadata, others (from ``SimpleDirectoryReader`` or any retriever) are
    ranked as knowledge-base items by their score. The result is new
    ``NodeWithScore`` objects over copied nodes whose metadata is unchanged but
    for ``metadata["unified_search"]``'s ``rerank_score`` and ``citation_id``;
    the input list and its nodes are never changed. Every node leaves with a
    citation ID unique among them (a retriever's own IDs are kept, see
    ``cite_together``), and plain text nodes reach the model as ``<ref>``
    elements, so ``citation_qa_template`` and ``resolve_citations`` work over
    any index.

    Example:
        Not run here: ``nodes`` are the caller's retrieved nodes.

        >>> rerank = UnifiedRerankPostprocessor(reranker="weighted", top_n=3)
        >>> best = rerank.postprocess_nodes(nodes, query_str="solar panels")  # doctest: +SKIP
    """

    reranker: str = Field(default="weighted", description="Name of the core reranker to use.")
    top_n: int | None = Field(default=None, ge=1, description="Nodes to keep; None keeps them all.")

    _searcher: Searcher = PrivateAttr()

    def __init__(
        self,
        reranker: str = "weighted",
        top_n: int | None = None,
        *,
        searcher: Searcher | None = None,
        config: ConfigLike = None,
        **kwargs: Any,
    ) -> None:
        """Build the reranker now, so an unknown name fails here with the valid names.

        Args:
            reranker: a builtin reranker name, or a registered agent / ``mcp:`` value.
            top_n: nodes to keep.
            searcher: take the configuration and agents from this Searcher.
            config: or a configuration to use (not both).
            **kwargs: other ``BaseNodePostprocessor`` fields.
        """
        super().__init__(reranker=reranker, top_n=top_n, **kwargs)
        self._searcher = resolve_session(None, searcher, config).searcher
        self._searcher.reranker(reranker)

    @classmethod
    def class_name(cls) -> str:
        """Return the name LlamaIndex serialisation records."""
        return "UnifiedRerankPostprocessor"

    def _postprocess_nodes(
        self, nodes: list[NodeWithScore], query_bundle: QueryBundle | None = None
    ) -> list[NodeWithScore]:
        return run_sync(self._apostprocess_nodes(nodes, query_bundle))

    async def _apostprocess_nodes(
        self, nodes: list[NodeWithScore], query_bundle: QueryBundle | None = None
    ) -> list[NodeWithScore]:
        if query_bundle is None:
            raise ValueError(
                "UnifiedRerankPostprocessor needs the query (query_bundle or query_str)"
            )
        items = [node_to_item(node) for node in nodes]
        ranked = await self._searcher.arerank(
            query_bundle.query_str, items, reranker=self.reranker, top_n=self.top_n
        )
        cited = cite_together(item for _, item, _ in ranked)
        return [
            _rescored(nodes[position], score, item.citation_id)
            for (position, _, score), item in zip(ranked, cited, strict=True)
        ]


def _rescored(scored: NodeWithScore, score: float, cid: str | None) -> NodeWithScore:
    old = scored.node
    current = old.metadata.get(METADATA_KEY)
    fields = {
        **(current if isinstance(current, dict) else {}),
        "citation_id": cid,
        "rerank_score": score,
    }
    update = {
        "metadata": {**old.metadata, METADATA_KEY: fields},
        # Ranking details, not content: keep them out of embeddings and prompts.
        "excluded_embed_metadata_keys": _with_key(old.excluded_embed_metadata_keys),
        "excluded_llm_metadata_keys": _with_key(old.excluded_llm_metadata_keys),
    }
    node = old.model_copy(update=update, deep=True)
    if type(node) is TextNode:
        # A reader's or index's text node reaches the model as a cited <ref>, as ours do.
        node = ReferenceNode.model_validate(node.model_dump(exclude={"class_name"}))
    return NodeWithScore(node=node, score=score)


def _with_key(keys: list[str], key: str = METADATA_KEY) -> list[str]:
    return [*keys] if key in keys else [*keys, key]
