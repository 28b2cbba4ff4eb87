"""The core's fields on a framework's document or node, kept apart from the user's metadata.

A LangChain ``Document`` or a LlamaIndex node made from a ``ResultItem`` carries
the item's own metadata at the top level and the core fields (``citation_id``,
``type``, ``source``, ``weight``, ``score``, ``title``, ``url`` and the source's
identifiers) under one key, ``METADATA_KEY``. A loader's ``source``, ``page``,
``type``, ``score`` or ``url`` therefore never collides with them: metadata the
core did not write is never read as a core field and comes back unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import PurePath
from typing import Any

from unified_search.types import ITEM_FIELDS, ORIGIN, ResultItem, SearchType

#: The metadata key holding the core fields of a document or node.
METADATA_KEY = "unified_search"


def item_metadata(item: ResultItem) -> dict[str, Any]:
    """Return the metadata of ``item``: its own keys, then the core fields under ``METADATA_KEY``.

    Example:
        >>> item_metadata(ResultItem(type="kb", citation_id="ref_001"))[METADATA_KEY]["citation_id"]
        'ref_001'
    """
    fields = item.model_dump(mode="json", include=set(ITEM_FIELDS), exclude_none=True)
    return {**item.metadata, METADATA_KEY: fields}


def core_fields(metadata: Mapping[str, Any]) -> dict[str, Any]:
    """The item fields under ``METADATA_KEY`` (empty for a document the core did not make).

    Other keys there (such as a reranker's ``rerank_score``) describe the
    document, not the item, and are left out.
    """
    fields = metadata.get(METADATA_KEY)
    if not isinstance(fields, Mapping):
        return {}
    return {key: fields[key] for key in ITEM_FIELDS if fields.get(key) is not None}


def user_metadata(metadata: Mapping[str, Any]) -> dict[str, Any]:
    """Everything in ``metadata`` but the core fields."""
    return {key: value for key, value in metadata.items() if key != METADATA_KEY}


def display_fields(metadata: Mapping[str, Any]) -> dict[str, str]:
    """A title and URL to show for a loader's document, read from its usual keys.

    ``title`` (WebBaseLoader), else the file named by ``file_name``, ``origin``,
    ``source`` or ``file_path`` with its ``page_label`` (PyPDFLoader,
    SimpleDirectoryReader); the URL is the first ``url``, ``origin`` or ``source``
    that is an http(s) address. Keys of other
    types are ignored; the metadata itself is never changed.

    Example:
        >>> display_fields({"source": "reports/q1.pdf", "page": 3, "page_label": "4"})
        {'title': 'q1.pdf, page 4'}
    """
    fields: dict[str, str] = {}
    url = next((v for v in _texts(metadata, "url", ORIGIN, "source") if _is_web(v)), None)
    if url:
        fields["url"] = url
    name = next((v for v in _texts(metadata, "file_name", ORIGIN, "source", "file_path")), None)
    title = next(iter(_texts(metadata, "title")), None)
    if title is None and name is not None:
        title = name if _is_web(name) else PurePath(name).name
        page = metadata.get("page_label")
        title += f", page {page}" if isinstance(page, str | int) and str(page) else ""
    if title:
        fields["title"] = title
    return fields


def _texts(metadata: Mapping[str, Any], *keys: str) -> list[str]:
    return [v.strip() for k in keys if isinstance(v := metadata.get(k), str) and v.strip()]


def _is_web(value: str) -> bool:
    return value.startswith(("http://", "https://"))


def item_from_metadata(
    content: str,
    metadata: Mapping[str, Any],
    *,
    default_type: SearchType = SearchType.KB,
    **defaults: Any,
) -> ResultItem:
    """Rebuild the item of a document or node; one the core did not make gets ``defaults``.

    Example:
        >>> item_from_metadata("text", {"source": "notes.txt", "page": 2}).metadata
        {'source': 'notes.txt', 'page': 2}
    """
    fields = {"type": default_type, **display_fields(metadata), **defaults, **core_fields(metadata)}
    return ResultItem.model_validate(
        {**fields, "content": content, "metadata": user_metadata(metadata)}
    )
