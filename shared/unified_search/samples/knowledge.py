"""The bundled sample knowledge base: Kestrel & Co.'s help centre, as Markdown documents.

Kestrel & Co. is a fictional online shop whose catalogue is the sample shop
database of :mod:`unified_search.samples.shop` (the same products, brands, prices
and order statuses). Its help centre has product guides, policies, FAQs and
the support team's handbook, so one question can be answered from the
documents and the database together.
"""

from __future__ import annotations

from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import Any

#: Collection the demo indexes the sample documents into.
SAMPLE_COLLECTION = "kestrel-help"


def documents_folder() -> Traversable:
    """The folder of the bundled Markdown documents (inside the installed package)."""
    return files("unified_search").joinpath("samples", "docs")


def sample_documents() -> list[dict[str, Any]]:
    """Every sample document as ``{"id", "title", "text", "source", "metadata"}``, by file name.

    Example:
        >>> docs = sample_documents()
        >>> docs[0]["id"], len(docs) > 30
        ('about-kestrel-and-co', True)
    """
    entries = sorted(
        (entry for entry in documents_folder().iterdir() if entry.name.endswith(".md")),
        key=lambda entry: entry.name,
    )
    return [_document(entry.name, entry.read_text(encoding="utf-8")) for entry in entries]


def _document(name: str, text: str) -> dict[str, Any]:
    stem = name.removesuffix(".md")
    title = next((line[2:].strip() for line in text.splitlines() if line.startswith("# ")), stem)
    return {
        "id": stem,
        "title": title,
        "text": text,
        "source": f"samples/docs/{name}",
        "metadata": {"section": stem.split("-", 1)[0]},
    }
