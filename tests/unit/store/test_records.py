"""records_from_response: one record per finished request, references given to who found them."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

import pytest
from sqlalchemy import MetaData, select

from unified_search.auth import Secret, is_sensitive_key, redact
from unified_search.config import SearchConfig
from unified_search.contract.handler import SearchContext
from unified_search.contract.response import SearchResponse
from unified_search.engine.searcher import Searcher
from unified_search.errors import ErrorCode, SearchError
from unified_search.records.model import config_json, define_tables, record_config
from unified_search.records.rows import RECORD_COLUMNS, REFERENCE_COLUMNS
from unified_search.records.store import SearchRecord, SearchStore, records_from_response
from unified_search.types import (
    Entity,
    GraphNode,
    Reference,
    ReferenceContext,
    ResultItem,
    SearchRequest,
    SearchResult,
)


class DocsHandler:
    """A knowledge base answering each query with fixed document IDs (``None`` fails)."""

    def __init__(self, answers: Mapping[str, list[str] | None]) -> None:
        self.answers = answers

    async def asearch(self, request: SearchRequest, ctx: SearchContext) -> SearchResult:
        docs = self.answers[request.query]
        if docs is None:
            raise SearchError(ErrorCode.PROVIDER_ERROR, "index offline", provider="kb")
        items = [
            ResultItem(type="kb", document_id=doc, collection="c", title=doc, score=1 - n / 10)
            for n, doc in enumerate(docs)
        ]
        return SearchResult(
            type="kb",
            query=request.query,
            items=items,
            keywords=request.query.split(),
            entities=[Entity(name=request.query)],
            graph_nodes=[GraphNode(name=f"{request.query} node", score=0.5)],
        )


def titles(record: SearchRecord) -> list[str]:
    return [ref.title for ref in record.references]


async def test_references_go_to_the_first_request_that_found_them() -> None:
    handler = DocsHandler({"alpha": ["a", "b"], "beta": ["b", "c"], "gamma": None})
    searcher = Searcher(handlers={"kb": handler})
    response = await searcher.aall(
        [{"query": q, "type": "kb"} for q in ("alpha", "beta", "gamma")], chat_id="chat"
    )
    config = SearchConfig()
    alpha, beta, gamma = records_from_response(response, config)
    assert (titles(alpha), titles(beta), titles(gamma)) == (["a", "b"], ["c"], [])
    assert gamma.error is not None and gamma.error.code is ErrorCode.PROVIDER_ERROR
    assert sorted(ref.index for r in (alpha, beta) for ref in r.references) == [1, 2, 3]
    assert alpha.keywords == ["alpha"] and alpha.graph[0].name == "alpha node"
    assert alpha.entities == [Entity(name="alpha")] and beta.query == "beta"
    assert {r.request_id for r in (alpha, beta, gamma)} == {response.request_id}
    assert alpha.chat_id == "chat" and alpha.xml == response.context.xml != ""
    assert alpha.prompt == response.context.prompt and alpha.config == record_config(config)
    assert alpha.duration_ms > 0 and alpha.created_at.tzinfo is not None


async def test_the_searcher_stores_every_search_of_a_request(store: SearchStore) -> None:
    """Citation indices continue across searches of one request; a re-cited item keeps its row."""
    handler = DocsHandler({"first": ["a", "b"], "second": ["b", "c"]})
    searcher = Searcher(handlers={"kb": handler}, store=store)
    first = await searcher.asearch({"query": "first", "type": "kb"}, request_id="req")
    second = await searcher.asearch({"query": "second", "type": "kb"}, request_id="req")
    stored = store.get_searches("req")
    assert [titles(record) for record in stored] == [["a", "b"], ["b", "c"]]
    assert [ref.id for ref in first.references] == ["ref_001", "ref_002"]
    assert {ref.title: ref.id for ref in second.references} == {"b": "ref_002", "c": "ref_003"}
    assert [(ref.index, ref.title) for ref in store.get_references("req")] == [
        (1, "a"),
        (2, "b"),
        (3, "c"),
    ]
    assert store.get_reference("req", 3) == next(r for r in second.references if r.index == 3)


def kb_result(query: str, *docs: str) -> SearchResult:
    items = [ResultItem(type="kb", document_id=doc, collection="c", title=doc) for doc in docs]
    return SearchResult(type="kb", query=query, items=items)


def cite(item: ResultItem, index: int) -> tuple[ResultItem, Reference]:
    cited = item.model_copy(update={"citation_id": f"ref_{index:03d}"})
    return cited, Reference.from_item(cited)


def test_unfinished_requests_get_no_record_and_strays_go_first() -> None:
    """``None`` results (any/race) are skipped; a reference no result lists goes to the first."""
    done = kb_result("done", "a")
    stray = ResultItem(type="kb", document_id="z", collection="c", title="z")
    pairs = [cite(done.items[0], 1), cite(stray, 2)]
    response = SearchResponse(
        request_id="r",
        requests=[SearchRequest(query="slow", type="kb"), SearchRequest(query="done", type="kb")],
        results=[None, done],
        items=[item for item, _ in pairs],
        context=ReferenceContext(references=[ref for _, ref in pairs]),
    )
    [record] = records_from_response(response, SearchConfig())
    assert record.query == "done" and titles(record) == ["a", "z"]


def test_a_response_without_finished_requests_has_no_records() -> None:
    response = SearchResponse(
        request_id="r", requests=[SearchRequest(query="q", type="kb")], results=[None]
    )
    assert records_from_response(response, SearchConfig()) == []


# -- credentials -------------------------------------------------------------------------------


class KeyedConfig(SearchConfig):
    """A configuration with a secret field, as provider sections have."""

    api_key: Secret | None = None


@pytest.mark.parametrize(
    ("key", "sensitive"),
    [
        ("api_key", True),
        ("TAVILY_API_KEY", True),
        ("apiKey", True),
        ("X-API-Key", True),
        ("client_secret", True),
        ("accessToken", True),
        ("password", True),
        ("Authorization", True),
        ("max_tokens", False),
        ("tokenizer", False),
        ("keyword", False),
        ("top_n", False),
    ],
)
def test_credential_key_names(key: str, sensitive: bool) -> None:
    assert is_sensitive_key(key) is sensitive


def test_redact_drops_raw_keys_only() -> None:
    config = {
        "api_key": "tvly-raw",
        "token": "ENV_NAME_OK",
        "max_tokens": 8000,
        "nested": [{"password": "hunter2", "user": "me"}],
        "empty_token": "",
    }
    assert redact(config) == {
        "token": "ENV_NAME_OK",
        "max_tokens": 8000,
        "nested": [{"user": "me"}],
        "empty_token": "",
    }


def raw_text(store: SearchStore) -> str:
    with store.engine.connect() as conn:
        rows = [*conn.execute(select(store.records)), *conn.execute(select(store.references))]
    return "\n".join(repr(tuple(row)) for row in rows)


def test_no_api_key_reaches_the_database(
    store: SearchStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A key named by an env var is stored as the name; a raw key in an env map is dropped."""
    monkeypatch.setenv("STORE_TEST_API_KEY", "tvly-very-secret-123")
    config = KeyedConfig(
        api_key="STORE_TEST_API_KEY",
        mcp={"s": {"command": "srv", "env": {"SERPER_API_KEY": "tvly-very-secret-123"}}},
    )
    assert config.api_key is not None and config.api_key.is_set()
    response = SearchResponse(
        request_id="r", requests=[SearchRequest(query="q")], results=[kb_result("q", "a")]
    )
    store.save(records_from_response(response, config))
    text = raw_text(store)
    assert "tvly-very-secret-123" not in text
    # A record keeps the choices that shaped the search, never keys, servers or their env.
    assert "STORE_TEST_API_KEY" not in text and "srv" not in text
    [record] = store.get_searches("r")
    assert record.config == record_config(config) and "api_key" not in record.config


def test_a_raw_token_secret_is_stored_as_absent() -> None:
    """A Secret given as a raw token refuses to serialise; the record keeps it as ``None``."""
    config = KeyedConfig(api_key=Secret.from_token("tvly-raw-token"))
    stored = config_json(config)
    assert stored["api_key"] is None and "tvly-raw-token" not in repr(stored)
    assert stored["rerank"] == SearchConfig().model_dump(mode="json")["rerank"]


def test_hand_built_records_are_redacted_too(make_record: Callable[..., Any]) -> None:
    record = make_record("r").model_copy(update={"config": {"x": 1}})
    rebuilt = SearchRecord.model_validate({**dict(record), "config": {"api_key": "sk-live-1"}})
    assert rebuilt.config == {}


def test_rows_hold_every_column_of_their_tables_in_order() -> None:
    """Rows are tuples laid out by the column lists: a column the tables gain must join them."""
    records, references = define_tables(MetaData(), "")
    assert ["id", *RECORD_COLUMNS] == [column.name for column in records.columns]
    assert ["id", "record_id", *REFERENCE_COLUMNS] == [c.name for c in references.columns]


def test_a_record_keeps_the_choices_of_its_search_not_the_whole_configuration() -> None:
    """The design's record config: uses, providers, collections, models, limits; nothing else."""
    config = SearchConfig().merged(
        {
            "web": {"providers": ["brave"], "max_results": 7},
            "kb": {"collections": ["help"], "threshold": 0.5, "graph": True},
            "db": {"models": ["orders"]},
            "uses": {"rerank": "rrf"},
        }
    )
    kept = record_config(config)
    assert kept == {
        "uses": config.uses.model_dump(mode="json"),
        "web": {"providers": ["brave"], "max_results": 7},
        "kb": {"collections": ["help"], "threshold": 0.5, "graph": True},
        "db": {"models": ["orders"], "max_results": 20},
        "rerank": {"top_n": 10},
    }
    assert len(json.dumps(kept)) < len(json.dumps(config_json(config))) / 10
