"""Forward the core's search events as LangChain custom events.

Each ``SearchEvent`` becomes a custom event of the same name (``search_start``,
``search_item_complete``, ``search_progress`` ...) whose data is the event as
JSON, so ``astream_events(version="v2")`` and any callback handler see live
search progress. Events are dispatched to the child callbacks of the current
run explicitly: the sync Searcher runs on its own thread, where LangChain could
not find the parent run from context.
"""

from __future__ import annotations

from typing import Any

from langchain_core.callbacks import (
    AsyncCallbackManagerForRetrieverRun,
    AsyncCallbackManagerForToolRun,
    CallbackManagerForRetrieverRun,
    CallbackManagerForToolRun,
    adispatch_custom_event,
    dispatch_custom_event,
)
from langchain_core.callbacks.manager import (
    AsyncCallbackManagerForChainRun,
    CallbackManagerForChainRun,
)

from unified_search.events import EventName, EventSink, SearchEvent

RunManager = CallbackManagerForRetrieverRun | CallbackManagerForToolRun | CallbackManagerForChainRun
AsyncRunManager = (
    AsyncCallbackManagerForRetrieverRun
    | AsyncCallbackManagerForToolRun
    | AsyncCallbackManagerForChainRun
)

#: Names of every custom event this package dispatches, in the order they can happen.
EVENT_NAMES = tuple(name.value for name in EventName)


def event_data(event: SearchEvent) -> dict[str, Any]:
    """Return the JSON form of ``event`` carried as the custom event's data."""
    return event.model_dump(mode="json")


def custom_event_sink(run_manager: RunManager | None) -> list[EventSink]:
    """Return the sinks that dispatch events to the children of a sync run (none without a run)."""
    if run_manager is None:
        return []
    child = run_manager.get_child()

    def sink(event: SearchEvent) -> None:
        dispatch_custom_event(event.name.value, event_data(event), config={"callbacks": child})

    return [sink]


def acustom_event_sink(run_manager: AsyncRunManager | None) -> list[EventSink]:
    """Return the sinks that dispatch events to the children of an async run (none without a run)."""
    if run_manager is None:
        return []
    child = run_manager.get_child()

    async def sink(event: SearchEvent) -> None:
        await adispatch_custom_event(
            event.name.value, event_data(event), config={"callbacks": child}
        )

    return [sink]
