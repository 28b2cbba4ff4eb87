"""``UnifiedSearchToolSpec``: the core's search tools for LlamaIndex agents.

Names, descriptions, arguments and limits are the core's (``unified_search.policy.tools``),
the same as the LangChain tools.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from llama_index.core.tools import FunctionTool
from llama_index.core.tools.tool_spec.base import SPEC_FUNCTION_TYPE, BaseToolSpec

from llama_index_unified_search.instrumentation import asearch
from llama_index_unified_search.retriever import resolve_session
from unified_search import Searcher, run_sync
from unified_search.config import ConfigLike
from unified_search.policy import (
    TOOLS,
    QueryMode,
    RunIds,
    SearchSession,
    ToolAnswer,
    ToolLimits,
    ToolSpec,
    tool_specs,
)


class UnifiedSearchToolSpec(BaseToolSpec):
    """Search tools for LlamaIndex agents, answering with a cited ``<references>`` block.

    Every call of one tool spec shares one citation scope (its session's, or the
    ``request_id`` / ``thread_id`` / ``chat_id`` given), so ``ref_NNN`` IDs never
    repeat across the calls of a conversation. ``limits`` restrict what the
    model may search. A failure raises ``SearchError``; LlamaIndex agents turn it
    into a tool error whose text starts with the error code, such as ``NO_API_KEY``.
    A tool's raw output is a ``ToolAnswer`` whose ``response`` holds the references.

    Example:
        Not run here: it needs a ``search.yml`` and an LLM.

        >>> from llama_index.core.agent.workflow import FunctionAgent  # doctest: +SKIP
        >>> tools = UnifiedSearchToolSpec(config="search.yml").to_tool_list()  # doctest: +SKIP
        >>> agent = FunctionAgent(tools=tools, llm=llm)  # doctest: +SKIP
    """

    spec_functions: list[SPEC_FUNCTION_TYPE] = list(TOOLS)  # noqa: RUF012 (BaseToolSpec's own declaration)

    def __init__(
        self,
        searcher: Searcher | None = None,
        *,
        config: ConfigLike = None,
        session: SearchSession | None = None,
        limits: ToolLimits | None = None,
        mode: QueryMode | str | None = None,
        request_id: str | None = None,
        thread_id: str | None = None,
        chat_id: str | None = None,
    ) -> None:
        """Use a session (or a Searcher, or a configuration) for every tool call.

        Args:
            searcher: the engine to use.
            config: or a configuration to build one from.
            session: or a session shared with retrievers (one citation scope for all).
            limits: what the model may search at most.
            mode: ``fast``, ``deep`` or ``answer`` for every search tool (``None``: as typed).
            request_id: the citation scope to continue; the session's by default.
            thread_id: or the conversation thread as the scope.
            chat_id: the conversation the searches belong to.
        """
        self._session = resolve_session(session, searcher, config)
        self._limits = limits or ToolLimits()
        self._mode = QueryMode.from_str(mode) if isinstance(mode, str) else mode
        self._run = RunIds(request_id=request_id, thread_id=thread_id, chat_id=chat_id)

    @property
    def session(self) -> SearchSession:
        """The session (and so the citation scope) every tool call searches in."""
        return self._session

    def to_tool_list(
        self,
        spec_functions: list[SPEC_FUNCTION_TYPE] | None = None,
        func_to_metadata_mapping: dict[str, Any] | None = None,
    ) -> list[FunctionTool]:
        """One ``FunctionTool`` per tool the limits allow (or per name in ``spec_functions``)."""
        wanted = {str(name) for name in spec_functions or self.spec_functions}
        return [self._tool(spec) for spec in tool_specs(self._limits) if spec.name in wanted]

    async def acall(self, name: str, arguments: Mapping[str, Any]) -> ToolAnswer:
        """Run the tool ``name`` with ``arguments`` in this spec's scope and limits."""
        answer: ToolAnswer = await asearch(
            lambda sinks: self._session.acall_tool(
                name, arguments, limits=self._limits, mode=self._mode, run=self._run, sinks=sinks
            )
        )
        return answer

    def call(self, name: str, arguments: Mapping[str, Any]) -> ToolAnswer:
        """Sync twin of ``acall``."""
        return run_sync(self.acall(name, arguments))

    def _tool(self, spec: ToolSpec) -> FunctionTool:
        def run(**arguments: Any) -> ToolAnswer:
            return self.call(spec.name, arguments)

        async def arun(**arguments: Any) -> ToolAnswer:
            return await self.acall(spec.name, arguments)

        return FunctionTool.from_defaults(
            fn=run,
            async_fn=arun,
            name=spec.name,
            description=spec.description,
            fn_schema=spec.args,
        )
