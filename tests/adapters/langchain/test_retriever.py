"""UnifiedSearchRetriever: documents, per-call options, failures, strict mode, events."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from langchain_core.callbacks import BaseCallbackHandler
from pydantic import ValidationError

from langchain_unified_search import UnifiedSearchRetriever, document_to_item, item_to_document
from unified_search.contract.metadata import core_fields
from unified_search.engine.searcher import Searcher
from unified_search.errors import ErrorCode, SearchError
from unified_search.types import ResultItem, SearchType


def meta(doc: Any) -> dict[str, Any]:
    """The core fields of a document this package made."""
    return core_fields(doc.metadata)


class EventRecorder(BaseCallbackHandler):
    def __init__(self) -> None:
        self.events: list[tuple[str, dict[str, Any]]] = []

    def on_custom_event(self, name: str, data: Any, **kwargs: Any) -> None:
        self.events.append((name, data))


def test_documents_carry_every_core_field(sources):
    """Each document's metadata holds the citation, type, source, weight, score and identifiers."""
    retriever = UnifiedSearchRetriever(searcher=sources.searcher(), types=["web", "kb", "db"], k=6)
    docs = retriever.invoke("billing")
    by_type = {meta(doc)["type"]: meta(doc) for doc in docs}
    assert set(by_type) == {"web", "kb", "db"}
    assert by_type["web"]["url"].startswith("https://example.com/web-")
    assert by_type["kb"]["document_id"].startswith("kb-")
    assert by_type["kb"]["collection"] == "handbook"
    assert by_type["db"]["model"] == "orders" and "record_id" in by_type["db"]
    assert [meta(doc)["citation_id"] for doc in docs] == [f"ref_{i:03d}" for i in range(1, 7)]
    for doc in docs:
        fields = meta(doc)
        assert fields["source"] == "user" and fields["weight"] == 1.0
        assert doc.metadata["provider"] == f"fake-{fields['type']}"
        assert fields["title"].endswith("billing")


def test_weight_follows_the_chosen_source(sources):
    """``source`` decides the weight the engine gives results (hook 0.8)."""
    retriever = UnifiedSearchRetriever(searcher=sources.searcher(), types=["kb"], source="hook")
    assert {meta(doc)["weight"] for doc in retriever.invoke("x")} == {0.8}


def test_options_reach_the_requests(sources):
    """Collections, models and request options are forwarded to the right source only."""
    retriever = UnifiedSearchRetriever(
        searcher=sources.searcher(),
        types=["kb", "db"],
        collections=["faq"],
        models=["customers"],
        request_fields={"threshold": 0.3},
    )
    retriever.invoke("late delivery")
    kb, db = sources.kb.calls[0], sources.db.calls[0]
    assert kb.collections == ["faq"] and kb.models == [] and kb.threshold == 0.3
    assert db.models == ["customers"] and db.collections == []


def test_per_call_values_override_the_fields(sources):
    """``invoke(q, k=.., types=..)`` changes only that call."""
    retriever = UnifiedSearchRetriever(searcher=sources.searcher(), types=["web"], k=5)
    docs = retriever.invoke("q", k=2, types=["kb"])
    assert len(docs) == 2 and {meta(d)["type"] for d in docs} == {"kb"}
    assert len(retriever.invoke("q")) == 5
    assert sources.kb.calls and len(sources.web.calls) == 1


@pytest.mark.parametrize("key", ["request_id", "thread_id", "chat_id"])
def test_configurable_run_id_scopes_citations(sources, key):
    """Searches of one scope give new items new IDs and known items their old one."""
    retriever = UnifiedSearchRetriever(searcher=sources.searcher(), types=["kb"], k=2)
    config = {"configurable": {key: "r-1", "unrelated": object()}}
    first = retriever.invoke("alpha", config)
    second = retriever.invoke("beta", config, collections=["faq"])
    again = retriever.invoke("gamma", config)
    ids = [meta(d)["citation_id"] for d in first + second + again]
    assert ids == ["ref_001", "ref_002", "ref_003", "ref_004", "ref_001", "ref_002"]
    other = retriever.invoke("alpha", {"configurable": {key: "r-2"}})
    assert meta(other[0])["citation_id"] == "ref_001"


def test_without_run_ids_the_retriever_is_one_scope(sources):
    """Calls without run identifiers continue the retriever's own numbering."""
    retriever = UnifiedSearchRetriever(searcher=sources.searcher(), types=["kb"], k=2)
    first = retriever.invoke("alpha")
    second = retriever.invoke("beta", collections=["faq"])
    assert [meta(d)["citation_id"] for d in first + second] == [
        "ref_001",
        "ref_002",
        "ref_003",
        "ref_004",
    ]


@pytest.mark.parametrize(
    ("value", "problem"),
    [("x" * 256, "at most 255 characters"), ("bad\nid", "control characters")],
)
def test_bad_request_id_is_a_validation_error_naming_it(sources, value, problem):
    retriever = UnifiedSearchRetriever(searcher=sources.searcher(), types=["kb"])
    with pytest.raises(ValidationError, match=rf"request_id[\s\S]*{problem}"):
        retriever.invoke("q", {"configurable": {"request_id": value}})


@pytest.mark.parametrize("mode", ["any", "race"])
def test_mode_returns_with_the_first_source(sources, mode):
    """``any``/``race`` answer with the fast source; the slow one is cancelled."""
    sources.kb.delay = 5.0
    retriever = UnifiedSearchRetriever(searcher=sources.searcher(), types=["web", "kb"], k=20)
    docs = retriever.invoke("q", mode=mode)
    assert docs and {meta(d)["type"] for d in docs} == {"web"}


def test_unknown_mode_is_a_validation_error(sources):
    with pytest.raises(ValidationError, match="mode"):
        UnifiedSearchRetriever(searcher=sources.searcher(), mode="first")


async def test_sync_and_async_agree(sources):
    retriever = UnifiedSearchRetriever(searcher=sources.searcher(), types=["web", "kb"], k=4)
    sync_docs = retriever.invoke("q")
    async_docs = await retriever.ainvoke("q")
    assert [d.page_content for d in sync_docs] == [d.page_content for d in async_docs]


@pytest.mark.parametrize("use_async", [False, True])
async def test_failed_source_is_reported_not_raised(sources, use_async):
    """A failing source is absent from the documents and announced as a custom event."""
    retriever = UnifiedSearchRetriever(searcher=sources.searcher(), types=["web", "kb"], k=20)
    recorder = EventRecorder()
    config = {"callbacks": [recorder]}
    if use_async:
        docs = await retriever.ainvoke("q", config, collections=["nope"])
    else:
        docs = retriever.invoke("q", config, collections=["nope"])
    assert docs and {meta(d)["type"] for d in docs} == {"web"}
    failed = [data for name, data in recorder.events if name == "search_item_failed"]
    assert len(failed) == 1
    assert failed[0]["node"]["error"]["code"] == "INVALID_QUERY"
    assert "unknown collection 'nope'" in failed[0]["node"]["error"]["message"]


@pytest.mark.parametrize("use_async", [False, True])
async def test_strict_mode_raises_the_search_error(sources, use_async):
    retriever = UnifiedSearchRetriever(searcher=sources.searcher(), types=["web"], strict=True)
    with pytest.raises(SearchError) as info:
        if use_async:
            await retriever.ainvoke("please fail")
        else:
            retriever.invoke("please fail")
    assert info.value.code is ErrorCode.RATE_LIMITED and info.value.provider == "fake"


def test_strict_can_be_set_per_call(sources):
    retriever = UnifiedSearchRetriever(searcher=sources.searcher(), types=["web", "kb"])
    assert retriever.invoke("q", collections=["nope"])
    with pytest.raises(SearchError, match="unknown collection"):
        retriever.invoke("q", collections=["nope"], strict=True)


@pytest.mark.parametrize("use_async", [False, True])
async def test_every_source_failing_raises_so_fallbacks_take_over(sources, use_async):
    """Total failure raises the first error; ``with_fallbacks`` answers instead."""
    from langchain_core.runnables import RunnableLambda

    retriever = UnifiedSearchRetriever(searcher=sources.searcher(), types=["web"])
    backup = RunnableLambda(lambda query: ["backup for " + query])
    chain = retriever.with_fallbacks([backup])
    if use_async:
        assert await chain.ainvoke("fail now") == ["backup for fail now"]
    else:
        assert chain.invoke("fail now") == ["backup for fail now"]
    with pytest.raises(SearchError, match="RATE_LIMITED"):
        retriever.invoke("fail now")


def test_unknown_per_call_argument_names_the_valid_ones(sources):
    retriever = UnifiedSearchRetriever(searcher=sources.searcher())
    with pytest.raises(TypeError, match=r"\['top_k'\].*valid: types, collections"):
        retriever.invoke("q", top_k=3)


def test_bad_per_call_values_are_validation_errors(sources):
    retriever = UnifiedSearchRetriever(searcher=sources.searcher())
    with pytest.raises(ValidationError, match="k"):
        retriever.invoke("q", k=0)
    with pytest.raises(ValidationError, match="types"):
        retriever.invoke("q", types=["files"])


@pytest.mark.parametrize("query", ["   ", "\u200b", "\ufeff\u2060", "\x1b", "\u202e"])
def test_a_query_with_nothing_visible_is_rejected(sources, query):
    retriever = UnifiedSearchRetriever(searcher=sources.searcher())
    with pytest.raises(ValidationError, match=r"query\n.*query must contain text"):
        retriever.invoke(query)
    assert sources.kb.calls == [] and sources.web.calls == []


def test_fullwidth_queries_are_searched_normalised(sources):
    retriever = UnifiedSearchRetriever(searcher=sources.searcher(), types=["kb"])
    retriever.invoke("ｂａｔｔｅｒｙ\u200b life")
    assert [call.query for call in sources.kb.calls] == ["battery life"]


def test_constructor_validation():
    with pytest.raises(ValidationError, match="not searcher and config"):
        UnifiedSearchRetriever(searcher=Searcher(), config={})
    with pytest.raises(ValidationError, match="k"):
        UnifiedSearchRetriever(config={}, k=0)
    with pytest.raises(ValidationError, match="top_k"):
        UnifiedSearchRetriever(config={}, top_k=3)
    with pytest.raises(ValidationError, match=r"config key 'rerank\.top_m': unknown key"):
        UnifiedSearchRetriever(config={"rerank": {"top_m": 3}})


def test_built_from_a_yaml_file(tmp_path: Path, sources):
    """A ``search.yml`` path builds the Searcher; its settings apply."""
    path = tmp_path / "search.yml"
    path.write_text("rerank:\n  top_n: 3\n", encoding="utf-8")
    retriever = UnifiedSearchRetriever(config=path, types=["kb"])
    retriever.engine.register("kb", sources.kb)
    assert len(retriever.invoke("q")) == 3


def test_document_round_trip():
    """A document converts back into the same item, extra metadata included."""
    item = ResultItem(
        type=SearchType.DB,
        title="Order 7",
        content="total 120",
        score=0.5,
        weight=0.8,
        source="hook",
        citation_id="ref_004",
        model="orders",
        record_id="7",
        data={"total": 120},
        metadata={"provider": "sql"},
    )
    assert document_to_item(item_to_document(item)) == item


def test_foreign_documents_convert_with_defaults():
    from langchain_core.documents import Document

    metadata = {"author": "ann", "source": "notes.txt", "type": "memo", "score": "high"}
    item = document_to_item(Document(page_content="plain", metadata=metadata))
    assert item.type is SearchType.KB and item.content == "plain"
    assert item.metadata == metadata and item.citation_id is None
    assert item_to_document(item).metadata == {
        **metadata,
        "unified_search": meta(item_to_document(item)),
    }
