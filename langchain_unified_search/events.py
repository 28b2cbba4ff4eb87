"""Forward the core's search events to LangChain callbacks and LangGraph's custom stream.

Each ``SearchEvent`` becomes a custom event of the same name (``search_start``,
``search_item_complete``, ``search_progress`` ...) whose data is the event as
JSON, so ``astream_events(version="v2")`` and any callback handler see live
search progress. Events are dispatched to the child callbacks of the current
run explicitly: the sync Searcher runs on its own thread, where LangChain could
not find the parent run from context. Inside a LangGraph run the same JSON is
also written to the graph's stream writer, so ``stream_mode="custom"`` shows it.
"""

from __future__ import annotations

from collections.abc import Callable
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

from unified_search.contract import EventName, EventSink, SearchEvent

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
    """Return the sinks of a sync run: its callbacks and the LangGraph stream it runs in."""
    sinks = stream_sink()
    if run_manager is None:
        return sinks
    child = run_manager.get_child()

    def sink(event: SearchEvent) -> None:
        dispatch_custom_event(event.name.value, event_data(event), config={"callbacks": child})

    return [sink, *sinks]


def acustom_event_sink(run_manager: AsyncRunManager | None) -> list[EventSink]:
    """Return the sinks of an async run: its callbacks and the LangGraph stream it runs in."""
    sinks = stream_sink()
    if run_manager is None:
        return sinks
    child = run_manager.get_child()

    async def sink(event: SearchEvent) -> None:
        await adispatch_custom_event(
            event.name.value, event_data(event), config={"callbacks": child}
        )

    return [sink, *sinks]


def stream_sink() -> list[EventSink]:
    """A sink writing to the enclosing LangGraph run's custom stream (none outside one).

    Read in the caller's context: the sync Searcher's thread cannot see the run.
    """
    writer = _stream_writer()
    if writer is None:
        return []

    def sink(event: SearchEvent) -> None:
        writer(event_data(event))

    return [sink]


def _stream_writer() -> Callable[[Any], None] | None:
    try:  # LangGraph is optional: without it there is no custom stream to write to
        from langgraph.config import get_stream_writer
    except ImportError:
        return None
    try:
        writer: Callable[[Any], None] = get_stream_writer()
    except (RuntimeError, KeyError):  # not inside a LangGraph run
        return None
    return writer
