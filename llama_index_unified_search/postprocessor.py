"""``UnifiedRerankPostprocessor``: the core's rerankers as a LlamaIndex node postprocessor."""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Sequence
from typing import Any

from llama_index.core.bridge.pydantic import Field, PrivateAttr
from llama_index.core.postprocessor.types import BaseNodePostprocessor
from llama_index.core.schema import NodeWithScore, QueryBundle

from llama_index_unified_search.nodes import item_score, node_to_item
from llama_index_unified_search.retriever import resolve_searcher
from unified_search._sync import run_sync
from unified_search.rerank.base import Reranker
from unified_search.rerank.registry import get_reranker
from unified_search.searcher import ConfigLike, Searcher
from unified_search.types import ResultItem


class UnifiedRerankPostprocessor(BaseNodePostprocessor):
    """Reorder nodes with a core reranker (weighted, rrf, intent, cross_encoder, agent ...).

    Works on any nodes: those of ``UnifiedSearchRetriever`` keep their citation
    metadata, others are ranked as knowledge-base items. The result is new
    ``NodeWithScore`` objects over copied nodes carrying ``rerank_score`` in
    their metadata; the input list and its nodes are never changed.

    Example:
        >>> rerank = UnifiedRerankPostprocessor(reranker="weighted", top_n=3)
        >>> best = rerank.postprocess_nodes(nodes, query_str="solar panels")  # doctest: +SKIP
    """

    reranker: str = Field(default="weighted", description="Name of the core reranker to use.")
    top_n: int | None = Field(default=None, ge=1, description="Nodes to keep; None keeps them all.")

    _reranker: Reranker = PrivateAttr()

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
        engine = resolve_searcher(searcher, config)
        self._reranker = get_reranker(reranker, engine.config, engine.delegates)

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
        if not nodes:
            return []
        items = [node_to_item(node) for node in nodes]
        ranked = await self._reranker.rerank(query_bundle.query_str, items, top_n=self.top_n)
        return _reordered(nodes, items, ranked)


def _reordered(
    nodes: Sequence[NodeWithScore], items: Sequence[ResultItem], ranked: Sequence[ResultItem]
) -> list[NodeWithScore]:
    """Map reranked items back onto copies of the nodes they came from."""
    positions: defaultdict[str, deque[int]] = defaultdict(deque)
    for index, item in enumerate(items):
        positions[item.key].append(index)
    return [_rescored(nodes[positions[item.key].popleft()], item_score(item)) for item in ranked]


def _rescored(scored: NodeWithScore, score: float) -> NodeWithScore:
    old = scored.node
    update = {
        "metadata": {**old.metadata, "rerank_score": score},
        # A ranking detail, not content: keep it out of embeddings and prompts.
        "excluded_embed_metadata_keys": _with_key(old.excluded_embed_metadata_keys),
        "excluded_llm_metadata_keys": _with_key(old.excluded_llm_metadata_keys),
    }
    node = old.model_copy(update=update, deep=True)
    return NodeWithScore(node=node, score=score)


def _with_key(keys: list[str], key: str = "rerank_score") -> list[str]:
    return [*keys] if key in keys else [*keys, key]
