"""``UnifiedSearchReranker``: the core rerankers as a LangChain document compressor."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.callbacks import Callbacks
from langchain_core.documents import Document
from langchain_core.documents.compressor import BaseDocumentCompressor
from pydantic import ConfigDict, Field, PrivateAttr, model_validator

from langchain_unified_search._binding import SearcherBinding
from langchain_unified_search.documents import document_to_item, with_metadata
from unified_search._sync import run_sync
from unified_search.rerank.base import Reranker
from unified_search.rerank.registry import get_reranker

#: Metadata key carrying a document's position while it goes through the reranker.
_POSITION = "__unified_search_position"


class UnifiedSearchReranker(SearcherBinding, BaseDocumentCompressor):
    """Rerank documents with a core reranker and keep the best ``top_n``.

    ``reranker`` is any name the core registry knows (``weighted`` by default;
    an unknown name fails at construction and lists the valid ones). Agent and
    MCP rerankers use the delegates of the bound Searcher. The documents come
    back as copies, best first, with ``rerank_score`` in their metadata.

    Example:
        >>> from langchain_classic.retrievers import ContextualCompressionRetriever  # doctest: +SKIP
        >>> ContextualCompressionRetriever(
        ...     base_compressor=UnifiedSearchReranker(reranker="weighted", top_n=3),
        ...     base_retriever=retriever,
        ... )  # doctest: +SKIP
    """

    model_config = ConfigDict(extra="forbid", arbitrary_types_allowed=True)

    reranker: str = "weighted"
    """Core reranker name (``uses.rerank`` values): ``weighted``, ``rrf``, ``cross_encoder`` ..."""
    top_n: int | None = Field(default=None, ge=1)
    """Documents to keep; ``None`` keeps them all, reordered."""
    _impl: Reranker | None = PrivateAttr(default=None)

    @model_validator(mode="after")
    def _build_reranker(self) -> Any:
        self._impl = get_reranker(self.reranker, self.engine.config, self.engine.delegates)
        return self

    def compress_documents(
        self, documents: Sequence[Document], query: str, callbacks: Callbacks | None = None
    ) -> Sequence[Document]:
        """Rerank ``documents`` for ``query`` (sync twin of ``acompress_documents``)."""
        return run_sync(self.acompress_documents(documents, query, callbacks))

    async def acompress_documents(
        self, documents: Sequence[Document], query: str, callbacks: Callbacks | None = None
    ) -> Sequence[Document]:
        """Rerank ``documents`` for ``query``; no documents means no work."""
        if not documents:
            return []
        assert self._impl is not None
        items = [
            document_to_item(with_metadata(doc, {_POSITION: i})) for i, doc in enumerate(documents)
        ]
        ranked = await self._impl.rerank(query, items, top_n=self.top_n)
        return [
            with_metadata(
                documents[item.metadata[_POSITION]],
                {"rerank_score": item.metadata.get("rerank_score")},
            )
            for item in ranked
        ]
