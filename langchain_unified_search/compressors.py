"""``UnifiedSearchReranker``: the core rerankers as a LangChain document compressor."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.callbacks import Callbacks
from langchain_core.documents import Document
from langchain_core.documents.compressor import BaseDocumentCompressor
from pydantic import ConfigDict, Field, model_validator

from langchain_unified_search.binding import SessionBinding
from langchain_unified_search.documents import document_to_item, with_core_values
from unified_search import run_sync


class UnifiedSearchReranker(SessionBinding, BaseDocumentCompressor):
    """Rerank documents with a core reranker and keep the best ``top_n``.

    ``reranker`` is any name the core knows (``weighted`` by default; an unknown
    name fails at construction and lists the valid ones). Agent and MCP
    rerankers use the delegates of the bound Searcher. Any documents work,
    whatever metadata their loader set: they come back as copies, best first,
    with their metadata unchanged but for ``metadata["unified_search"]["rerank_score"]``.

    Example:
        Not run here: ``retriever`` is the caller's base retriever.

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

    @model_validator(mode="after")
    def _check_reranker(self) -> Any:
        self.engine.reranker(self.reranker)
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
        items = [document_to_item(doc) for doc in documents]
        ranked = await self.engine.arerank(query, items, reranker=self.reranker, top_n=self.top_n)
        return [
            with_core_values(documents[position], {"rerank_score": score})
            for position, _, score in ranked
        ]
