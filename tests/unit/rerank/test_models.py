"""The embedding and cross-encoder rerankers, with small local scorers."""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence

import pytest

from unified_search._optional import MissingDependencyError
from unified_search.config.rerank import CrossEncoderConfig
from unified_search.errors import ErrorCode, SearchError, as_search_error
from unified_search.rerank.cross_encoder import CrossEncoderReranker, OnnxCrossEncoder, load_scorer
from unified_search.rerank.embedding import EmbeddingReranker, cosine
from unified_search.types import ResultItem

DOCS = [
    ResultItem(type="kb", document_id="1", title="Cooking", content="pasta with tomato sauce"),
    ResultItem(
        type="kb", document_id="2", title="Raft", content="leader election with randomized timeouts"
    ),
    ResultItem(
        type="kb", document_id="3", title="Paxos", content="consensus with proposers and acceptors"
    ),
]

VOCAB = ["pasta", "tomato", "leader", "election", "consensus", "raft", "timeouts"]


def bag_of_words(texts: list[str]) -> list[list[float]]:
    """A tiny deterministic embedder: counts of a fixed vocabulary."""
    return [[float(text.lower().count(word)) for word in VOCAB] for text in texts]


def test_cosine() -> None:
    assert cosine([1, 0], [1, 0]) == pytest.approx(1.0)
    assert cosine([1, 0], [0, 1]) == 0.0
    assert cosine([0, 0], [1, 1]) == 0.0


async def test_embedding_orders_by_similarity() -> None:
    ranked = await EmbeddingReranker(bag_of_words).arerank("raft leader election consensus", DOCS)
    assert [i.document_id for i in ranked] == ["2", "3", "1"]
    assert ranked[0].metadata["rerank_score"] > ranked[1].metadata["rerank_score"] > 0.0
    assert ranked[2].metadata["rerank_score"] == 0.0


async def test_embedding_with_wrong_vector_count_fails_clearly() -> None:
    with pytest.raises(SearchError) as info:
        await EmbeddingReranker(lambda texts: [[1.0]]).arerank("q", DOCS)
    assert info.value.code is ErrorCode.PROVIDER_ERROR


@pytest.mark.skipif(
    importlib.util.find_spec("unified_search.kb.embeddings") is None,
    reason="the knowledge base's embedding module is not in this tree",
)
async def test_embedding_with_the_default_offline_model() -> None:
    ranked = await EmbeddingReranker().arerank("how are leaders elected in a cluster", DOCS)
    assert ranked[0].document_id == "2"
    assert ranked[-1].document_id == "1"


def overlap(pairs: list[tuple[str, str]]) -> Sequence[float]:
    return [float(len(set(q.lower().split()) & set(p.lower().split()))) for q, p in pairs]


async def test_cross_encoder_orders_by_pair_score_in_batches() -> None:
    batches: list[int] = []

    def scorer(pairs: list[tuple[str, str]]) -> Sequence[float]:
        batches.append(len(pairs))
        return overlap(pairs)

    reranker = CrossEncoderReranker(scorer, CrossEncoderConfig(batch_size=2))
    ranked = await reranker.arerank("consensus with leader acceptors", DOCS)
    assert [i.document_id for i in ranked] == ["3", "2", "1"]
    assert batches == [2, 1]


async def test_cross_encoder_short_scorer_answer_is_an_error() -> None:
    with pytest.raises(ValueError, match="scores for 3 items"):
        await CrossEncoderReranker(lambda pairs: [1.0]).arerank("q", DOCS)


async def test_no_model_configured_says_what_to_do() -> None:
    with pytest.raises(SearchError) as info:
        await CrossEncoderReranker().arerank("q", DOCS)
    assert info.value.code is ErrorCode.UNSUPPORTED
    assert "rerank.cross_encoder.model" in info.value.message
    assert 'pip install "unified-search[rerank]"' in info.value.message


@pytest.mark.skipif(
    importlib.util.find_spec("sentence_transformers") is not None,
    reason="sentence-transformers is installed, so the missing-package message cannot show",
)
def test_missing_sentence_transformers_names_the_install() -> None:
    with pytest.raises(MissingDependencyError) as info:
        load_scorer(CrossEncoderConfig(model="cross-encoder/ms-marco-MiniLM-L-6-v2"))
    assert str(info.value).endswith(
        'needs sentence_transformers: pip install "unified-search[rerank]"'
    )
    assert as_search_error(info.value).code is ErrorCode.UNSUPPORTED  # inside a search


def test_missing_onnx_file_is_named(tmp_path: object) -> None:
    with pytest.raises(SearchError, match=r"not found: .*nope\.onnx"):
        OnnxCrossEncoder("/nonexistent/nope.onnx")
