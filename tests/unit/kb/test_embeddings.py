from __future__ import annotations

import json

import httpx
import numpy as np
import pytest

from unified_search.config.kb import EmbeddingConfig
from unified_search.errors import ErrorCode, SearchError
from unified_search.kb.embeddings import (
    EmbeddingFunction,
    LangChainEmbedding,
    LlamaIndexEmbedding,
    as_embedding_function,
    default_embedding,
    embedding_from_config,
)
from unified_search.kb.openai_embedding import OpenAIEmbedding


def test_default_embedding_is_offline_normalised_and_semantic() -> None:
    embed = default_embedding()
    assert embed is default_embedding()  # loaded once
    assert isinstance(embed, EmbeddingFunction)
    vectors = np.array(
        embed(["a cat sits on the mat", "a kitten rests on a rug", "interest rates rose"])
    )
    assert vectors.shape == (3, 384)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2] + 0.3


def test_default_embedding_barely_depends_on_the_rest_of_its_batch() -> None:
    # int8 compute quantises activations per batch: a text's vector moves a little with
    # its companions, far less than any two different texts differ.
    embed = default_embedding()
    texts = ["short", "a much longer sentence about vector databases and search"]
    together = np.array(embed(texts))
    alone = np.array(embed(texts[1:]))
    assert together[1] @ alone[0] > 0.99
    assert np.array_equal(alone, np.array(embed(texts[1:])))  # same batch, same vector


class FakeLangChain:
    model = "lc-model"

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [[float(len(t)), 1.0] for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return [0.0, 0.0]


class FakeLlamaIndex:
    model_name = "li-model"

    def get_text_embedding_batch(self, texts: list[str]) -> list[list[float]]:
        return [[1.0, float(len(t))] for t in texts]


def test_framework_adapters_by_duck_typing() -> None:
    lc = as_embedding_function(FakeLangChain())
    li = as_embedding_function(FakeLlamaIndex())
    assert isinstance(lc, LangChainEmbedding) and lc.name == "lc-model"
    assert isinstance(li, LlamaIndexEmbedding) and li.name == "li-model"
    assert lc(["abc"]) == [[3.0, 1.0]]
    assert lc.embed_query("abc") == [0.0, 0.0]  # LangChain's own query form is kept
    assert li(["ab"]) == [[1.0, 2.0]]


def test_an_object_following_the_protocol_is_used_as_it_is() -> None:
    model = default_embedding()
    assert as_embedding_function(model) is model  # its window and token count stay visible
    renamed = as_embedding_function(model, name="mine")
    assert renamed is not model and renamed.name == "mine"


def test_plain_callable_needs_a_name() -> None:
    with pytest.raises(TypeError, match="name"):
        as_embedding_function(lambda texts: [[1.0] for _ in texts])
    named = as_embedding_function(lambda texts: [[1.0] for _ in texts], name="ones")
    assert named.name == "ones" and named(["x"]) == [[1.0]]


def _endpoint(request: httpx.Request) -> httpx.Response:
    body = json.loads(request.content)
    assert request.url.path == "/v1/embeddings"
    assert request.headers["Authorization"] == "Bearer sk-test"
    # Answer out of order: the client must sort by index.
    data = [{"index": i, "embedding": [float(i), 0.5]} for i in range(len(body["input"]))][::-1]
    return httpx.Response(200, json={"data": data, "model": body["model"]})


def test_openai_embedding_orders_vectors_by_index() -> None:
    embed = OpenAIEmbedding("m", api_key="sk-test", transport=httpx.MockTransport(_endpoint))
    assert embed(["a", "b", "c"]) == [[0.0, 0.5], [1.0, 0.5], [2.0, 0.5]]
    assert embed([]) == []
    assert embed.name == "m"
    embed.close()


def test_openai_embedding_from_config_reads_the_key_from_env(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("MY_KEY", "sk-test")
    config = EmbeddingConfig(provider="openai", model="m", api_key_env="MY_KEY")
    embed = OpenAIEmbedding.from_config(config, transport=httpx.MockTransport(_endpoint))
    assert embed(["x"]) == [[0.0, 0.5]]
    assert isinstance(embedding_from_config(config), OpenAIEmbedding)


@pytest.mark.parametrize(
    ("response", "code"),
    [
        (httpx.Response(401, json={"error": "bad key"}), ErrorCode.INVALID_API_KEY),
        (httpx.Response(429, json={}), ErrorCode.RATE_LIMITED),
        (httpx.Response(500, text="boom"), ErrorCode.PROVIDER_ERROR),
        (httpx.Response(200, json={"nothing": []}), ErrorCode.PROVIDER_ERROR),
        (httpx.Response(200, json={"data": []}), ErrorCode.PROVIDER_ERROR),
    ],
)
def test_openai_embedding_errors_are_search_errors(
    response: httpx.Response, code: ErrorCode
) -> None:
    embed = OpenAIEmbedding("m", transport=httpx.MockTransport(lambda request: response))
    with pytest.raises(SearchError) as info:
        embed(["x"])
    assert info.value.code is code


def test_openai_embedding_network_failure() -> None:
    def fail(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("refused", request=request)

    with pytest.raises(SearchError) as info:
        OpenAIEmbedding("m", transport=httpx.MockTransport(fail))(["x"])
    assert info.value.code is ErrorCode.NETWORK_ERROR
