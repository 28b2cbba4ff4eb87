"""Knowledge base search over Chroma collections, and ingestion of files and folders.

The ingestion names are imported lazily, so importing a submodule stays cheap.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from unified_search.kb.admin import DocumentInfo, Removed
    from unified_search.kb.consistency import Consistency
    from unified_search.kb.files import DirectoryReader, SkippedFile
    from unified_search.kb.ingest import IngestProgress
    from unified_search.kb.mirror import IndexOptions, IndexReport

_EXPORTS: dict[str, str] = {
    "Consistency": "unified_search.kb.consistency",
    "DirectoryReader": "unified_search.kb.files",
    "DocumentInfo": "unified_search.kb.admin",
    "IndexOptions": "unified_search.kb.mirror",
    "IndexReport": "unified_search.kb.mirror",
    "IngestProgress": "unified_search.kb.ingest",
    "Removed": "unified_search.kb.admin",
    "SkippedFile": "unified_search.kb.files",
}

__all__ = [
    "Consistency",
    "DirectoryReader",
    "DocumentInfo",
    "IndexOptions",
    "IndexReport",
    "IngestProgress",
    "Removed",
    "SkippedFile",
]


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'unified_search.kb' has no attribute {name!r}")
    return getattr(importlib.import_module(_EXPORTS[name]), name)
