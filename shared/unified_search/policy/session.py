"""Search policy: the one place that turns a question into searches and answers or raises.

A ``SearchSession`` is what the LangChain and LlamaIndex adapters and the HTTP
API call. It turns a query, a ``SearchOptions`` (which sources, how many
results, who asks) and the caller's ``RunIds`` into requests; runs them on the
``Searcher``; applies the failure policy; and gives citation IDs within the
citation scope.

Citation scope, first that applies: the caller's ``request_id``, ``thread_id``
or ``chat_id``; otherwise the session's own scope, shared by everything built
on one session (the tools of ``search_tools()``, a LlamaIndex tool spec, a
retriever); otherwise a new one for the call. IDs are unique within a scope and
never reused; with a record store they are persisted (see
``unified_search.citations.numbering``). Searches are stored under the caller's chat (else
thread, else the scope itself), which the response carries: whoever searched can
read the references back by chat and request (``RunIds.address``).

Failure policy, the same everywhere: when every source fails the call raises
the first ``SearchError``; when some fail, the others' results come back and
the failures are in ``SearchResponse.errors`` and in the events; ``strict=True``
raises on any failure. ``degrade=True`` (automatic search before a model call)
never raises for failed sources: the response, perhaps without references,
carries the errors, which are also in the events and the record.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, TypedDict, Unpack

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, field_validator, model_validator

from unified_search._sync import sync_twin
from unified_search.contract.events import EventSink
from unified_search.contract.response import SearchResponse
from unified_search.engine.attachments import DataSource
from unified_search.engine.parallel import Mode
from unified_search.engine.searcher import Searcher
from unified_search.errors import ErrorCode, SearchError
from unified_search.policy.modes import QueryMode, answer_guidance, arun_mode, auto_mode
from unified_search.policy.sources import default_types
from unified_search.policy.tools import TOOLS, ToolLimits, ToolName, tool_text
from unified_search.types import JSON, ResultItem, SearchRequest, SearchType, Source

#: The SearchRequest fields ``SearchOptions.request_fields`` may set.
REQUEST_FIELDS = frozenset(SearchRequest.model_fields) - {"query", "type", "source"}


def _printable(value: str) -> str:
    if any(unicodedata.category(char).startswith("C") for char in value):
        raise ValueError("must not contain control characters")
    return value


RunId = Annotated[str, Field(min_length=1, max_length=255), AfterValidator(_printable)]


class RunIds(BaseModel):
    """The caller's identifiers of a run; the first one given is the citation scope.

    The searches are stored under the ``chat_id``, else the ``thread_id`` (a LangGraph
    thread is a conversation), so the HTTP click-through finds them.

    Example:
        >>> RunIds.from_values({"thread_id": 7, "recursion_limit": 25}).scope
        '7'
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    request_id: RunId | None = None
    thread_id: RunId | None = None
    chat_id: RunId | None = None

    @classmethod
    def from_values(cls, values: Mapping[str, Any] | None) -> RunIds:
        """Read the identifiers from run values (LangChain ``configurable``); ignore other keys."""
        picked = {
            name: value if isinstance(value, str) else str(value)
            for name in cls.model_fields
            if (value := (values or {}).get(name)) is not None and value != ""
        }
        return cls.model_validate(picked)

    @property
    def scope(self) -> str | None:
        """The citation scope the caller chose, if any."""
        return self.request_id or self.thread_id or self.chat_id

    @property
    def conversation(self) -> str | None:
        """The conversation the searches are stored under: the chat, else the thread."""
        return self.chat_id or self.thread_id

    def address(self, new_scope: Callable[[], str]) -> tuple[str, str]:
        """The citation scope and the conversation of a call, the same rule everywhere.

        What the caller gave comes first; a call without a scope gets ``new_scope()``,
        and one without a conversation is stored under its scope as the chat, so
        whoever got the answer can read its references back by (chat, request).

        Example:
            >>> RunIds().address(lambda: "s1"), RunIds(chat_id="c1").address(lambda: "s1")
            (('s1', 's1'), ('c1', 'c1'))
        """
        scope = self.scope or new_scope()
        return scope, self.conversation or scope


class SearchOptions(BaseModel):
    """What a search covers and how it answers; per-call values go through ``merged``.

    Example:
        >>> SearchOptions(types=["kb"], k=3).merged({"k": 5}).k
        5
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    types: list[SearchType] | None = Field(default=None, min_length=1)
    """Sources to search in parallel, one request each; ``None``: every configured one."""
    collections: list[str] = Field(default_factory=list)
    """Knowledge-base collections; empty means the configured ones."""
    models: list[str] = Field(default_factory=list)
    """Database tables or views; empty means the configured ones."""
    mode: QueryMode | None = None
    """``fast``, ``deep`` or ``answer`` (see ``unified_search.policy.modes``); ``None`` searches each
    source once with the query as typed. ``all``/``any``/``race`` are read as ``parallel``."""
    parallel: Mode = Mode.ALL
    """``all`` waits for every source, ``any`` for the first with results, ``race`` for the first."""
    k: int | None = Field(default=None, ge=1, le=1000)
    """Results to return; ``None`` uses ``rerank.top_n``."""
    source: Source = Source.USER
    """Who is asking; it sets the weight of what is found (user 1.0, hook 0.8, auto 0.6)."""
    strict: bool = False
    """Raise on any failed source, not only when every source failed."""
    degrade: bool = False
    """Answer even when every source failed (the response's ``errors`` say why) instead of
    raising; ``strict`` still raises."""
    request_fields: JSON = Field(default_factory=dict)
    """Further ``SearchRequest`` fields for every request (``sites``, ``time_range``, ``threshold`` ...)."""
    requests: list[JSON] | None = None
    """Or the requests themselves, as ``SearchRequest`` fields without the query (not with ``types``)."""
    user: JSON | None = None
    """Caller context, such as a tenant ID for database permission filters."""
    overrides: JSON | None = None
    """Configuration keys applied over the Searcher's for these searches."""
    provided_references: int = Field(default=0, ge=0)
    """References the user attached themselves (counts toward ``options.skip_threshold``)."""
    attachments: list[DataSource] = Field(default_factory=list)
    """Rows, documents and MCP resources the user attached: each cited as a reference of its own
    (``unified_search.engine.attachments``) and counted toward ``options.skip_threshold``."""

    @model_validator(mode="before")
    @classmethod
    def _fan_out_given_as_mode(cls, data: Any) -> Any:
        """Accept ``mode="any"`` (and ``all``, ``race``), the earlier spelling of ``parallel``."""
        if isinstance(data, Mapping) and str(data.get("mode")) in set(Mode):
            return {**data, "parallel": data["mode"], "mode": None}
        return data

    @field_validator("mode", mode="before")
    @classmethod
    def _known_mode(cls, value: Any) -> Any:
        if value is None or isinstance(value, QueryMode):
            return value
        try:
            return QueryMode.from_str(str(value))
        except ValueError:
            fan_out = ", ".join(m.value for m in Mode)
            raise ValueError(
                f"unknown mode {value!r}; valid: {', '.join(m.value for m in QueryMode)} "
                f"(or {fan_out}, which set parallel)"
            ) from None

    @model_validator(mode="after")
    def _consistent(self) -> SearchOptions:
        unknown = sorted(set(self.request_fields) - REQUEST_FIELDS)
        if unknown:
            raise ValueError(
                f"request_fields: unknown field(s) {unknown}; valid: {', '.join(sorted(REQUEST_FIELDS))}"
            )
        if self.requests is not None:
            if self.types is not None:
                raise ValueError("give either types or requests, not both")
            if not self.requests or any("query" in r for r in self.requests):
                raise ValueError("requests must hold at least one request, none with a query")
        self.build("validation", [SearchType.WEB])  # fail now, naming the field
        return self

    def merged(self, values: Mapping[str, Any]) -> SearchOptions:
        """Return these options with per-call ``values`` applied; unknown names are a TypeError."""
        unknown = sorted(set(values) - set(SearchOptions.model_fields))
        if unknown:
            valid = ", ".join(SearchOptions.model_fields)
            raise TypeError(f"unexpected argument(s) {unknown}; valid: {valid}")
        current = {name: getattr(self, name) for name in SearchOptions.model_fields}
        return SearchOptions.model_validate({**current, **values})

    def build(self, query: str, configured: list[SearchType]) -> list[SearchRequest]:
        """Turn ``query`` into one request per source (or per template)."""
        templates = self.requests or [{"type": t} for t in dict.fromkeys(self.types or configured)]
        return [self._request(query, template) for template in templates]

    def _request(self, query: str, template: Mapping[str, Any]) -> SearchRequest:
        kind = SearchType(template.get("type", SearchType.WEB))
        fields: dict[str, Any] = {"source": self.source, **self.request_fields}
        if kind is SearchType.KB and self.collections:
            fields["collections"] = self.collections
        if kind is SearchType.DB and self.models:
            fields["models"] = self.models
        return SearchRequest.model_validate({**fields, **template, "query": query, "type": kind})


class Call(TypedDict, total=False):
    """Who is calling, and who listens: the keyword arguments of every session call."""

    run: RunIds | None
    """The caller's run identifiers (the first given is the citation scope)."""
    sinks: Iterable[EventSink]
    """Event sinks for this call only."""


class _Addressed(TypedDict):
    """Where a call's citations and events go (``Searcher`` options)."""

    request_id: str
    chat_id: str
    sinks: Iterable[EventSink]


@dataclass(frozen=True)
class ToolAnswer:
    """What a tool call returns: the text for the model and the response behind it."""

    text: str
    response: SearchResponse

    def __str__(self) -> str:
        return self.text


def checked(
    response: SearchResponse, strict: bool = False, degrade: bool = False
) -> SearchResponse:
    """Apply the failure policy: raise when everything failed (or anything, when strict).

    With ``degrade`` a total failure is answered too, unless ``strict``.
    """
    if (response.status == "failed" and not degrade) or (strict and response.errors):
        raise SearchError.from_info(response.errors[0])
    return response


class SearchSession:
    """Search with one policy and one citation scope for everything built on this session.

    Example:
        Not run here: it needs an indexed collection ``docs``.

        >>> session = SearchSession(Searcher({"kb": {"collections": ["docs"]}}))  # doctest: +SKIP
        >>> response = session.search("vector index", SearchOptions(types=["kb"]))  # doctest: +SKIP
        >>> answer = session.call_tool("kb_search", {"query": "vector index"})  # doctest: +SKIP
    """

    def __init__(self, searcher: Searcher, *, shared_scope: bool = True) -> None:
        """Serve calls with ``searcher``.

        Args:
            searcher: the engine.
            shared_scope: give calls without run IDs one scope for the session's life;
                ``False`` gives each such call its own scope.
        """
        self.searcher = searcher
        self.scope = searcher.new_scope() if shared_scope else None

    def scope_for(self, run: RunIds | None = None) -> str | None:
        """The citation scope of a call (``None``: a new one for the call)."""
        return (run.scope if run else None) or self.scope

    async def asearch(
        self, query: str, options: SearchOptions | None = None, **call: Unpack[Call]
    ) -> SearchResponse:
        """Search ``query`` as ``options`` say, within the call's scope, under the failure policy."""
        options = options or SearchOptions()
        configured = default_types(self.searcher.config, options.collections, options.models)
        requests = options.build(query, configured)
        response = await arun_mode(
            self.searcher,
            requests,
            options.mode,
            parallel=options.parallel,
            top_n=options.k,
            user=options.user,
            overrides=options.overrides,
            provided_references=options.provided_references,
            attachments=options.attachments,
            **self._ids(call),
        )
        return checked(response, options.strict, options.degrade)

    async def acall_tool(
        self,
        name: ToolName | str,
        arguments: Mapping[str, Any] | BaseModel,
        *,
        limits: ToolLimits | None = None,
        mode: QueryMode | str | None = None,
        **call: Unpack[Call],
    ) -> ToolAnswer:
        """Run the tool ``name`` with a model's ``arguments``, narrowed to ``limits``, in ``mode``.

        In ``answer`` mode the text also carries the synthesis instructions.

        Raises:
            SearchError: INVALID_QUERY for bad or disallowed arguments, UNSUPPORTED for an
                unknown tool, or the first source error when nothing could be searched.
        """
        spec = TOOLS.get(name)
        if spec is None:
            raise SearchError(
                ErrorCode.UNSUPPORTED, f"unknown tool {name!r}; tools: {', '.join(TOOLS)}"
            )
        args = spec.parse(arguments)
        limits = limits or ToolLimits()
        if mode is not None and QueryMode(mode) is QueryMode.AUTO and spec.name != "retrieve_url":
            mode = auto_mode(args.query, self.searcher.config)
        if spec.name == "retrieve_url":
            response = await self.aretrieve(args.url, limits=limits, **call)
        else:
            request = SearchRequest(
                query=args.query, type=spec.kind, limit=args.max_results, **spec.fields(args)
            )
            request = limits.request(request)
            found = await arun_mode(
                self.searcher, [request], mode, top_n=request.limit, **self._ids(call)
            )
            response = checked(found)
        text = tool_text(response, self.searcher.config.citation)
        if mode == QueryMode.ANSWER and response.references:
            text = f"{text}\n\n{answer_guidance(response)}"
        return ToolAnswer(text, response)

    async def aretrieve(
        self, url: str, *, limits: ToolLimits | None = None, **call: Unpack[Call]
    ) -> SearchResponse:
        """Read one page and cite it in the call's scope (raises when it cannot be read)."""
        (limits or ToolLimits()).check_url(url)
        return checked(await self.searcher.aretrieve(url, **self._ids(call)))

    async def acite(self, items: Sequence[ResultItem], scope: str) -> list[ResultItem]:
        """Cite items from elsewhere (a user's own documents) in ``scope``, after what it holds.

        Their IDs are then never handed out again in the scope, persisted like a search's.
        """
        if not items:
            return []
        numbering = self.searcher.numbering
        numbered = await numbering.anumber(scope, items)
        await numbering.aremember(scope, numbered.unwritten)
        return numbered.items

    def _ids(self, call: Call) -> _Addressed:
        scope, chat = (call.get("run") or RunIds()).address(
            lambda: self.scope or self.searcher.new_scope()
        )
        return {"request_id": scope, "chat_id": chat, "sinks": call.get("sinks", ())}

    # -- sync twins -----------------------------------------------------------------------

    search = sync_twin(asearch)
    call_tool = sync_twin(acall_tool)
    retrieve = sync_twin(aretrieve)
    cite = sync_twin(acite)
