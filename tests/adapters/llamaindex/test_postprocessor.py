import pytest
from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode
from pydantic import ValidationError

from llama_index_unified_search import UnifiedRerankPostprocessor, citation_id_of, item_to_node
from unified_search.errors import ErrorCode, SearchError
from unified_search.rerank.registry import RERANKERS
from unified_search.types import ResultItem


def _nodes() -> list[NodeWithScore]:
    """Three cited nodes whose score × weight order differs from their list order."""
    items = [
        ResultItem(
            type="web",
            url="https://a.org/",
            content="a",
            score=0.9,
            weight=0.6,
            source="auto",
            citation_id="ref_001",
        ),
        ResultItem(
            type="kb", document_id="b", content="b", score=0.8, weight=1.0, citation_id="ref_002"
        ),
        ResultItem(
            type="db",
            model="m",
            record_id="c",
            content="c",
            score=0.5,
            weight=0.8,
            source="hook",
            citation_id="ref_003",
        ),
    ]
    return [item_to_node(item) for item in items]


def _snapshot(nodes: list[NodeWithScore]) -> list[dict]:
    return [n.model_dump() for n in nodes]


def test_weighted_orders_by_score_times_weight() -> None:
    """0.8×1.0 > 0.9×0.6 > 0.5×0.8: citation ids travel with their nodes."""
    ranked = UnifiedRerankPostprocessor().postprocess_nodes(_nodes(), query_str="q")
    assert [citation_id_of(n.node) for n in ranked] == ["ref_002", "ref_001", "ref_003"]
    assert [n.score for n in ranked] == pytest.approx([0.8, 0.54, 0.4])
    scores = [n.node.metadata["unified_search"]["rerank_score"] for n in ranked]
    assert scores == pytest.approx([0.8, 0.54, 0.4])


def test_top_n_keeps_the_best() -> None:
    ranked = UnifiedRerankPostprocessor(top_n=1).postprocess_nodes(_nodes(), query_str="q")
    assert [n.node.metadata["unified_search"]["citation_id"] for n in ranked] == ["ref_002"]


def test_input_nodes_are_never_changed() -> None:
    """New NodeWithScore and node objects come back; the input list and nodes are untouched."""
    nodes = _nodes()
    before = _snapshot(nodes)
    ranked = UnifiedRerankPostprocessor(top_n=2).postprocess_nodes(nodes, query_str="q")
    assert _snapshot(nodes) == before
    assert all(r is not n and r.node is not n.node for r in ranked for n in nodes)
    ranked[0].node.metadata["unified_search"]["title"] = "changed later"
    assert _snapshot(nodes) == before


def test_reranking_twice_is_stable() -> None:
    """The rerank score is kept out of the source score, so a second pass gives the same order."""
    rerank = UnifiedRerankPostprocessor()
    once = rerank.postprocess_nodes(_nodes(), query_str="q")
    twice = rerank.postprocess_nodes(once, query_str="q")
    assert [(n.node.node_id, n.score) for n in twice] == [(n.node.node_id, n.score) for n in once]
    assert twice[0].node.excluded_llm_metadata_keys.count("unified_search") == 1


def test_foreign_nodes_are_ranked_by_their_score() -> None:
    """Nodes from other retrievers (no citation metadata) rank by their NodeWithScore score."""
    nodes = [
        NodeWithScore(node=TextNode(id_=f"n{i}", text=t), score=s)
        for i, (t, s) in enumerate([("x", 0.1), ("y", 0.7), ("z", None)])
    ]
    ranked = UnifiedRerankPostprocessor().postprocess_nodes(nodes, query_str="q")
    assert [n.node.node_id for n in ranked] == ["n1", "n0", "n2"]
    assert "rerank_score" not in ranked[0].node.get_content("llm")


def test_duplicate_input_nodes_each_come_back_once() -> None:
    """Two equal nodes map back to two distinct outputs, not one twice."""
    node = _nodes()[1]
    ranked = UnifiedRerankPostprocessor().postprocess_nodes(
        [node, node.model_copy()], query_str="q"
    )
    assert len(ranked) == 2


async def test_async_path_matches_sync() -> None:
    rerank = UnifiedRerankPostprocessor(top_n=2)
    sync_order = [n.node.node_id for n in rerank.postprocess_nodes(_nodes(), query_str="q")]
    async_nodes = await rerank.apostprocess_nodes(_nodes(), query_bundle=QueryBundle("q"))
    assert [n.node.node_id for n in async_nodes] == sync_order


@pytest.mark.parametrize("name", sorted(RERANKERS))
async def test_every_registered_reranker_handles_empty_input(name: str) -> None:
    """Empty input returns an empty list without calling the reranker."""
    assert (
        await UnifiedRerankPostprocessor(reranker=name).apostprocess_nodes([], query_str="q") == []
    )


def test_unknown_reranker_fails_at_construction_listing_valid_names() -> None:
    with pytest.raises(SearchError, match=r"unknown reranker 'magic'.*weighted") as caught:
        UnifiedRerankPostprocessor(reranker="magic")
    assert caught.value.code is ErrorCode.UNSUPPORTED


@pytest.mark.parametrize("top_n", [0, -1])
def test_top_n_below_one_is_rejected_naming_the_field(top_n: int) -> None:
    with pytest.raises(ValidationError, match="top_n"):
        UnifiedRerankPostprocessor(top_n=top_n)


def test_query_is_required() -> None:
    with pytest.raises(ValueError, match="needs the query"):
        UnifiedRerankPostprocessor().postprocess_nodes(_nodes())


def test_config_and_searcher_are_exclusive(searcher) -> None:
    with pytest.raises(ValueError, match="one of session, searcher or config"):
        UnifiedRerankPostprocessor(searcher=searcher, config={})


def test_query_aware_reranker_puts_the_matching_node_first() -> None:
    """The intent reranker sees the query and the node text: the heat-pump node leads."""
    items = [
        ResultItem(
            type="web",
            url="https://a.org/",
            title="Solar prices",
            content="Solar panels cost less.",
            score=0.9,
            citation_id="ref_001",
        ),
        ResultItem(
            type="kb",
            document_id="hp",
            title="Heat pumps",
            content="A heat pump moves heat.",
            score=0.3,
            citation_id="ref_002",
        ),
    ]
    nodes = [item_to_node(item) for item in items]
    ranked = UnifiedRerankPostprocessor(reranker="intent").postprocess_nodes(
        nodes, query_str="how does a heat pump work"
    )
    assert [n.node.metadata["unified_search"]["citation_id"] for n in ranked] == [
        "ref_002",
        "ref_001",
    ]
    assert ranked[0].score > ranked[1].score
