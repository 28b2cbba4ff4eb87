import asyncio
from collections.abc import Sequence

import pytest
from llama_index.core.base.base_selector import BaseSelector, SelectorResult, SingleSelection
from llama_index.core.llms import MockLLM
from llama_index.core.retrievers import QueryFusionRetriever, RouterRetriever
from llama_index.core.schema import QueryBundle
from llama_index.core.tools import RetrieverTool, ToolMetadata
from pydantic import ValidationError

from llama_index_unified_search import UnifiedSearchRetriever
from unified_search.engine.searcher import Searcher
from unified_search.errors import ErrorCode, SearchError


def test_retrieve_returns_cited_nodes_best_first(searcher: Searcher) -> None:
    """Nodes come back in rank order with consecutive citation ids and their origin."""
    nodes = UnifiedSearchRetriever(searcher, types=["kb", "db"], top_k=3).retrieve("heat pump")
    metas = [n.node.metadata["unified_search"] for n in nodes]
    assert [m["citation_id"] for m in metas] == ["ref_001", "ref_002", "ref_003"]
    assert [(m["type"], m.get("record_id") or m.get("document_id")) for m in metas] == [
        ("db", "p1"),
        ("kb", "heat-pumps"),
        ("kb", "solar"),
    ]
    assert [n.score for n in nodes] == sorted((n.score for n in nodes), reverse=True)
    assert metas[0]["model"] == "products" and metas[1]["collection"] == "energy"


def test_node_ids_are_the_same_in_two_runs(searcher: Searcher, fakes) -> None:
    """Two retrievers over two Searchers give the same node ids for the same content."""
    first = UnifiedSearchRetriever(searcher, types=["kb", "web"]).retrieve("heat")
    other = Searcher(handlers={"kb": fakes.FakeKB(), "web": fakes.FakeWeb()})
    second = UnifiedSearchRetriever(other, types=["kb", "web"]).retrieve("heat")
    assert [n.node.node_id for n in first] == [n.node.node_id for n in second]
    assert len({n.node.node_id for n in first}) == len(first) == 5


def test_request_options_reach_the_source(fakes) -> None:
    """Collections and extra request fields go into every request."""
    kb = fakes.FakeKB()
    retriever = UnifiedSearchRetriever(
        Searcher(handlers={"kb": kb}),
        types=["kb"],
        collections=["travel"],
        request_fields={"threshold": 0.5},
    )
    nodes = retriever.retrieve("trains")
    assert [n.node.metadata["unified_search"]["document_id"] for n in nodes] == ["trains"]
    assert (kb.calls[0].collections, kb.calls[0].threshold) == (["travel"], 0.5)


def test_explicit_requests_are_fused_as_separate_lists(fakes) -> None:
    """Two kb requests over two collections each reach the source and share one citation list."""
    kb = fakes.FakeKB()
    retriever = UnifiedSearchRetriever(
        Searcher(handlers={"kb": kb}),
        requests=[{"type": "kb", "collections": ["travel"]}, {"type": "kb", "limit": 1}],
        request_fields={"threshold": 0.2},
    )
    nodes = retriever.retrieve("night")
    assert sorted(c.collections[0] if c.collections else "default" for c in kb.calls) == [
        "default",
        "travel",
    ]
    assert all(c.threshold == 0.2 for c in kb.calls)
    assert [n.node.metadata["unified_search"]["document_id"] for n in nodes] == [
        "heat-pumps",
        "trains",
    ]
    assert [n.node.metadata["unified_search"]["citation_id"] for n in nodes] == [
        "ref_001",
        "ref_002",
    ]


async def test_aretrieve_matches_retrieve(searcher: Searcher) -> None:
    """The async path returns the same nodes as the sync one."""
    retriever = UnifiedSearchRetriever(searcher, types=["kb", "web", "db"], top_k=4)
    sync_nodes = await asyncio.to_thread(retriever.retrieve, "heat")
    async_nodes = await retriever.aretrieve("heat")
    assert [(n.node.node_id, n.score) for n in async_nodes] == [
        (n.node.node_id, n.score) for n in sync_nodes
    ]


async def test_aretrieve_never_blocks_the_event_loop(fakes, hang_guard) -> None:
    """Two slow searches run together, and other tasks on the loop keep running meanwhile."""
    kb = fakes.FakeKB(delay=0.2)
    retriever = UnifiedSearchRetriever(Searcher(handlers={"kb": kb}), types=["kb"])
    ticks_in_flight = 0

    async def ticker() -> None:
        nonlocal ticks_in_flight
        while True:
            await asyncio.sleep(0.01)
            ticks_in_flight += kb.in_flight > 0

    task = asyncio.create_task(ticker())
    results = await hang_guard(
        asyncio.gather(retriever.aretrieve("a"), retriever.aretrieve("b")), "two retrievals"
    )
    task.cancel()
    assert all(len(nodes) == 3 for nodes in results)
    assert kb.most_in_flight == 2  # concurrent: both started before either finished
    assert ticks_in_flight >= 1  # the loop ran another task while they were in flight


def test_partial_failure_returns_the_other_sources(fakes, collector) -> None:
    """A failing web source is reported in the events; the knowledge base still answers."""
    searcher = Searcher(handlers={"kb": fakes.FakeKB(), "web": fakes.FailingWeb()})
    nodes = UnifiedSearchRetriever(searcher, types=["web", "kb"]).retrieve("heat")
    assert {n.node.metadata["unified_search"]["type"] for n in nodes} == {"kb"}
    failed = [e for e in collector.events() if e.name == "search_item_failed"]
    assert [e.node.error.code for e in failed] == ["NO_API_KEY"]
    with pytest.raises(SearchError, match="NO_API_KEY"):
        UnifiedSearchRetriever(searcher, types=["web", "kb"], strict=True).retrieve("heat")


@pytest.mark.parametrize("use_async", [False, True])
async def test_every_source_failing_raises_its_search_error(fakes, use_async: bool) -> None:
    """When nothing answers, the SearchError (with its code) reaches the caller."""
    retriever = UnifiedSearchRetriever(
        Searcher(handlers={"web": fakes.FailingWeb()}), types=["web"]
    )
    with pytest.raises(SearchError) as caught:
        await retriever.aretrieve("x") if use_async else await asyncio.to_thread(
            retriever.retrieve, "x"
        )
    assert caught.value.code is ErrorCode.NO_API_KEY and caught.value.provider == "tavily"


def test_unknown_collection_and_model_are_clear_errors(searcher: Searcher) -> None:
    """The source's INVALID_QUERY error names the unknown collection or model."""
    with pytest.raises(SearchError, match="unknown collection 'nope'") as caught:
        UnifiedSearchRetriever(searcher, collections=["nope"]).retrieve("x")
    assert caught.value.code is ErrorCode.INVALID_QUERY
    with pytest.raises(SearchError, match="unknown model 'ghosts'"):
        UnifiedSearchRetriever(searcher, types=["db"], models=["ghosts"]).retrieve("x")


@pytest.mark.parametrize(
    "bundle", [QueryBundle(query_str=q) for q in ("", "   ", "\u200b", "\ufeff\x1b", "\u202e")]
)
async def test_empty_query_bundle_is_rejected(searcher: Searcher, bundle: QueryBundle) -> None:
    """An empty query fails validation naming the query field, sync and async."""
    retriever = UnifiedSearchRetriever(searcher)
    with pytest.raises(ValidationError, match="query must contain text"):
        await asyncio.to_thread(retriever.retrieve, bundle)
    with pytest.raises(ValidationError, match="query"):
        await retriever.aretrieve(bundle)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"top_k": 0}, "top_k must be at least 1, got 0"),
        ({"top_k": -3}, "top_k must be at least 1"),
        ({"types": ["kb", "files"]}, r"types\.1\n  Input should be 'web', 'kb' or 'db'"),
        ({"types": []}, "types\n  List should have at least 1 item"),
        (
            {"mode": "fastest"},
            "mode\n  Value error, unknown mode 'fastest'; valid: fast, deep, answer",
        ),
        ({"parallel": "fastest"}, "parallel\n  Input should be 'all', 'any' or 'race'"),
        ({"request_fields": {"threshold": 2}}, "threshold"),
        ({"request_fields": {"colour": "red"}}, "colour"),
        ({"request_fields": {"type": "web"}}, r"request_fields: unknown field\(s\) \['type'\]"),
        ({"types": ["kb"], "requests": [{"type": "kb"}]}, "either types or requests"),
        ({"requests": []}, "at least one request"),
        ({"requests": [{"type": "kb", "query": "x"}]}, "none with a query"),
        ({"requests": [{"type": "files"}]}, "type"),
        ({"config": {}}, "one of session, searcher or config, not searcher and config"),
    ],
)
def test_bad_construction_fails_naming_the_problem(
    searcher: Searcher, kwargs: dict, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        UnifiedSearchRetriever(searcher, **kwargs)


def test_built_from_config_uses_that_configuration() -> None:
    """Given a config dict, the retriever builds its own Searcher with it."""
    retriever = UnifiedSearchRetriever(config={"rerank": {"top_n": 4}})
    assert retriever.searcher.config.rerank.top_n == 4


def test_shared_request_id_keeps_citation_ids_unique_across_retrievers(searcher: Searcher) -> None:
    """Sub-retrievers sharing a citation context never hand out the same id twice."""
    kb = UnifiedSearchRetriever(searcher, types=["kb"], request_id="chat-1")
    web = UnifiedSearchRetriever(searcher, types=["web"], request_id="chat-1")
    fusion = QueryFusionRetriever(
        [kb, web], llm=MockLLM(), num_queries=1, use_async=False, similarity_top_k=5
    )
    ids = [n.node.metadata["unified_search"]["citation_id"] for n in fusion.retrieve("heat")]
    assert sorted(ids) == ["ref_001", "ref_002", "ref_003", "ref_004", "ref_005"]
    again = kb.retrieve("heat")  # the same chunks keep their ids within the context
    assert [n.node.metadata["unified_search"]["citation_id"] for n in again] == [
        "ref_001",
        "ref_002",
        "ref_003",
    ]


def test_mode_any_returns_the_first_source_with_items(fakes) -> None:
    """mode="any" answers with the fast source and cancels the slow one, not waiting for it."""
    slow = fakes.FakeKB(delay=1.0)
    searcher = Searcher(handlers={"kb": slow, "web": fakes.FakeWeb()})
    nodes = UnifiedSearchRetriever(searcher, types=["kb", "web"], mode="any").retrieve("heat")
    assert slow.cancelled
    assert {n.node.metadata["unified_search"]["type"] for n in nodes} == {"web"}


@pytest.mark.parametrize("use_async", [False, True])
def test_works_as_a_query_fusion_sub_retriever(searcher: Searcher, use_async: bool) -> None:
    """QueryFusionRetriever fuses our nodes with reciprocal rank and keeps their metadata."""
    kb = UnifiedSearchRetriever(searcher, types=["kb"])
    web = UnifiedSearchRetriever(searcher, types=["web"])
    fusion = QueryFusionRetriever(
        [kb, web],
        llm=MockLLM(),
        mode="reciprocal_rerank",
        num_queries=1,
        use_async=use_async,
        similarity_top_k=4,
    )
    nodes = fusion.retrieve("heat pump")
    assert len(nodes) == 4
    # Reciprocal rank: the two first-ranked nodes (one per retriever) lead.
    assert {
        nodes[0].node.metadata["unified_search"]["title"],
        nodes[1].node.metadata["unified_search"]["title"],
    } == {
        "Heat pumps",
        "Heat pump guide",
    }
    assert all(n.node.metadata["unified_search"]["citation_id"].startswith("ref_") for n in nodes)


class KeywordSelector(BaseSelector):
    """Picks the choice whose description shares a word with the query (no LLM)."""

    def _select(self, choices: Sequence[ToolMetadata], query: QueryBundle) -> SelectorResult:
        words = set(query.query_str.lower().split())
        index = next(i for i, c in enumerate(choices) if words & set(c.description.lower().split()))
        return SelectorResult(selections=[SingleSelection(index=index, reason="shared word")])

    async def _aselect(self, choices: Sequence[ToolMetadata], query: QueryBundle) -> SelectorResult:
        return self._select(choices, query)

    def _get_prompts(self) -> dict:
        return {}

    def _update_prompts(self, prompts: dict) -> None:
        return None


@pytest.mark.parametrize("use_async", [False, True])
async def test_works_behind_a_router_retriever(searcher: Searcher, use_async: bool) -> None:
    """RouterRetriever routes a product question to the database retriever."""
    tools = [
        RetrieverTool.from_defaults(
            UnifiedSearchRetriever(searcher, types=["kb"]), description="documents manuals"
        ),
        RetrieverTool.from_defaults(
            UnifiedSearchRetriever(searcher, types=["db"]), description="products stock"
        ),
    ]
    router = RouterRetriever(selector=KeywordSelector(), retriever_tools=tools, llm=MockLLM())
    query = "which products are in stock"
    nodes = (
        await router.aretrieve(query)
        if use_async
        else await asyncio.to_thread(router.retrieve, query)
    )
    assert [
        (n.node.metadata["unified_search"]["type"], n.node.metadata["unified_search"]["record_id"])
        for n in nodes
    ] == [("db", "p1")]
