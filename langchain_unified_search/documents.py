"""Conversions between LangChain ``Document``s and the core's items and references.

A document's metadata holds the core fields flat (``citation_id``, ``type``,
``source``, ``weight``, ``score``, ``title``, ``url``, ``document_id``,
``collection``, ``model``, ``record_id``, ``data``) followed by the item's own
metadata (``provider``, ``rerank_score`` ...), so converting back gives the
same item. Documents that came from elsewhere convert with defaults.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from langchain_core.documents import Document

from unified_search.types import ITEM_FIELDS, Reference, ResultItem, SearchType


def item_to_document(item: ResultItem) -> Document:
    """Turn a found item into a document whose metadata keeps every core field.

    Example:
        >>> item_to_document(ResultItem(type="kb", content="x", citation_id="ref_001")).metadata["citation_id"]
        'ref_001'
    """
    fields = item.model_dump(mode="json", include=set(ITEM_FIELDS), exclude_none=True)
    return Document(page_content=item.content, metadata={**item.metadata, **fields})


def reference_to_document(reference: Reference) -> Document:
    """Turn a cited reference into a document (its ``id`` becomes ``citation_id``)."""
    return item_to_document(reference_to_item(reference))


def reference_to_item(reference: Reference) -> ResultItem:
    """Turn a reference back into the item it was cited from."""
    fields = reference.model_dump(exclude={"id", "index"})
    return ResultItem(citation_id=reference.id, **fields)


def document_to_item(document: Document, default_type: SearchType = SearchType.KB) -> ResultItem:
    """Turn any document into an item; missing fields take their defaults.

    Documents from other retrievers have no ``type``: they count as ``default_type``.
    """
    meta = document.metadata
    fields: dict[str, Any] = {key: meta[key] for key in ITEM_FIELDS if meta.get(key) is not None}
    fields.setdefault("type", default_type)
    extra = {key: value for key, value in meta.items() if key not in ITEM_FIELDS}
    return ResultItem(content=document.page_content, metadata=extra, **fields)


def items_to_documents(items: Iterable[ResultItem]) -> list[Document]:
    """Convert items in order."""
    return [item_to_document(item) for item in items]


def with_metadata(document: Document, values: Mapping[str, Any]) -> Document:
    """Return a copy of ``document`` with ``values`` added to its metadata."""
    return document.model_copy(update={"metadata": {**document.metadata, **values}})
