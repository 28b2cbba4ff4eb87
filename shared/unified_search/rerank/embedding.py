"""Rescore candidates by semantic similarity, with the knowledge base's offline embedding model.

Useful after a lexical or web first stage: the model sees meaning, not shared
words. Any callable turning a list of texts into a list of vectors can be
given; by default the knowledge base's model (all-MiniLM-L6-v2, int8 ONNX) is
loaded on first use.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable, Sequence

from unified_search._optional import require
from unified_search.errors import ErrorCode, SearchError
from unified_search.rerank.base import Lists, RerankerBase, passage, ranked_by
from unified_search.types import ResultItem

EmbeddingFunction = Callable[[list[str]], Sequence[Sequence[float]]]


def default_embedder() -> EmbeddingFunction:
    """Load the knowledge base's offline embedding model; the error says what to install."""
    model = require("unified_search.models.minilm", extra="kb", purpose="the embedding reranker")
    embed: EmbeddingFunction = model.default_embedding()
    return embed


def cosine(left: Sequence[float], right: Sequence[float]) -> float:
    """Cosine similarity of two vectors (0 when either is all zeros)."""
    dot = sum(a * b for a, b in zip(left, right, strict=True))
    norms = math.sqrt(sum(a * a for a in left)) * math.sqrt(sum(b * b for b in right))
    return dot / norms if norms else 0.0


class EmbeddingReranker(RerankerBase):
    """Order by cosine similarity between the query and each item's title and content.

    Example:
        >>> import asyncio
        >>> fake = lambda texts: [[t.count("cat"), t.count("dog")] for t in texts]
        >>> items = [ResultItem(type="kb", title="dogs"), ResultItem(type="kb", title="cats")]
        >>> [i.title for i in asyncio.run(EmbeddingReranker(fake).arerank("cat", items))]
        ['cats', 'dogs']
    """

    name = "embedding"

    def __init__(self, embed: EmbeddingFunction | None = None, *, max_chars: int = 2000) -> None:
        self._embed = embed
        self.max_chars = max_chars

    def embedder(self) -> EmbeddingFunction:
        """The embedding function, loading the default model on first use."""
        if self._embed is None:
            self._embed = default_embedder()
        return self._embed

    async def _order(
        self, query: str, items: Sequence[ResultItem], top_n: int | None, lists: Lists
    ) -> list[ResultItem]:
        """Return the items by descending similarity to ``query``."""
        texts = [query, *(passage(item, self.max_chars) for item in items)]
        vectors = await asyncio.to_thread(self.embedder(), texts)
        if len(vectors) != len(texts):
            raise SearchError(
                ErrorCode.PROVIDER_ERROR,
                f"the embedding function returned {len(vectors)} vectors for {len(texts)} texts",
                provider=self.name,
            )
        scores = [cosine(vectors[0], vector) for vector in vectors[1:]]
        return ranked_by(items, scores, top_n)
