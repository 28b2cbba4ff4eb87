from llama_index.core.schema import MetadataMode, NodeWithScore, TextNode

from llama_index_unified_search import ReferenceNode, item_to_node, node_to_item
from unified_search.types import ResultItem


def _kb_item(**update: object) -> ResultItem:
    item = ResultItem(
        type="kb",
        title='Heat "pumps"',
        content="moves heat & <saves> energy",
        score=0.8,
        weight=0.6,
        source="auto",
        citation_id="ref_002",
        collection="energy",
        document_id="heat-pumps",
        metadata={"rerank_score": 0.48},
    )
    return item.model_copy(update=update)


def test_item_to_node_carries_citation_metadata_and_rank_score() -> None:
    """A node's metadata names the citation and its origin; its score is the rerank score."""
    scored = item_to_node(_kb_item())
    assert isinstance(scored.node, ReferenceNode)
    assert scored.score == 0.48
    meta = scored.node.metadata["unified_search"]
    assert meta["citation_id"] == "ref_002"
    assert (meta["type"], meta["source"], meta["weight"]) == ("kb", "auto", 0.6)
    assert (meta["collection"], meta["document_id"]) == ("energy", "heat-pumps")
    assert "url" not in meta and "record_id" not in meta


def test_node_ids_are_stable_for_the_same_item_and_differ_otherwise() -> None:
    """The id depends on the item's identity only, not on score or citation."""
    first = item_to_node(_kb_item()).node.node_id
    again = item_to_node(_kb_item(score=0.1, citation_id="ref_009")).node.node_id
    other = item_to_node(_kb_item(document_id="solar")).node.node_id
    assert first == again != other
    web = [
        ResultItem(type="web", url=u, citation_id="ref_001")
        for u in ("https://a.org/x?utm_source=y", "https://a.org/x")
    ]
    assert item_to_node(web[0]).node.node_id == item_to_node(web[1]).node.node_id


def test_round_trip_keeps_every_field() -> None:
    """node_to_item(item_to_node(item)) gives the item back."""
    for item in (
        _kb_item(),
        ResultItem(
            type="db",
            model="products",
            record_id="7",
            data={"price": 9},
            citation_id="ref_001",
            content="row",
        ),
        ResultItem(type="web", url="https://example.org/", title="t", citation_id="ref_003"),
    ):
        assert node_to_item(item_to_node(item)) == item


def test_llm_mode_shows_the_escaped_reference_element() -> None:
    """Prompts see the core's <ref> element; embeddings and plain reads see the text."""
    node = item_to_node(_kb_item()).node
    rendered = node.get_content(MetadataMode.LLM)
    assert rendered.startswith(
        '<ref id="ref_002" type="kb" source="auto" weight="0.6" title="Heat &quot;pumps&quot;">'
    )
    assert rendered.endswith("moves heat &amp; &lt;saves&gt; energy</ref>")
    assert node.get_content() == "moves heat & <saves> energy"
    assert "citation_id" not in node.get_content(MetadataMode.EMBED)


def test_foreign_node_becomes_a_kb_item_keyed_by_node_id() -> None:
    """A node from another retriever ranks as a knowledge-base item with its own score."""
    metadata = {"title": "T", "type": "pdf", "citation_id": "x"}
    foreign = NodeWithScore(node=TextNode(id_="n-1", text="plain", metadata=metadata), score=0.3)
    item = node_to_item(foreign)
    assert (item.type.value, item.document_id, item.content, item.score) == (
        "kb",
        "n-1",
        "plain",
        0.3,
    )
    assert item.metadata == metadata and item.citation_id is None
    assert node_to_item(NodeWithScore(node=TextNode(text="x"), score=None)).score == 0.0


def test_uncited_reference_node_renders_like_a_text_node() -> None:
    """Without a citation id there is no <ref> to show."""
    node = ReferenceNode(text="body", metadata={"title": "T"})
    assert node.get_content(MetadataMode.LLM) == TextNode(
        text="body", metadata={"title": "T"}
    ).get_content(MetadataMode.LLM)
