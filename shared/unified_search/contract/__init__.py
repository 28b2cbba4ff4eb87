"""The contracts between the engine and what it serves: sources, event sinks, stores, frameworks."""

from __future__ import annotations

from unified_search.contract.delegates import Delegates
from unified_search.contract.events import (
    EventBus,
    EventName,
    EventSink,
    LogLevel,
    SearchEvent,
    TraceLog,
    TraceNode,
    TraceStatus,
)
from unified_search.contract.handler import ClosableHandler, SearchContext, SearchHandler
from unified_search.contract.metadata import (
    METADATA_KEY,
    core_fields,
    item_from_metadata,
    item_metadata,
    user_metadata,
)
from unified_search.contract.response import SearchResponse, Status
from unified_search.contract.steps import Step, StepName
from unified_search.contract.store import CitationLedger, RecordStore

__all__ = [
    "METADATA_KEY",
    "CitationLedger",
    "ClosableHandler",
    "Delegates",
    "EventBus",
    "EventName",
    "EventSink",
    "LogLevel",
    "RecordStore",
    "SearchContext",
    "SearchEvent",
    "SearchHandler",
    "SearchResponse",
    "Status",
    "Step",
    "StepName",
    "TraceLog",
    "TraceNode",
    "TraceStatus",
    "core_fields",
    "item_from_metadata",
    "item_metadata",
    "user_metadata",
]
