"""A LangChain agent calling the web, kb and db tools in one turn; a LangGraph graph streaming."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, TypedDict

import httpx
import pytest
from langchain.agents import create_agent
from langchain_core.documents import Document
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, ToolMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, MessagesState, StateGraph

from langchain_unified_search import AutoSearch, UnifiedSearchRetriever, search_tools
from unified_search.contract.handler import SearchContext
from unified_search.engine.searcher import Searcher
from unified_search.errors import ErrorCode, SearchError
from unified_search.policy.tools import ToolLimits
from unified_search.records.store import SearchStore
from unified_search.server.app import create_app
from unified_search.types import SearchRequest, SearchResult, SearchType


class ScriptedModel(GenericFakeChatModel):
    """A chat model that answers with the scripted messages and accepts any tools."""

    def bind_tools(self, tools: Any, **kwargs: Any) -> ScriptedModel:
        return self


def turn(calls: list[tuple[str, dict[str, Any]]], answer: str) -> Iterator[AIMessage]:
    tool_calls = [
        {"name": name, "args": args, "id": f"call-{i}", "type": "tool_call"}
        for i, (name, args) in enumerate(calls)
    ]
    return iter([AIMessage("", tool_calls=tool_calls), AIMessage(answer)])


THREE_TOOLS = [
    ("web_search", {"query": "leave rules", "max_results": 2}),
    ("kb_search", {"query": "leave days", "max_results": 2}),
    ("db_search", {"query": "leave requests", "max_results": 2}),
]


def shown_ids(messages: list[Any]) -> list[str]:
    return [ref.id for m in messages if isinstance(m, ToolMessage) for ref in m.artifact or []]


@pytest.mark.parametrize("use_async", [False, True])
async def test_one_turn_of_three_tools_shows_distinct_ids_all_resolvable(
    kit, sqlite_store: SearchStore, use_async: bool
):
    """No thread_id: the tool set is the scope; a fresh Searcher resolves every ID shown."""
    tools = search_tools(searcher=kit.searcher(sqlite_store))
    agent = create_agent(ScriptedModel(messages=turn(THREE_TOOLS, "25 days #ref:ref_003.")), tools)
    question = {"messages": [("user", "How much leave do I get?")]}
    state = await agent.ainvoke(question) if use_async else agent.invoke(question)
    ids = shown_ids(state["messages"])
    assert len(ids) == 6 and len(set(ids)) == 6
    scope = tools[0].session.scope
    sqlite_store.flush()  # another store reads what is committed
    fresh = Searcher(store=SearchStore(sqlite_store.url))
    for message in state["messages"]:
        if isinstance(message, ToolMessage):
            for ref in message.artifact:
                stored = fresh.store.get_reference(scope, ref.index)
                assert stored is not None and stored.id == ref.id and stored.title == ref.title
    fresh.close()


def test_a_thread_id_scopes_the_turns_of_a_conversation(kit):
    tools = search_tools(searcher=kit.searcher())
    config = {"configurable": {"thread_id": "thread-9", "recursion_limit": 10, "other": 1}}
    first = create_agent(ScriptedModel(messages=turn(THREE_TOOLS[:1], "a")), tools).invoke(
        {"messages": [("user", "q1")]}, config
    )
    second = create_agent(ScriptedModel(messages=turn(THREE_TOOLS[1:], "b")), tools).invoke(
        {"messages": [("user", "q2")]}, config
    )
    assert shown_ids(first["messages"]) == ["ref_001", "ref_002"]
    # The second turn's two tools run in parallel: which one numbers first varies.
    assert sorted(shown_ids(second["messages"])) == [f"ref_{i:03d}" for i in range(3, 7)]


def test_restricted_tools_refuse_what_the_model_widens(kit):
    limits = ToolLimits(types=["web"], include_domains=["example.com"], max_results=1)
    tools = search_tools(searcher=kit.searcher(), limits=limits)
    assert [t.name for t in tools] == ["web_search", "retrieve_url"]
    calls = [
        ("web_search", {"query": "a b c", "max_results": 20}),
        ("retrieve_url", {"url": "https://elsewhere.org/x"}),
    ]
    state = create_agent(ScriptedModel(messages=turn(calls, "done")), tools).invoke(
        {"messages": [("user", "q")]}
    )
    web, page = [m for m in state["messages"] if isinstance(m, ToolMessage)]
    assert len(web.artifact) == 1 and web.artifact[0].id == "ref_001"
    assert page.status == "error" and "outside the allowed domains" in page.content


class State(TypedDict):
    question: str
    titles: list[str]


def graph_with(retriever: UnifiedSearchRetriever, use_async: bool) -> Any:
    def search(state: State) -> dict[str, list[str]]:
        docs = retriever.invoke(state["question"])
        return {"titles": [d.metadata["unified_search"]["title"] for d in docs]}

    async def asearch(state: State) -> dict[str, list[str]]:
        docs = await retriever.ainvoke(state["question"])
        return {"titles": [d.metadata["unified_search"]["title"] for d in docs]}

    builder = StateGraph(State)
    builder.add_node("search", asearch if use_async else search)
    builder.add_edge(START, "search")
    builder.add_edge("search", END)
    return builder.compile()


@pytest.mark.parametrize("use_async", [False, True])
async def test_langgraph_custom_stream_shows_search_events(kit, use_async: bool):
    retriever = UnifiedSearchRetriever(searcher=kit.searcher(), types=["kb", "web"])
    graph = graph_with(retriever, use_async)
    config = {"configurable": {"thread_id": "t-1"}}
    inputs = {"question": "leave days", "titles": []}
    if use_async:
        chunks = [c async for c in graph.astream(inputs, config, stream_mode="custom")]
    else:
        chunks = list(graph.stream(inputs, config, stream_mode="custom"))
    names = [c["name"] for c in chunks]
    assert names[0] == "search_start" and names[-1] == "search_progress"
    assert names.count("search_item_complete") == 2 and "search_complete" in names
    assert {c["request_id"] for c in chunks} == {"t-1"}
    assert len({c["search_id"] for c in chunks}) == 1
    assert chunks[-1]["message"] == "Found 4 references" and chunks[-1]["done"]
    assert names.count("search_result") == 4
    assert "search_step_complete" in names


async def test_agent_tools_stream_custom_events_and_stream_events(kit):
    tools = search_tools(searcher=kit.searcher())
    agent = create_agent(ScriptedModel(messages=turn(THREE_TOOLS, "ok")), tools)
    chunks = [
        c
        async for c in agent.astream(
            {"messages": [("user", "q")]},
            {"configurable": {"thread_id": "t"}},
            stream_mode="custom",
        )
    ]
    progress = [(c["message"], c["done"]) for c in chunks if c["name"] == "search_progress"]
    assert progress.count(("Searching...", False)) == 3
    assert sum(done for _, done in progress) == 3
    assert {c["request_id"] for c in chunks} == {"t"}
    retriever = UnifiedSearchRetriever(searcher=kit.searcher(), types=["kb"])
    events = [
        e
        async for e in retriever.astream_events(
            "a b", {"configurable": {"chat_id": "c"}}, version="v2"
        )
        if e["event"] == "on_custom_event"
    ]
    assert events and {e["data"]["request_id"] for e in events} == {"c"}
    assert all(e["data"]["search_id"] for e in events)


async def test_a_threads_citations_open_through_the_http_api(kit, sqlite_store: SearchStore):
    """A LangGraph thread is the conversation: each ID shown opens at /api/chat/<thread>/..."""
    tools = search_tools(searcher=kit.searcher(sqlite_store))
    config = {"configurable": {"thread_id": "thread-4"}}
    shown: list[Any] = []
    for calls in (THREE_TOOLS[:2], THREE_TOOLS[2:]):
        agent = create_agent(ScriptedModel(messages=turn(calls, "ok")), tools)
        state = await agent.ainvoke({"messages": [("user", "q")]}, config)
        shown += [r for m in state["messages"] if isinstance(m, ToolMessage) for r in m.artifact]
    assert len({r.id for r in shown}) == len(shown) == 6
    sqlite_store.flush()  # another store reads what is committed
    store = SearchStore(sqlite_store.url)
    app = create_app(Searcher(store=store), store)
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://localhost"
    ) as http:
        for reference in shown:
            answer = await http.get(
                f"/api/chat/thread-4/request/thread-4/reference/{reference.index}"
            )
            assert answer.status_code == 200, answer.text
            assert (answer.json()["id"], answer.json()["title"]) == (reference.id, reference.title)
    store.close()


async def test_turns_without_a_thread_keep_numbering_in_the_tool_sets_scope(
    kit, sqlite_store: SearchStore
):
    """Two turns, three parallel tool calls each, no thread_id: nine IDs, each resolvable."""
    tools = search_tools(searcher=kit.searcher(sqlite_store))
    shown: list[Any] = []
    for words in ("leave rules", "sick days"):
        calls = [(name, {**args, "query": words}) for name, args in THREE_TOOLS]
        agent = create_agent(ScriptedModel(messages=turn(calls, "ok")), tools)
        state = await agent.ainvoke({"messages": [("user", words)]})
        shown += [r for m in state["messages"] if isinstance(m, ToolMessage) for r in m.artifact]
    assert len(shown) == 12 and len({r.id for r in shown}) == 12
    sqlite_store.flush()  # records are written in batches; another store reads what is committed
    fresh = SearchStore(sqlite_store.url)
    stored = {r.id: r.title for r in fresh.get_references(tools[0].session.scope)}
    assert stored == {r.id: r.title for r in shown}
    fresh.close()


class Flaky:
    """Fails ``failures`` times with a retryable error, then answers like the word source."""

    def __init__(self, kit, failures: int) -> None:
        self.inner = kit.WordSource(SearchType.KB)
        self.failures = failures

    async def asearch(self, request: SearchRequest, ctx: SearchContext) -> SearchResult:
        if self.failures:
            self.failures -= 1
            raise SearchError(ErrorCode.NETWORK_ERROR, "flaky", provider="kb")
        return await self.inner.asearch(request, ctx)


@pytest.mark.parametrize(("failures", "answers"), [(2, True), (3, False)])
def test_with_retry_sees_a_total_failure_and_tries_again(kit, failures: int, answers: bool):
    searcher = Searcher(handlers={"kb": Flaky(kit, failures)})
    retriever = UnifiedSearchRetriever(searcher=searcher, types=["kb"]).with_retry(
        stop_after_attempt=3, wait_exponential_jitter=False
    )
    if answers:
        assert [d.page_content for d in retriever.invoke("leave")] == [
            "leave: what the kb source knows"
        ]
    else:
        with pytest.raises(SearchError, match="NETWORK_ERROR"):
            retriever.invoke("leave")


class Chat(MessagesState):
    documents: list[Document]
    context: Any
    searched: bool
    response: Any


async def test_auto_search_in_a_checkpointed_graph_searches_every_new_question(kit):
    """The state outlives the turn: each question is searched, and no ID is given twice."""
    graph = StateGraph(Chat)
    graph.add_node("auto", AutoSearch(searcher=kit.searcher(), types=["kb"], k=2))
    graph.add_edge(START, "auto")
    graph.add_edge("auto", END)
    app = graph.compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "chat-7"}}
    own = [Document("Our leave policy: 25 days.", metadata={"source": "policy.md"})]
    first = await app.ainvoke({"messages": [("user", "leave days")], "documents": own}, config)
    second = await app.ainvoke({"messages": [("user", "sick pay")]}, config)
    assert second["response"].requests[0].query == "sick pay"
    earlier = {(r.id, r.title) for r in first["context"].references}
    later = {(r.id, r.title) for r in second["context"].references}
    assert ("ref_003", "policy.md") in earlier
    assert {r.title for r in second["response"].context.references} == {"kb sick", "kb pay"}
    meanings: dict[str, set[str]] = {}
    for cid, title in earlier | later:
        meanings.setdefault(cid, set()).add(title)
    assert all(len(titles) == 1 for titles in meanings.values())  # an ID always means one thing
