"""Embedding functions: the protocol, the offline default, and adapters for other frameworks.

An embedding function is any callable taking a list of texts and returning one
vector per text, with a ``name`` that is recorded on every collection it builds
so a collection is never queried with vectors from another model. LangChain
``Embeddings`` and LlamaIndex ``BaseEmbedding`` objects are accepted by duck
typing; neither framework is imported here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable

from unified_search.config.kb import EmbeddingConfig
from unified_search.kb.openai_embedding import OpenAIEmbedding
from unified_search.models.e5 import E5Embedding, e5_embedding
from unified_search.models.minilm import MiniLMEmbedding, default_embedding


@runtime_checkable
class EmbeddingFunction(Protocol):
    """Turn texts into vectors; ``name`` identifies the model that made them.

    Example:
        >>> class Constant:
        ...     name = "constant"
        ...     def __call__(self, texts):
        ...         return [[1.0, 0.0] for _ in texts]
    """

    name: str

    def __call__(self, texts: list[str]) -> list[list[float]]:
        """Return one vector per text, in order."""
        ...


def embedding_from_config(config: EmbeddingConfig) -> EmbeddingFunction:
    """Build the embedding function a ``kb.embedding`` section describes."""
    if config.provider == "openai":
        return OpenAIEmbedding.from_config(config)
    shared, build = _OFFLINE[config.provider]
    if config.threads is None and config.batch_size == EmbeddingConfig().batch_size:
        return shared()
    return build(batch_size=config.batch_size, threads=config.threads)


#: The offline models by provider: the instance every default user shares, and the class
#: that builds one with other threads or batch size.
_OFFLINE: dict[str, tuple[Callable[[], EmbeddingFunction], Callable[..., EmbeddingFunction]]] = {
    "default": (default_embedding, MiniLMEmbedding),
    "e5-small": (e5_embedding, E5Embedding),
}


class LangChainEmbedding:
    """Use a LangChain ``Embeddings`` object (``embed_documents``/``embed_query``).

    Example:
        Not run here: it calls the OpenAI API (``langchain-openai``).

        >>> embed = LangChainEmbedding(OpenAIEmbeddings(), name="text-embedding-3-small")  # doctest: +SKIP
    """

    def __init__(self, embeddings: Any, *, name: str | None = None) -> None:
        if not hasattr(embeddings, "embed_documents"):
            raise TypeError("a LangChain Embeddings object needs an embed_documents method")
        self._embeddings = embeddings
        self.name = name or _model_name(embeddings)

    def __call__(self, texts: list[str]) -> list[list[float]]:
        """Embed texts as documents."""
        return [list(map(float, v)) for v in self._embeddings.embed_documents(list(texts))]

    def embed_query(self, text: str) -> list[float]:
        """Embed a search query the model's way (LangChain ``embed_query``)."""
        return list(map(float, self._embeddings.embed_query(text)))


class LlamaIndexEmbedding:
    """Use a LlamaIndex ``BaseEmbedding`` (``get_text_embedding_batch``).

    Example:
        Not run here: it downloads a model from Hugging Face.

        >>> embed = LlamaIndexEmbedding(HuggingFaceEmbedding(model_name="..."))  # doctest: +SKIP
    """

    def __init__(self, embedding: Any, *, name: str | None = None) -> None:
        if not hasattr(embedding, "get_text_embedding_batch"):
            raise TypeError("a LlamaIndex embedding needs a get_text_embedding_batch method")
        self._embedding = embedding
        self.name = name or _model_name(embedding)

    def __call__(self, texts: list[str]) -> list[list[float]]:
        """Embed texts with the model's batch call."""
        vectors = self._embedding.get_text_embedding_batch(list(texts))
        return [list(map(float, v)) for v in vectors]


class CallableEmbedding:
    """Give a plain function a ``name`` so it can build collections.

    Example:
        >>> embed = CallableEmbedding(lambda texts: [[1.0] for _ in texts], name="ones")
    """

    def __init__(self, function: Any, *, name: str) -> None:
        self._function = function
        self.name = name

    def __call__(self, texts: list[str]) -> list[list[float]]:
        """Call the wrapped function."""
        return [list(map(float, v)) for v in self._function(list(texts))]


def as_embedding_function(value: Any, *, name: str | None = None) -> EmbeddingFunction:
    """Accept our protocol, a LangChain or LlamaIndex embedding, or a named plain callable.

    An object that already follows the protocol is used as it is, so its optional
    ``embed_query`` (a separate query form) and window attributes stay visible.
    """
    if name is None and not hasattr(value, "embed_documents") and _follows_protocol(value):
        protocol: EmbeddingFunction = value
        return protocol
    if hasattr(value, "embed_documents"):
        return LangChainEmbedding(value, name=name)
    if hasattr(value, "get_text_embedding_batch"):
        return LlamaIndexEmbedding(value, name=name)
    if callable(value) and (name or isinstance(getattr(value, "name", None), str)):
        return CallableEmbedding(value, name=name or value.name)
    raise TypeError(
        "an embedding must be callable on a list of texts and have a name (pass name=...)"
    )


def _follows_protocol(value: Any) -> bool:
    return callable(value) and isinstance(getattr(value, "name", None), str)


def _model_name(obj: Any) -> str:
    for attr in ("model_name", "model", "name"):
        value = getattr(obj, attr, None)
        if isinstance(value, str) and value:
            return value
    return type(obj).__name__
