"""``AutoSearch``: search the last user message before the model call and inject references.

This is the "include context" path. The input is a conversation (a string, a
list of messages, a prompt value, or a state mapping with ``messages``); the
output is a state mapping whose ``messages`` carry one more system message
(the citation instruction and the ``<references>`` block) and whose ``context``
is the ``ReferenceContext`` to resolve the answer's citations against.

It searches as an ``auto`` source, so the Searcher itself skips when
``uses.search`` is ``disabled`` or when the user's own documents (the
``documents`` key, counted as ``provided_references``) reach
``options.skip_threshold``. It does not search again when an earlier step
already did: the messages already hold the references injected for this
question, or the state says ``searched: True`` or carries a ``context`` with
references (injected as is). In a state that outlives a turn (a LangGraph
checkpointer) its own ``searched`` and ``context`` count for the question they
were made for only, so every new question is searched. The user's documents are
cited in the search's scope, so no later search of a conversation reuses their IDs.

A search outage never blocks the turn: when every source fails, the state goes
on without references, its ``response`` carries the errors, and the failure is
in the events and the record; when some fail, the others' references are
injected. ``strict=True`` raises instead (on any failed source), for a chain
that handles it with ``.with_fallbacks``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from operator import itemgetter
from typing import Any

from langchain_core.callbacks.manager import (
    AsyncCallbackManagerForChainRun,
    CallbackManagerForChainRun,
)
from langchain_core.documents import Document
from langchain_core.language_models import LanguageModelLike
from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage, convert_to_messages
from langchain_core.prompt_values import PromptValue
from langchain_core.runnables import (
    Runnable,
    RunnableConfig,
    RunnablePassthrough,
    RunnableSerializable,
)
from pydantic import ConfigDict

from langchain_unified_search.binding import SessionBinding
from langchain_unified_search.documents import document_to_item
from langchain_unified_search.events import acustom_event_sink, custom_event_sink
from langchain_unified_search.prompts import reference_context, references_system_text
from unified_search import ReferenceContext, ResultItem, SearchResponse, Source
from unified_search.config import CitationConfig
from unified_search.policy import RunIds, SearchOptions

#: ID prefix of the injected system message; its presence means the search already ran.
MARKER = "unified-search-references"

State = dict[str, Any]


@dataclass(frozen=True)
class _Plan:
    """What one invocation works with; ``search`` is false when it must not search."""

    state: State
    query: str | None
    documents: Sequence[Document]
    citation: CitationConfig
    search: bool

    @property
    def marker(self) -> str:
        """ID of the references message injected for this question."""
        digest = hashlib.sha256((self.query or "").encode()).hexdigest()[:16]
        return f"{MARKER}:{digest}"


class AutoSearch(SessionBinding, SearchOptions, RunnableSerializable[Any, State]):
    """Search the conversation's last user message and inject cited references.

    Example:
        Not run here: it needs an indexed collection and a chat model.

        >>> auto = AutoSearch(config={"kb": {"collections": ["handbook"]}}, types=["kb"])  # doctest: +SKIP
        >>> chain = auto.with_model(chat_model) | CitationOutputParser()  # doctest: +SKIP
        >>> chain.invoke("What is our refund policy?").references  # doctest: +SKIP
    """

    model_config = ConfigDict(extra="forbid", arbitrary_types_allowed=True, frozen=False)

    source: Source = Source.AUTO
    degrade: bool = True
    """Go on without references when every source fails (``strict=True`` raises instead)."""

    def invoke(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> State:
        """Search (unless told not to) and return the state with references injected."""
        return self._call_with_config(self._search, input, config, run_type="chain")

    async def ainvoke(
        self, input: Any, config: RunnableConfig | None = None, **kwargs: Any
    ) -> State:
        """Async twin of ``invoke``, searching natively async."""
        return await self._acall_with_config(self._asearch, input, config, run_type="chain")

    def with_model(self, model: LanguageModelLike) -> Runnable[Any, State]:
        """Chain the model after the search: the state gains the model's ``answer``."""
        return self | RunnablePassthrough.assign(answer=itemgetter("messages") | model)

    def _search(
        self, input: Any, run_manager: CallbackManagerForChainRun, config: RunnableConfig
    ) -> State:
        plan = self._plan(input)
        if not plan.search or plan.query is None:
            return _finish(plan, None)
        response = self.bound.search(
            plan.query,
            self._options(plan),
            run=_run_ids(plan, config),
            sinks=custom_event_sink(run_manager),
        )
        return _finish(plan, response, self.bound.cite(_user_items(plan), response.request_id))

    async def _asearch(
        self, input: Any, run_manager: AsyncCallbackManagerForChainRun, config: RunnableConfig
    ) -> State:
        plan = self._plan(input)
        if not plan.search or plan.query is None:
            return _finish(plan, None)
        response = await self.bound.asearch(
            plan.query,
            self._options(plan),
            run=_run_ids(plan, config),
            sinks=acustom_event_sink(run_manager),
        )
        user = await self.bound.acite(_user_items(plan), response.request_id)
        return _finish(plan, response, user)

    def _plan(self, input: Any) -> _Plan:
        state = as_state(input)
        documents = list(state.get("documents") or [])
        plan = _Plan(
            state,
            last_user_text(state["messages"]),
            documents,
            self.engine.config.citation,
            search=True,
        )
        return replace(plan, search=not _already_searched(plan))

    def _options(self, plan: _Plan) -> SearchOptions:
        return self.merged({"provided_references": len(plan.documents)})


def _run_ids(plan: _Plan, config: RunnableConfig) -> RunIds:
    """The run identifiers of the run's ``configurable``, or of the state itself."""
    return RunIds.from_values({**config.get("configurable", {}), **plan.state})


def as_state(value: Any) -> State:
    """Accept a string, messages, a prompt value or a state mapping; return a state."""
    if isinstance(value, Mapping):
        state = dict(value)
        state["messages"] = convert_to_messages(state.get("messages") or [])
        return state
    if isinstance(value, str):
        return {"messages": [HumanMessage(value)]}
    if isinstance(value, PromptValue):
        return {"messages": value.to_messages()}
    return {"messages": convert_to_messages(value)}


def last_user_text(messages: Sequence[BaseMessage]) -> str | None:
    """The text of the last user message, or ``None`` when there is none with text."""
    for message in reversed(messages):
        if isinstance(message, HumanMessage):
            return message.text.strip() or None
    return None


def _already_searched(plan: _Plan) -> bool:
    state = plan.state
    if any(message.id == plan.marker for message in state["messages"]):
        return True
    earlier = state.get("response")
    if isinstance(earlier, SearchResponse):
        # The flags below are this runnable's own, from the search of an earlier question
        # when the state outlives a turn (a LangGraph checkpointer): only that question counts.
        return earlier.requests[0].query == plan.query
    if state.get("searched"):
        return True
    context = state.get("context")
    return isinstance(context, ReferenceContext) and bool(context.references)


def _finish(plan: _Plan, response: SearchResponse | None, user: Sequence[ResultItem] = ()) -> State:
    context = _context(plan, response, user)
    messages = plan.state["messages"]
    if context.references and not any(m.id == plan.marker for m in messages):
        messages = inject(messages, context, plan.marker)
    update = {"messages": messages, "context": context, "searched": True, "response": response}
    return {**plan.state, **update}


def _context(
    plan: _Plan, response: SearchResponse | None, user: Sequence[ResultItem]
) -> ReferenceContext:
    """The user's documents first, then what the search found, cited in the search's scope."""
    if response is None:
        given = plan.state.get("context")
        if isinstance(given, ReferenceContext):
            return given
        return reference_context(plan.documents, plan.citation)
    if not user:
        return response.context
    return reference_context([*user, *response.items], plan.citation)


def _user_items(plan: _Plan) -> list[ResultItem]:
    return [
        document_to_item(doc).model_copy(update={"source": Source.USER, "citation_id": None})
        for doc in plan.documents
    ]


def inject(
    messages: Sequence[BaseMessage], context: ReferenceContext, marker: str = MARKER
) -> list[BaseMessage]:
    """Insert the references system message after the leading system messages."""
    position = 0
    while position < len(messages) and isinstance(messages[position], SystemMessage):
        position += 1
    note = SystemMessage(references_system_text(context), id=marker)
    return [*messages[:position], note, *messages[position:]]
