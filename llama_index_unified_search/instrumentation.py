"""Run a search inside a LlamaIndex span and re-emit its events there.

Every search made by this package goes through ``asearch`` or ``search``, so
LlamaIndex span handlers see one span per search and event handlers see the
core's events (as ``UnifiedSearchEvent`` subclasses) tagged with that span.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

# llama_index.core.instrumentation re-exports these without an __all__.
from llama_index.core.instrumentation import get_dispatcher  # type: ignore[attr-defined]
from llama_index.core.instrumentation.dispatcher import (  # type: ignore[attr-defined]
    active_instrument_tags,
)
from llama_index.core.instrumentation.span import active_span_id

from llama_index_unified_search.events import from_search_event
from unified_search.contract import EventSink, SearchEvent

dispatcher = get_dispatcher(__name__)
T = TypeVar("T")


class EventForwarder:
    """A core event sink that dispatches each event into LlamaIndex instrumentation.

    The caller's span and ``instrument_tags`` are captured when the forwarder
    is made: sync searches run on a background loop, where neither is visible.

    Example:
        Not run here: ``searcher`` and ``request`` are the caller's.

        >>> forward = EventForwarder.capture()
        >>> await searcher.asearch(request, sinks=[forward])  # doctest: +SKIP
    """

    def __init__(self, span_id: str | None, tags: dict[str, Any] | None = None) -> None:
        self.span_id = span_id
        self.tags = dict(tags or {})

    @classmethod
    def capture(cls) -> EventForwarder:
        """Make a forwarder bound to the current span and instrument tags."""
        return cls(active_span_id.get(), active_instrument_tags.get())

    def __call__(self, event: SearchEvent) -> None:
        """Dispatch ``event`` to every LlamaIndex event handler."""
        dispatcher.event(from_search_event(event, self.span_id, self.tags))


@dispatcher.span
async def asearch(search: Callable[[list[EventSink]], Awaitable[T]]) -> T:
    """Await ``search(sinks)`` in a span, its events forwarded into the span."""
    return await search([EventForwarder.capture()])


@dispatcher.span
def search(search: Callable[[list[EventSink]], T]) -> T:
    """Sync twin of ``asearch``: the span opens in the caller's thread and context."""
    return search([EventForwarder.capture()])
