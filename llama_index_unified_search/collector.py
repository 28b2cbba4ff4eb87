"""An event handler that gathers the trace trees and progress text of searches."""

from __future__ import annotations

import threading
from typing import Any

from llama_index.core.instrumentation.event_handlers import BaseEventHandler
from llama_index.core.instrumentation.events import BaseEvent
from pydantic import PrivateAttr

from llama_index_unified_search.events import UnifiedSearchEvent
from unified_search import Reference
from unified_search.contract import EventName, TraceNode


class SearchTraceCollector(BaseEventHandler):
    """Collect every unified-search event; other LlamaIndex events are ignored.

    Events may arrive from the background loop of sync searches, so the
    collector is thread-safe.

    Example:
        Not run here: ``retriever`` stands for a configured retriever.

        >>> from llama_index.core.instrumentation import get_dispatcher
        >>> collector = SearchTraceCollector()
        >>> get_dispatcher().add_event_handler(collector)
        >>> retriever.retrieve("solar panels")  # doctest: +SKIP
        >>> collector.progress()  # doctest: +SKIP
        ['Searching...', 'Found 3 references']
    """

    _events: list[UnifiedSearchEvent] = PrivateAttr(default_factory=list)
    _lock: threading.Lock = PrivateAttr(default_factory=threading.Lock)

    @classmethod
    def class_name(cls) -> str:
        """Return the name LlamaIndex serialisation records."""
        return "SearchTraceCollector"

    def handle(self, event: BaseEvent, **kwargs: Any) -> None:
        """Keep ``event`` if it is a unified-search event."""
        if isinstance(event, UnifiedSearchEvent):
            with self._lock:
                self._events.append(event)

    def events(self, search_id: str | None = None) -> list[UnifiedSearchEvent]:
        """Return the collected events in arrival order, optionally of one search only."""
        with self._lock:
            events = list(self._events)
        return [e for e in events if search_id is None or e.search_id == search_id]

    def search_ids(self) -> list[str]:
        """Return the searches seen, in the order they started."""
        return list(dict.fromkeys(e.search_id for e in self.events() if e.search_id is not None))

    def request_ids(self) -> list[str]:
        """Return the citation scopes seen, in the order they first appeared."""
        return list(dict.fromkeys(event.request_id for event in self.events()))

    def progress(self, search_id: str | None = None) -> list[str]:
        """Return the progress message as it was replaced (the final one once, though sent twice)."""
        shown: list[str] = []
        for event in self.events(search_id):
            text = event.message if event.name is EventName.SEARCH_PROGRESS else None
            if text is not None and shown[-1:] != [text]:
                shown.append(text)
        return shown

    def done(self, search_id: str) -> bool:
        """Whether the search's last progress message (marked ``done``) has arrived."""
        return any(e.done for e in self.events(search_id) if e.name is EventName.SEARCH_PROGRESS)

    def results(self, search_id: str) -> list[Reference]:
        """Return the references the search announced, in final order."""
        return [e.reference for e in self.events(search_id) if e.reference is not None]

    def trace(self, search_id: str) -> list[TraceNode]:
        """Return the latest state of each node of one search: the root, its requests, the steps."""
        latest: dict[str, TraceNode] = {}
        for event in self.events(search_id):
            if event.node is not None:
                latest[event.node.id] = event.node
        order = {"search": 0, "search_item": 1, "search_step": 2}
        return sorted(latest.values(), key=lambda node: order[node.kind])

    def clear(self) -> None:
        """Forget every collected event."""
        with self._lock:
            self._events.clear()
