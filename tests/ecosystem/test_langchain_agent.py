"""A LangChain agent calling the web, kb and db tools in one turn; a LangGraph graph streaming."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, TypedDict

import pytest
from langchain.agents import create_agent
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, ToolMessage
from langgraph.graph import END, START, StateGraph

from langchain_unified_search import UnifiedSearchRetriever, search_tools
from unified_search.searcher import Searcher
from unified_search.store import SearchStore
from unified_search.tools import ToolLimits


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
    ids = shown_ids(first["messages"]) + shown_ids(second["messages"])
    # The second turn's two tools run at once: which of them numbers first is not fixed.
    assert ids[:2] == ["ref_001", "ref_002"]
    assert sorted(ids) == [f"ref_{i:03d}" for i in range(1, 7)]


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
    assert chunks[-1]["message"] == "Found 4 references"


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
    assert [c["message"] for c in chunks if c["name"] == "search_progress"].count("Searching…") == 3
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
