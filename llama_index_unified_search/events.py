"""LlamaIndex instrumentation events, one class per core ``EventName``.

Any ``BaseEventHandler`` attached to a LlamaIndex dispatcher (the root one, or
``llama_index_unified_search``'s) receives these while a search runs, inside
the span of that search.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from llama_index.core.instrumentation.events import BaseEvent

from unified_search import CitationReport, Reference, SentenceCheck
from unified_search.contract import EventName, SearchEvent, TraceNode


class UnifiedSearchEvent(BaseEvent):
    """A core search event seen through LlamaIndex instrumentation.

    Example:
        >>> from unified_search.contract import SearchEvent
        >>> core = SearchEvent(name="search_progress", request_id="r1", message="Searching...")
        >>> from_search_event(core, span_id=None).class_name()
        'UnifiedSearchProgressEvent'
    """

    name: EventName
    request_id: str
    """The citation scope the search belongs to."""
    search_id: str | None = None
    """This one search."""
    chat_id: str | None = None
    node: TraceNode | None = None
    """The trace node that changed (the whole search, one request, or one step)."""
    message: str | None = None
    """Progress text for people (progress events only)."""
    done: bool = False
    """The search's last progress message (progress events only)."""
    reference: Reference | None = None
    """The cited reference (result events only)."""
    check: SentenceCheck | None = None
    """One sentence's citation check (citation check events only)."""
    checks: CitationReport | None = None
    """A whole answer's citation check (citations checked events only)."""
    at: datetime
    """When the core emitted the event (UTC)."""

    @classmethod
    def class_name(cls) -> str:
        """Name each subclass after itself, as LlamaIndex serialisation expects."""
        return cls.__name__


class UnifiedSearchStartEvent(UnifiedSearchEvent):
    """A search began."""


class UnifiedSearchItemStartEvent(UnifiedSearchEvent):
    """One request of a search began."""


class UnifiedSearchStepStartEvent(UnifiedSearchEvent):
    """A timed step of a request (embedding, database query ...) or of the search began."""


class UnifiedSearchStepCompleteEvent(UnifiedSearchEvent):
    """A step ended; its node carries the duration."""


class UnifiedSearchStepFailedEvent(UnifiedSearchEvent):
    """A step raised; its node carries the error."""


class UnifiedSearchItemLogEvent(UnifiedSearchEvent):
    """A source attached a log line to its request."""


class UnifiedSearchItemCompleteEvent(UnifiedSearchEvent):
    """One request finished (or was skipped)."""


class UnifiedSearchItemFailedEvent(UnifiedSearchEvent):
    """One request failed or was cancelled; the node carries the error."""


class UnifiedSearchResultEvent(UnifiedSearchEvent):
    """One cited reference, in final order, before the search completes."""


class UnifiedSearchCompleteEvent(UnifiedSearchEvent):
    """A search finished; the node carries the result count and duration."""


class UnifiedSearchProgressEvent(UnifiedSearchEvent):
    """A progress message for people (``Searching...``, then the outcome, then it ``done``)."""


class UnifiedSearchCitationCheckEvent(UnifiedSearchEvent):
    """One sentence of an answer was checked against the references it cites."""


class UnifiedSearchCitationsCheckedEvent(UnifiedSearchEvent):
    """Every sentence of an answer was checked; ``checks`` holds the report."""


#: The LlamaIndex event class of each core event.
EVENT_CLASSES: dict[EventName, type[UnifiedSearchEvent]] = {
    EventName.SEARCH_START: UnifiedSearchStartEvent,
    EventName.SEARCH_ITEM_START: UnifiedSearchItemStartEvent,
    EventName.SEARCH_STEP_START: UnifiedSearchStepStartEvent,
    EventName.SEARCH_STEP_COMPLETE: UnifiedSearchStepCompleteEvent,
    EventName.SEARCH_STEP_FAILED: UnifiedSearchStepFailedEvent,
    EventName.SEARCH_ITEM_LOG: UnifiedSearchItemLogEvent,
    EventName.SEARCH_ITEM_COMPLETE: UnifiedSearchItemCompleteEvent,
    EventName.SEARCH_ITEM_FAILED: UnifiedSearchItemFailedEvent,
    EventName.SEARCH_RESULT: UnifiedSearchResultEvent,
    EventName.SEARCH_COMPLETE: UnifiedSearchCompleteEvent,
    EventName.SEARCH_PROGRESS: UnifiedSearchProgressEvent,
    EventName.CITATION_CHECK: UnifiedSearchCitationCheckEvent,
    EventName.CITATIONS_CHECKED: UnifiedSearchCitationsCheckedEvent,
}


def from_search_event(
    event: SearchEvent, span_id: str | None, tags: Mapping[str, Any] | None = None
) -> UnifiedSearchEvent:
    """Build the LlamaIndex event of a core event, attached to the span ``span_id``.

    The span and tags are passed explicitly because sync searches run on a
    background loop, where the caller's active span and tags are not visible.
    """
    return EVENT_CLASSES[event.name](
        name=event.name,
        request_id=event.request_id,
        search_id=event.search_id,
        chat_id=event.chat_id,
        node=event.node,
        message=event.message,
        done=event.done,
        reference=event.reference,
        check=event.check,
        checks=event.checks,
        at=event.at,
        span_id=span_id,
        tags=dict(tags or {}),
    )
