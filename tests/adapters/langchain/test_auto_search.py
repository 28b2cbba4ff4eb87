"""AutoSearch: the include-context path, its skip rules, and a whole cited chat chain."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.documents import Document
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from langchain_core.prompt_values import ChatPromptValue
from langchain_core.runnables import RunnableLambda

from langchain_unified_search import AutoSearch, CitationOutputParser, UnifiedSearchCallbackHandler
from langchain_unified_search.auto_search import MARKER
from unified_search.citations import citation_prompt
from unified_search.config import CitationConfig
from unified_search.engine import Searcher
from unified_search.errors import SearchError
from unified_search.records import SearchStore
from unified_search.types import ReferenceContext


class _Recorder(BaseCallbackHandler):
    """Keeps the core's events, which reach LangChain as custom events."""

    def __init__(self, events: list[Any]) -> None:
        self.events = events

    def on_custom_event(self, name: str, data: Any, **kwargs: Any) -> None:
        self.events.append(data)


def conversation() -> list[BaseMessage]:
    return [
        SystemMessage("You are helpful."),
        HumanMessage("first question"),
        AIMessage("first answer"),
        HumanMessage("  how many vacation days?  "),
    ]


def injected(messages: list[BaseMessage]) -> list[BaseMessage]:
    return [m for m in messages if (m.id or "").startswith(MARKER)]


@pytest.mark.parametrize("use_async", [False, True])
async def test_searches_the_last_user_message_and_injects_references(sources, use_async):
    auto = AutoSearch(searcher=sources.searcher(), types=["kb"], k=2)
    state = await auto.ainvoke(conversation()) if use_async else auto.invoke(conversation())
    assert [r.query for r in sources.kb.calls] == ["how many vacation days?"]
    assert sources.kb.calls[0].source == "auto"
    messages = state["messages"]
    assert len(messages) == 5 and messages[0].content == "You are helpful."
    note = messages[1]
    assert isinstance(note, SystemMessage) and note.id.startswith(MARKER)
    assert note.content == f"{citation_prompt(CitationConfig())}\n\n{state['context'].xml}"
    assert [r.weight for r in state["context"].references] == [0.6, 0.6]
    assert state["searched"] is True and state["response"].status == "ok"


@pytest.mark.parametrize(
    "value",
    [
        "how many vacation days?",
        ChatPromptValue(messages=[HumanMessage("how many vacation days?")]),
    ],
)
def test_accepts_text_and_prompt_values(sources, value):
    state = AutoSearch(searcher=sources.searcher(), types=["kb"]).invoke(value)
    assert sources.kb.calls[0].query == "how many vacation days?"
    assert len(injected(state["messages"])) == 1


def test_disabled_search_injects_nothing(sources):
    searcher = sources.searcher({"uses": {"search": "disabled"}})
    state = AutoSearch(searcher=searcher, types=["kb", "web"]).invoke(conversation())
    assert sources.kb.calls == [] and sources.web.calls == []
    assert state["messages"] == conversation()
    assert state["context"].references == []
    assert all(r.metadata.get("skipped") for r in state["response"].results)


def test_a_previous_search_is_not_repeated(sources):
    auto = AutoSearch(searcher=sources.searcher(), types=["kb"], k=2)
    first = auto.invoke(conversation())
    second = auto.invoke({"messages": first["messages"]})
    assert len(sources.kb.calls) == 1
    assert len(injected(second["messages"])) == 1 and second["response"] is None


def test_a_new_question_searches_again(sources):
    auto = AutoSearch(searcher=sources.searcher(), types=["kb"], k=2)
    first = auto.invoke(conversation())
    auto.invoke([*first["messages"], AIMessage("10 days"), HumanMessage("and sick days?")])
    assert [r.query for r in sources.kb.calls] == ["how many vacation days?", "and sick days?"]


def test_searched_flag_from_a_hook_skips_the_search(sources):
    state = AutoSearch(searcher=sources.searcher(), types=["kb"]).invoke(
        {"messages": conversation(), "searched": True}
    )
    assert sources.kb.calls == [] and injected(state["messages"]) == []


def test_context_from_a_previous_step_is_injected_without_searching(sources):
    earlier = AutoSearch(searcher=sources.searcher(), types=["web"], k=1).invoke("q")["context"]
    state = AutoSearch(searcher=sources.searcher(), types=["kb"]).invoke(
        {"messages": conversation(), "context": earlier, "topic": "hr"}
    )
    assert sources.kb.calls == []
    assert state["context"] is earlier and state["topic"] == "hr"
    assert earlier.xml in injected(state["messages"])[0].content


def test_user_documents_at_the_threshold_skip_the_search(sources):
    docs = [Document(page_content=f"user doc {i}") for i in range(2)]
    searcher = sources.searcher({"options": {"skip_threshold": 2}})
    state = AutoSearch(searcher=searcher, types=["kb"]).invoke(
        {"messages": conversation(), "documents": docs}
    )
    assert sources.kb.calls == []
    assert "skip_threshold=2" in state["response"].results[0].metadata["skipped"]
    refs = state["context"].references
    assert [(r.id, r.content, r.source) for r in refs] == [
        ("ref_001", "user doc 0", "user"),
        ("ref_002", "user doc 1", "user"),
    ]
    assert len(injected(state["messages"])) == 1


def test_user_documents_below_the_threshold_come_first(sources):
    """Found references keep the IDs the search stored; the user's own are numbered after them."""
    docs = [Document(page_content="user doc")]
    searcher = sources.searcher({"options": {"skip_threshold": 3}})
    state = AutoSearch(searcher=searcher, types=["kb"], k=2).invoke(
        {"messages": conversation(), "documents": docs}
    )
    refs = state["context"].references
    assert [r.id for r in refs] == ["ref_003", "ref_001", "ref_002"]
    assert [r.source for r in refs] == ["user", "auto", "auto"]
    assert [r.id for r in state["response"].context.references] == ["ref_001", "ref_002"]


def test_no_user_message_means_no_search(sources):
    state = AutoSearch(searcher=sources.searcher(), types=["kb"]).invoke([SystemMessage("hi")])
    assert sources.kb.calls == [] and state["context"] == ReferenceContext()


@pytest.mark.parametrize("use_async", [False, True])
async def test_every_source_failing_lets_the_turn_go_on_without_references(
    sources, use_async, tmp_path
):
    """A search outage never blocks the turn: no references, the failure in events and record."""
    store = SearchStore(f"sqlite:///{tmp_path / 'records.db'}")
    searcher = Searcher(handlers={"web": sources.web}, store=store)
    events: list[Any] = []
    auto = AutoSearch(searcher=searcher, types=["web"])
    state = (
        await auto.ainvoke("please fail", {"callbacks": [_Recorder(events)]})
        if use_async
        else auto.invoke("please fail", {"callbacks": [_Recorder(events)]})
    )
    assert injected(state["messages"]) == [] and state["context"].references == []
    assert state["messages"][-1].content == "please fail"
    response = state["response"]
    assert response.status == "failed" and response.errors[0].code == "RATE_LIMITED"
    failed = [e for e in events if e["name"] == "search_item_failed"]
    assert failed and failed[0]["node"]["error"]["code"] == "RATE_LIMITED"
    records = await store.aget_searches(response.request_id)
    assert records and records[0].error is not None and records[0].error.code == "RATE_LIMITED"
    await searcher.aclose()


def test_a_failed_search_still_lets_the_model_answer(sources):
    model = GenericFakeChatModel(messages=iter([AIMessage("I could not look that up.")]))
    chain = AutoSearch(searcher=sources.searcher(), types=["web"]).with_model(model)
    assert chain.invoke("please fail")["answer"].content == "I could not look that up."


def test_partial_failure_injects_what_was_found(sources):
    state = AutoSearch(searcher=sources.searcher(), types=["web", "kb"]).invoke(
        {"messages": conversation(), "documents": []}
    )
    assert state["response"].status == "ok"
    failing = AutoSearch(searcher=sources.searcher(), types=["web", "kb"], collections=["nope"])
    state = failing.invoke({"messages": conversation()})
    assert state["response"].status == "partial" and state["context"].references


@pytest.mark.parametrize("use_async", [False, True])
async def test_strict_auto_search_raises(sources, use_async):
    auto = AutoSearch(searcher=sources.searcher(), types=["web"], strict=True)
    with pytest.raises(SearchError) as info:
        await auto.ainvoke("please fail") if use_async else auto.invoke("please fail")
    assert info.value.code == "RATE_LIMITED"


def test_request_id_from_the_run_config_scopes_citations(sources):
    auto = AutoSearch(searcher=sources.searcher(), types=["kb"], k=1)
    auto.invoke("a", {"configurable": {"request_id": "turn"}})
    second = auto.invoke(
        {"messages": [HumanMessage("b")], "request_id": "turn"}, {"configurable": {}}
    )
    assert second["context"].references[0].id == "ref_001"  # the same passage keeps its ID
    assert second["response"].request_id == "turn"


def _chain(sources: Any, answer: str) -> Any:
    model = GenericFakeChatModel(messages=iter([AIMessage(answer)]))
    auto = AutoSearch(searcher=sources.searcher(), types=["kb", "web"], k=3)
    return auto.with_model(model) | CitationOutputParser()


def test_question_to_cited_answer(sources):
    seen: list[list[BaseMessage]] = []
    model = GenericFakeChatModel(
        messages=iter([AIMessage("10 days #ref:ref_001, see #ref:ref_002 and #ref:ref_009.")])
    )
    spy = RunnableLambda(lambda messages: seen.append(messages) or messages)
    auto = AutoSearch(searcher=sources.searcher(), types=["kb", "web"], k=3)
    answer = (auto.with_model(spy | model) | CitationOutputParser()).invoke(
        "How many vacation days?"
    )
    assert answer.text.startswith("10 days")
    assert answer.citations == ["ref_001", "ref_002", "ref_009"]
    assert [r.id for r in answer.references] == ["ref_001", "ref_002"]
    assert answer.unknown == ["ref_009"]
    assert "<references>" in seen[0][0].content and seen[0][-1].content == "How many vacation days?"


async def test_astream_events_show_the_search_in_order(sources):
    chain = _chain(sources, "Answer #ref:ref_001.")
    handler = UnifiedSearchCallbackHandler()
    names: list[str] = []
    data: list[dict] = []
    model_started_after = None
    async for event in chain.astream_events(
        "vacation policy", {"callbacks": [handler]}, version="v2"
    ):
        if event["event"] == "on_custom_event":
            names.append(event["name"])
            data.append(event["data"])
        elif event["event"] == "on_chat_model_start":
            model_started_after = len(names)
    assert names[:2] == ["search_start", "search_progress"]
    assert names[-6:] == ["search_result"] * 3 + ["search_complete"] + ["search_progress"] * 2
    middle = names[2:-6]
    assert sorted(middle) == sorted(
        ["search_item_start", "search_item_complete"] * 2
        + ["search_step_start", "search_step_complete"]
    )
    assert middle.index("search_item_start") < middle.index("search_item_complete")
    assert middle[-2:] == ["search_step_start", "search_step_complete"]  # the rerank
    assert [d["reference"]["id"] for d in data[-6:-3]] == ["ref_001", "ref_002", "ref_003"]
    assert [d["done"] for d in data[-2:]] == [False, True]
    assert model_started_after == len(names)
    assert handler.last is not None and handler.last.result_count == 3
