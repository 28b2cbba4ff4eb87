"""What every search tool shares: the call, the cited text for the model, and error handling.

A tool answers with ``(content, artifact)``: numbered, cited text the model
reads and the ``Reference`` list for the application. A failed search raises
``SearchToolException`` carrying the core's error code; with
``handle_tool_error`` on, LangChain turns it into an error ``ToolMessage``.
Invalid arguments become an error message naming each bad field.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from langchain_core.callbacks import AsyncCallbackManagerForToolRun, CallbackManagerForToolRun
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool, ToolException
from pydantic import ConfigDict, ValidationError

from langchain_unified_search._binding import SearcherBinding, run_ids
from langchain_unified_search.events import acustom_event_sink, custom_event_sink
from unified_search._sync import run_sync
from unified_search.citations import citation_example
from unified_search.config import CitationConfig
from unified_search.errors import ErrorCode, ErrorInfo
from unified_search.events import EventSink
from unified_search.response import SearchResponse
from unified_search.types import Reference, SearchRequest, Source

ToolOutput = tuple[str, list[Reference]]


@dataclass(frozen=True)
class ToolCall:
    """How one tool call reaches the Searcher: its event sinks and its request context.

    Example:
        >>> ToolCall(request_id="turn-1").chat_id is None
        True
    """

    sinks: Sequence[EventSink] = ()
    request_id: str | None = None
    """Citation IDs stay unique within it across the tool calls of one request."""
    chat_id: str | None = None


def tool_call(config: RunnableConfig | None, sinks: Sequence[EventSink]) -> ToolCall:
    """Read the request context from the run's ``configurable`` values (see ``run_ids``)."""
    return ToolCall(sinks, **run_ids((config or {}).get("configurable", {})))


class SearchToolException(ToolException):
    """A tool's search failed; ``code`` is the core's error code (``RATE_LIMITED`` ...).

    Example:
        >>> str(SearchToolException(ErrorInfo(code="TIMEOUT", message="no answer")))
        'Search failed (TIMEOUT): no answer'
    """

    def __init__(self, error: ErrorInfo) -> None:
        self.code = ErrorCode(error.code)
        self.provider = error.provider
        where = f" [{error.provider}]" if error.provider else ""
        super().__init__(f"Search failed ({self.code.value}{where}): {error.message}")


def describe_validation_error(error: ValidationError | Any) -> str:
    """Name every invalid argument and why, so the model can correct its call."""
    problems = [f"{_field(part['loc'])}: {part['msg']}" for part in error.errors()]
    return "Invalid tool arguments. " + "; ".join(problems)


def _field(location: Iterable[Any]) -> str:
    return ".".join(str(part) for part in location) or "input"


class SearchTool(SearcherBinding, BaseTool):
    """Base of the search tools: sync and async share one async body run by the Searcher.

    Subclasses set ``name``, ``description`` and ``args_schema`` and implement
    ``_asearch``.

    Example:
        >>> tool = WebSearchTool(config={"web": {"providers": ["tavily"]}})  # doctest: +SKIP
        >>> tool.invoke({"name": "web_search", "args": {"query": "x"}, "id": "1", "type": "tool_call"})  # doctest: +SKIP
    """

    model_config = ConfigDict(extra="forbid", arbitrary_types_allowed=True)

    response_format: Literal["content", "content_and_artifact"] = "content_and_artifact"
    handle_tool_error: Any = True
    handle_validation_error: Any = describe_validation_error
    source: Source = Source.USER
    """Who is asking; tools act for the user, so their results weigh as user searches."""

    async def _asearch(self, args: dict[str, Any], call: ToolCall) -> SearchResponse:
        raise NotImplementedError

    def _run(
        self,
        *,
        config: RunnableConfig,
        run_manager: CallbackManagerForToolRun | None = None,
        **args: Any,
    ) -> ToolOutput:
        call = tool_call(config, custom_event_sink(run_manager))
        response = run_sync(self._asearch(args, call))
        return tool_output(response, self.engine.config.citation)

    async def _arun(
        self,
        *,
        config: RunnableConfig,
        run_manager: AsyncCallbackManagerForToolRun | None = None,
        **args: Any,
    ) -> ToolOutput:
        response = await self._asearch(args, tool_call(config, acustom_event_sink(run_manager)))
        return tool_output(response, self.engine.config.citation)

    async def _search(self, request: SearchRequest, call: ToolCall) -> SearchResponse:
        """Run one request through the Searcher, keeping at most its ``limit`` results."""
        return await self.engine.asearch(
            request,
            top_n=request.limit,
            sinks=call.sinks,
            request_id=call.request_id,
            chat_id=call.chat_id,
        )


def tool_output(response: SearchResponse, citation: CitationConfig) -> ToolOutput:
    """Return the model's text and the references, or raise when the search failed."""
    if response.status == "failed":
        raise SearchToolException(response.errors[0])
    query = response.requests[0].query
    return format_results(query, response.references, response.errors, citation), list(
        response.references
    )


def format_results(
    query: str,
    references: Sequence[Reference],
    errors: Sequence[ErrorInfo],
    citation: CitationConfig,
) -> str:
    """Write numbered results with their citation, as the model should cite them."""
    if not references:
        return f"No results found for {query!r}." + _failure_note(errors)
    header = (
        f"Found {len(references)} result(s) for {query!r}. "
        f"Cite a result right after the statement it supports, as {citation_example(citation)}."
    )
    blocks = [_result_block(ref, citation) for ref in references]
    return "\n\n".join([header + _failure_note(errors), *blocks])


def _result_block(ref: Reference, citation: CitationConfig) -> str:
    lines = [f"[{ref.index}] {ref.title or '(untitled)'} {citation_example(citation, ref.id)}"]
    if ref.url:
        lines.append(f"URL: {ref.url}")
    if ref.content:
        lines.append(ref.content)
    return "\n".join(lines)


def _failure_note(errors: Sequence[ErrorInfo]) -> str:
    if not errors:
        return ""
    names = ", ".join(f"{e.provider or 'a source'} ({e.code})" for e in errors)
    return f" Some sources failed: {names}."
