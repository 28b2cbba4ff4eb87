"""Chroma: the client, the data directory, and collections tagged with their embedding model.

Chroma never embeds anything here: every collection is opened with
``embedding_function=None`` and every call passes vectors, because Chroma's own
default embedding downloads a model on first use. Telemetry is off. Each
collection uses cosine space and records ``embedding_model`` in its metadata;
opening it with another model is refused instead of returning meaningless
neighbours. All calls here block, so the handler runs them in worker threads.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterator, Mapping
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx

from unified_search._optional import require
from unified_search.config.kb import KBConfig
from unified_search.errors import ConfigurationError, ErrorCode, SearchError
from unified_search.paths import data_home

MODEL_KEY = "embedding_model"
FORMAT_KEY = "index_format"
#: What a collection's stored vectors and side store mean. A collection records the format
#: that built it (none recorded is format 1) and is only opened by a version writing the same.
#: 2: the default model computes in int8, so its vectors differ from format 1's.
INDEX_FORMAT = 2
#: Chroma's rule for collection names (also what keeps side-store file names safe).
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{1,510}[A-Za-z0-9]")
PROVIDER = "kb"


def data_dir(config: KBConfig) -> Path:
    """The folder of embedded Chroma and of the side stores: ``kb/`` in the data folder."""
    if config.data_dir:
        return Path(config.data_dir).expanduser()
    return data_home() / "kb"


def _chromadb() -> Any:
    return require("chromadb", extra="kb", purpose="the knowledge base")


def make_client(config: KBConfig) -> Any:
    """A bounded HTTP client when ``chroma_url`` is set, else an embedded persistent one.

    Both block (the HTTP one calls the server at once): build them in a worker thread.
    """
    chromadb = _chromadb()
    if config.chroma_url:
        url = urlsplit(config.chroma_url)
        if url.scheme not in ("http", "https") or not url.hostname:
            raise ConfigurationError(
                "kb.chroma_url must look like http://host:port", key="kb.chroma_url"
            )
        from unified_search.kb.remote import bounded_client  # imports chromadb

        port = url.port or (443 if url.scheme == "https" else 8000)
        with coded_unreachable():
            return bounded_client(
                url.hostname, port, ssl=url.scheme == "https", timeout=config.chroma_timeout
            )
    path = data_dir(config) / "chroma"
    path.mkdir(parents=True, exist_ok=True)
    settings = chromadb.config.Settings(anonymized_telemetry=False)
    return chromadb.PersistentClient(path=str(path), settings=settings)


def close_client(client: Any) -> None:
    """Release a client's files or connections.

    ``close()`` releases Chroma's shared system but leaves the connection pools
    of the HTTP client and of its internal admin client open, so those are
    closed too when present.
    """
    close = getattr(client, "close", None)
    if close is not None:
        close()
    for owner in (client, getattr(client, "_admin_client", None)):
        session = getattr(getattr(owner, "_server", None), "_session", None)
        if session is not None:
            session.close()


def collection_names(client: Any) -> list[str]:
    """Names of the existing collections, sorted."""
    return sorted(c if isinstance(c, str) else c.name for c in client.list_collections())


def open_collection(client: Any, name: str, model: str) -> Any:
    """Open ``name`` for searching; unknown names and model mismatches are clear errors."""
    try:
        collection = client.get_collection(name, embedding_function=None)
    except Exception as exc:  # chromadb raises NotFoundError or ValueError depending on version
        if failure := unreachable(exc):
            raise failure from exc
        known = ", ".join(collection_names(client)) or "none"
        raise SearchError(
            ErrorCode.INVALID_QUERY,
            f"unknown collection {name!r}; existing collections: {known}",
            provider=PROVIDER,
        ) from exc
    check_compatible(collection, model)
    return collection


def valid_name(name: str) -> bool:
    """Whether ``name`` may name a collection (and so a side-store file)."""
    return _NAME.fullmatch(name) is not None


def create_collection(client: Any, name: str, model: str) -> Any:
    """Open or create ``name`` for indexing with ``model``."""
    if not valid_name(name):
        raise SearchError(
            ErrorCode.INVALID_QUERY,
            f"invalid collection name {name!r}: use 3-512 letters, digits, '.', '_' or '-', "
            "starting and ending with a letter or digit",
            provider=PROVIDER,
        )
    collection = client.get_or_create_collection(
        name,
        embedding_function=None,
        metadata={MODEL_KEY: model, FORMAT_KEY: INDEX_FORMAT},
        configuration={"hnsw": {"space": "cosine"}},
    )
    check_compatible(collection, model)
    return collection


def check_compatible(collection: Any, model: str) -> None:
    """Refuse vectors from a model, or an index format, other than those that built it."""
    check_marker(collection.name, collection.metadata or {}, model)


def build_marker(metadata: Mapping[str, Any]) -> dict[str, Any]:
    """What a collection's metadata says built it: its embedding model and index format."""
    return {MODEL_KEY: metadata.get(MODEL_KEY), FORMAT_KEY: metadata.get(FORMAT_KEY, 1)}


def check_marker(name: str, marker: Mapping[str, Any], model: str) -> None:
    """Refuse ``model`` for collection ``name`` unless ``marker`` (its build marker) allows it."""
    built_format = marker.get(FORMAT_KEY, 1)
    if built_format != INDEX_FORMAT:
        raise SearchError(
            ErrorCode.UNSUPPORTED,
            f"collection {name!r} was indexed in format {built_format}, and this "
            f"version of unified-search reads format {INDEX_FORMAT} (its default embedding "
            "computes in int8); delete the collection and index its documents again",
            provider=PROVIDER,
        )
    built_with = marker.get(MODEL_KEY)
    if built_with is not None and built_with != model:
        raise SearchError(
            ErrorCode.UNSUPPORTED,
            f"collection {name!r} was built with embedding model {built_with!r}, "
            f"not {model!r}; search it with that model or re-index it",
            provider=PROVIDER,
        )


def similarity(distance: float) -> float:
    """Cosine similarity in 0..1 from a Chroma cosine distance (negative similarity counts as 0)."""
    return min(1.0, max(0.0, 1.0 - float(distance)))


@contextmanager
def coded_unreachable() -> Iterator[None]:
    """Raise a Chroma server's refusal, drop or silence as its coded error (``unreachable``)."""
    try:
        yield
    except Exception as exc:
        if failure := unreachable(exc):
            raise failure from exc
        raise


def unreachable(exc: BaseException) -> SearchError | None:
    """The coded error of a Chroma server that refused, dropped or did not answer a call.

    chromadb re-raises transport errors as other types in places, so the chain of
    causes is searched. ``None`` when ``exc`` is not such a failure.
    """
    cause: BaseException | None = exc
    for _ in range(8):  # a chain is short; the bound only guards against a cycle
        if cause is None or isinstance(cause, httpx.TransportError):
            break
        cause = cause.__cause__ or cause.__context__
    if not isinstance(cause, httpx.TransportError):
        return None
    reason = str(cause) or type(cause).__name__
    if isinstance(cause, httpx.TimeoutException):
        return SearchError(
            ErrorCode.TIMEOUT,
            f"the Chroma server did not answer in time (kb.chroma_timeout): {reason}",
            provider=PROVIDER,
        )
    return SearchError(
        ErrorCode.NETWORK_ERROR, f"cannot reach the Chroma server: {reason}", provider=PROVIDER
    )


@asynccontextmanager
async def dropped_meanwhile(name: str) -> AsyncIterator[None]:
    """Name the failure of a write to a collection that was dropped meanwhile (``NOT_FOUND``)."""
    try:
        yield
    except Exception as exc:
        from chromadb.errors import NotFoundError

        if not isinstance(exc, NotFoundError):
            raise
        raise SearchError(
            ErrorCode.NOT_FOUND,
            f"collection {name!r} was dropped while it was being indexed: the run "
            "stopped and wrote nothing more; index again to create it anew",
            provider=PROVIDER,
        ) from exc
