"""Conversions between LangChain ``Document``s and the core's items and references.

A document made here carries the item's own metadata at the top level and the
core fields under ``metadata["unified_search"]`` (see ``unified_search.contract.metadata``),
so converting back gives the same item, and metadata a loader set (``source``,
``page`` ...) is never read as a core field and comes back unchanged.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from langchain_core.documents import Document

from unified_search import Reference, ResultItem, SearchType
from unified_search.contract import (
    METADATA_KEY,
    core_fields,
    item_from_metadata,
    item_metadata,
)


def item_to_document(item: ResultItem) -> Document:
    """Turn a found item into a document whose metadata keeps every core field.

    Example:
        >>> doc = item_to_document(ResultItem(type="kb", content="x", citation_id="ref_001"))
        >>> doc.metadata["unified_search"]["citation_id"]
        'ref_001'
    """
    return Document(page_content=item.content, metadata=item_metadata(item))


def reference_to_item(reference: Reference) -> ResultItem:
    """Turn a reference back into the item it was cited from."""
    fields = reference.model_dump(include=set(ResultItem.model_fields) - {"citation_id"})
    return ResultItem(citation_id=reference.id, **fields)


def document_to_item(document: Document, default_type: SearchType = SearchType.KB) -> ResultItem:
    """Turn any document into an item; one from another loader or retriever counts as ``default_type``.

    A foreign document's ``id``, when it has one, identifies it (as its ``document_id``).
    """
    identity = {"document_id": document.id} if document.id else {}
    return item_from_metadata(
        document.page_content, document.metadata, default_type=default_type, **identity
    )


def items_to_documents(items: Iterable[ResultItem]) -> list[Document]:
    """Convert items in order."""
    return [item_to_document(item) for item in items]


def with_core_values(document: Document, values: Mapping[str, Any]) -> Document:
    """Return a copy of ``document`` with ``values`` added under its core key, nowhere else."""
    current = document.metadata.get(METADATA_KEY)
    fields = {**(current if isinstance(current, Mapping) else {}), **values}
    return document.model_copy(update={"metadata": {**document.metadata, METADATA_KEY: fields}})


def citation_id_of(document: Document) -> str | None:
    """The citation ID of a document made by this package (``None`` for any other)."""
    cid = core_fields(document.metadata).get("citation_id")
    return str(cid) if cid else None
