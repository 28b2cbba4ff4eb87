"""Rerank with a cross-encoder: a model that reads the query and a passage together.

No package installed with unified-search ships a cross-encoder, so the model
is whatever you provide: a sentence-transformers ``CrossEncoder`` name or
directory (``pip install "unified-search[rerank]"`` installs
sentence-transformers), an ``.onnx`` file with its ``tokenizer.json``
(onnxruntime and tokenizers), or any callable scoring (query, passage) pairs.
Everything is loaded on first use.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from unified_search._optional import require
from unified_search.config.rerank import CrossEncoderConfig
from unified_search.config.search import SearchConfig
from unified_search.errors import ErrorCode, SearchError
from unified_search.rerank.base import Lists, RerankerBase, passage, ranked_by
from unified_search.types import ResultItem

PairScorer = Callable[[list[tuple[str, str]]], Sequence[float]]
INSTALL_HINT = 'pip install "unified-search[rerank]" (sentence-transformers)'


def _missing(what: str, exc: Exception | None = None) -> SearchError:
    detail = f" ({exc})" if exc else ""
    return SearchError(ErrorCode.UNSUPPORTED, f"{what}{detail}", provider="cross_encoder")


def load_scorer(config: CrossEncoderConfig) -> PairScorer:
    """Build the scorer named by ``rerank.cross_encoder.model``; errors say what to install."""
    if config.model is None:
        raise _missing(
            "no cross-encoder model configured: set rerank.cross_encoder.model to a "
            f"sentence-transformers model or an .onnx file, or pass a scorer; {INSTALL_HINT}"
        )
    if config.model.endswith(".onnx"):
        return OnnxCrossEncoder(config.model, config.tokenizer, config.max_length)
    return _sentence_transformers(config.model, config.max_length)


def _sentence_transformers(model: str, max_length: int) -> PairScorer:
    cross_encoder: Any = require(
        "sentence_transformers", extra="rerank", purpose="the cross_encoder reranker"
    ).CrossEncoder
    encoder = cross_encoder(model, max_length=max_length)

    def score(pairs: list[tuple[str, str]]) -> Sequence[float]:
        return [float(s) for s in encoder.predict(pairs, show_progress_bar=False)]

    return score


class OnnxCrossEncoder:
    """Score pairs with a cross-encoder exported to ONNX (logits of the last output column).

    Example:
        Not run here: it needs an exported ONNX model file.

        >>> scorer = OnnxCrossEncoder("ms-marco-MiniLM-L6.onnx")  # doctest: +SKIP
        >>> scorer([("what is rrf", "Reciprocal rank fusion merges lists")])  # doctest: +SKIP
        [7.1]
    """

    def __init__(self, model: str, tokenizer: str | None = None, max_length: int = 512) -> None:
        path = Path(model)
        vocab = Path(tokenizer) if tokenizer else path.with_name("tokenizer.json")
        for file in (path, vocab):
            if not file.is_file():
                raise _missing(f"cross-encoder file not found: {file}")
        onnxruntime: Any = require("onnxruntime", extra="kb", purpose="an .onnx cross-encoder")
        tokenizers: Any = require("tokenizers", extra="kb", purpose="an .onnx cross-encoder")
        self._session: Any = onnxruntime.InferenceSession(
            str(path), providers=["CPUExecutionProvider"]
        )
        self._tokenizer: Any = tokenizers.Tokenizer.from_file(str(vocab))
        self._tokenizer.enable_truncation(max_length)
        self._tokenizer.enable_padding()

    def __call__(self, pairs: list[tuple[str, str]]) -> Sequence[float]:
        """Return one relevance logit per pair."""
        import numpy as np

        encoded = self._tokenizer.encode_batch(pairs)
        feeds = {
            "input_ids": np.array([e.ids for e in encoded], dtype=np.int64),
            "attention_mask": np.array([e.attention_mask for e in encoded], dtype=np.int64),
            "token_type_ids": np.array([e.type_ids for e in encoded], dtype=np.int64),
        }
        wanted = {i.name for i in self._session.get_inputs()}
        logits = self._session.run(None, {k: v for k, v in feeds.items() if k in wanted})[0]
        return [float(row[-1]) for row in np.asarray(logits).reshape(len(pairs), -1)]


class CrossEncoderReranker(RerankerBase):
    """Order by a cross-encoder's score of (query, title + content), in batches.

    Example:
        >>> import asyncio
        >>> overlap = lambda pairs: [len(set(q.split()) & set(p.split())) for q, p in pairs]
        >>> items = [ResultItem(type="kb", content="red apples"), ResultItem(type="kb", content="green pears")]
        >>> [i.content for i in asyncio.run(CrossEncoderReranker(overlap).arerank("green pears", items))]
        ['green pears', 'red apples']
    """

    name = "cross_encoder"

    def __init__(
        self,
        scorer: PairScorer | None = None,
        config: CrossEncoderConfig | None = None,
        *,
        max_chars: int = 2000,
    ) -> None:
        self.config = config or CrossEncoderConfig()
        self._scorer = scorer
        self.max_chars = max_chars

    @classmethod
    def from_config(cls, config: SearchConfig) -> CrossEncoderReranker:
        """Build from ``rerank.cross_encoder`` (the model loads on first use)."""
        return cls(config=config.rerank.cross_encoder)

    def scorer(self) -> PairScorer:
        """The pair scorer, loading the configured model on first use."""
        if self._scorer is None:
            self._scorer = load_scorer(self.config)
        return self._scorer

    async def _order(
        self, query: str, items: Sequence[ResultItem], top_n: int | None, lists: Lists
    ) -> list[ResultItem]:
        """Return the items by descending cross-encoder score."""
        scorer = await asyncio.to_thread(self.scorer)
        pairs = [(query, passage(item, self.max_chars)) for item in items]
        scores: list[float] = []
        size = self.config.batch_size
        for start in range(0, len(pairs), size):
            batch = pairs[start : start + size]
            scores += [float(s) for s in await asyncio.to_thread(scorer, batch)]
        return ranked_by(items, scores, top_n)
