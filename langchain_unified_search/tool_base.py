"""What every search tool shares: the call through the session and error handling.

A tool answers with ``(content, artifact)``: the text the model reads (how to
cite, what failed, the escaped ``<references>`` block, written by the core) and
the ``Reference`` list for the application. A failed search raises
``SearchToolException`` carrying the core's error code; with
``handle_tool_error`` on, LangChain turns it into an error ``ToolMessage``.
Invalid arguments become an error message naming each bad field.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Literal

from langchain_core.callbacks import AsyncCallbackManagerForToolRun, CallbackManagerForToolRun
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool, ToolException
from pydantic import ConfigDict, ValidationError, model_validator

from langchain_unified_search.binding import SessionBinding, run_ids
from langchain_unified_search.events import acustom_event_sink, custom_event_sink
from unified_search import ErrorCode, ErrorInfo, Reference, SearchError, run_sync
from unified_search.contract import EventSink
from unified_search.policy import TOOLS, QueryMode, ToolLimits, ToolName

ToolOutput = tuple[str, list[Reference]]


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


class SearchTool(SessionBinding, BaseTool):
    """Base of the search tools: name, description and arguments come from the core's ``TOOLS``.

    Subclasses set ``tool``. ``limits`` restrict what the model may search.

    Example:
        Not run here: it calls the Tavily API.

        >>> tool = WebSearchTool(config={"web": {"providers": ["tavily"]}})  # doctest: +SKIP
        >>> tool.invoke({"name": "web_search", "args": {"query": "x"}, "id": "1", "type": "tool_call"})  # doctest: +SKIP
    """

    model_config = ConfigDict(extra="forbid", arbitrary_types_allowed=True)

    tool: ToolName
    """Which core tool this is."""
    limits: ToolLimits | None = None
    """What the model may search at most (domains, time range, result count, collections ...)."""
    mode: QueryMode | None = None
    """``fast``, ``deep`` or ``answer`` (see ``unified_search.policy.modes``); ``None``: as typed."""
    response_format: Literal["content", "content_and_artifact"] = "content_and_artifact"
    handle_tool_error: Any = True
    handle_validation_error: Any = describe_validation_error

    @model_validator(mode="before")
    @classmethod
    def _from_spec(cls, values: Any) -> Any:
        if not isinstance(values, dict):
            return values
        spec = TOOLS[values.get("tool") or cls.model_fields["tool"].get_default()]
        defaults = {"name": spec.name, "description": spec.description, "args_schema": spec.args}
        return {**defaults, **values}

    def _run(
        self,
        *,
        config: RunnableConfig,
        run_manager: CallbackManagerForToolRun | None = None,
        **args: Any,
    ) -> ToolOutput:
        sinks = custom_event_sink(run_manager)
        return run_sync(self._acall(args, config, sinks))

    async def _arun(
        self,
        *,
        config: RunnableConfig,
        run_manager: AsyncCallbackManagerForToolRun | None = None,
        **args: Any,
    ) -> ToolOutput:
        return await self._acall(args, config, acustom_event_sink(run_manager))

    async def _acall(
        self, args: dict[str, Any], config: RunnableConfig, sinks: Sequence[EventSink]
    ) -> ToolOutput:
        try:
            answer = await self.bound.acall_tool(
                self.tool,
                args,
                limits=self.limits,
                mode=self.mode,
                run=run_ids(config),
                sinks=sinks,
            )
        except SearchError as exc:
            raise SearchToolException(exc.info()) from exc
        return answer.text, list(answer.response.references)
