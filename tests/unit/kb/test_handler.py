from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from unified_search.config import SearchConfig
from unified_search.contract.delegates import Delegates
from unified_search.contract.handler import SearchContext
from unified_search.errors import ErrorCode, SearchError
from unified_search.kb.chunking import Document
from unified_search.kb.collection import unit
from unified_search.kb.handler import KBHandler
from unified_search.types import SearchRequest

DOCS = [
    {
        "id": "vec",
        "title": "Vector stores",
        "text": "Chroma keeps embeddings in a vector index for similarity search.",
    },
    {
        "id": "bm25",
        "title": "Lexical ranking",
        "text": "BM25 ranks documents by term frequency and inverse document frequency.",
    },
    {
        "id": "pasta",
        "title": "Cooking",
        "text": "Boil pasta in salted water and serve with tomato sauce.",
        "metadata": {"lang": "en", "year": 2020},
    },
]


def req(query: str, **extra: Any) -> SearchRequest:
    return SearchRequest(query=query, type="kb", **extra)


async def test_ingestion_is_idempotent_and_skips_unchanged_chunks(
    kb: KBHandler, embedding: Any
) -> None:
    first = await kb.aadd_documents("notes", DOCS)
    assert (first.added, first.unchanged, first.chunks_added) == (3, 0, 3)
    embedded = len(embedding.embedded)
    second = await kb.aadd_documents("notes", DOCS)
    assert (second.added, second.unchanged, second.chunks_added, second.chunks_removed) == (
        0,
        3,
        0,
        0,
    )
    assert len(embedding.embedded) == embedded  # nothing embedded again


async def test_changed_document_replaces_its_old_chunks(kb: KBHandler, ctx: SearchContext) -> None:
    await kb.aadd_documents("notes", DOCS)
    changed = await kb.aadd_documents(
        "notes", [{"id": "pasta", "title": "Cooking", "text": "Risotto needs arborio rice."}]
    )
    assert (changed.added, changed.chunks_added, changed.chunks_removed) == (1, 1, 1)
    result = await kb.asearch(req("pasta tomato sauce", threshold=0.99), ctx)
    assert all("tomato" not in item.content for item in result.items)
    assert (
        next(i.document_id for i in (await kb.asearch(req("arborio rice risotto"), ctx)).items)
        == "pasta"
    )


async def test_empty_and_non_text_documents_are_skipped_and_counted(kb: KBHandler) -> None:
    report = await kb.aadd_documents(
        "notes", ["", "   ", 42, {"text": None}, {"title": "no text"}, "Real text here."]
    )  # type: ignore[list-item]
    assert report.added == 1
    reasons = {s.index: s.reason for s in report.skipped}
    assert reasons[0] == reasons[1] == "empty text"
    assert (
        reasons[2].startswith("not text")
        and reasons[3].startswith("not text")
        and reasons[4].startswith("not text")
    )


async def test_hybrid_order_on_a_tiny_corpus(kb: KBHandler, ctx: SearchContext) -> None:
    await kb.aadd_documents("notes", DOCS)
    result = await kb.asearch(req("term frequency ranking of documents"), ctx)
    assert result.items[0].document_id == "bm25"
    item = result.items[0]
    assert item.title == "Lexical ranking" and item.collection == "notes" and 0 < item.score <= 1
    assert item.metadata["lexical_score"] > 0 and 0 <= item.metadata["similarity"] <= 1
    assert item.metadata["chunk"] == 0 and item.metadata["start"] == 0


async def test_threshold_drops_dissimilar_chunks_without_shared_terms(
    kb: KBHandler, ctx: SearchContext
) -> None:
    await kb.aadd_documents("notes", DOCS)
    loose = await kb.asearch(req("similarity search", threshold=0.0), ctx)
    strict = await kb.asearch(req("similarity search", threshold=0.99), ctx)
    assert len(loose.items) == 3
    assert [i.document_id for i in strict.items] == ["vec"]  # kept for its shared terms


def test_threshold_outside_0_1_is_a_validation_error() -> None:
    with pytest.raises(ValidationError, match="threshold"):
        req("x", threshold=1.5)
    with pytest.raises(ValueError, match="threshold"):
        SearchConfig.load(profile={"kb": {"threshold": -0.1}})


async def test_metadata_filter(kb: KBHandler, ctx: SearchContext) -> None:
    await kb.aadd_documents("notes", DOCS)
    result = await kb.asearch(
        req("search documents pasta", threshold=0.0, options={"where": {"year": 2020}}), ctx
    )
    assert [i.document_id for i in result.items] == ["pasta"]
    with pytest.raises(SearchError) as info:
        await kb.asearch(req("x", options={"where": "year=2020"}), ctx)
    assert info.value.code is ErrorCode.INVALID_QUERY


async def test_several_collections_are_merged_and_deduplicated(
    kb: KBHandler, ctx: SearchContext
) -> None:
    await kb.aadd_documents("alpha", DOCS[:2])
    await kb.aadd_documents("beta", DOCS[1:])
    result = await kb.asearch(
        req("BM25 term frequency", collections=["alpha", "beta"], threshold=0.0), ctx
    )
    ids = [i.document_id for i in result.items]
    assert ids.count("bm25") == 1 and set(ids) == {"vec", "bm25", "pasta"}
    everywhere = await kb.asearch(
        req("BM25 term frequency", threshold=0.0), ctx
    )  # no names: all collections
    assert everywhere.metadata["collections"] == ["alpha", "beta"]


async def test_unknown_collection_lists_existing_ones(kb: KBHandler, ctx: SearchContext) -> None:
    await kb.aadd_documents("notes", DOCS)
    with pytest.raises(SearchError) as info:
        await kb.asearch(req("x", collections=["nope"]), ctx)
    assert info.value.code is ErrorCode.INVALID_QUERY
    assert "nope" in info.value.message and "notes" in info.value.message


async def test_one_failing_collection_does_not_hide_the_others(
    kb: KBHandler, ctx: SearchContext
) -> None:
    await kb.aadd_documents("notes", DOCS)
    await kb.aadd_documents("empty", [""])
    result = await kb.asearch(req("BM25", collections=["notes", "empty"]), ctx)
    assert result.items and result.failures[0].code is ErrorCode.INVALID_QUERY
    assert "empty" in result.failures[0].message


async def test_empty_collection_and_no_collection_are_clear_errors(
    kb: KBHandler, ctx: SearchContext
) -> None:
    with pytest.raises(SearchError, match="no collections"):
        await kb.asearch(req("x"), ctx)
    await kb.aadd_documents("empty", [""])
    with pytest.raises(SearchError, match="empty"):
        await kb.asearch(req("x", collections=["empty"]), ctx)


async def test_invalid_collection_name(kb: KBHandler) -> None:
    with pytest.raises(SearchError) as info:
        await kb.aadd_documents("a", DOCS)
    assert info.value.code is ErrorCode.INVALID_QUERY and "collection name" in info.value.message


async def test_embedding_model_mismatch_is_refused(
    config: SearchConfig, kb: KBHandler, ctx: SearchContext, make_embedding: Any
) -> None:
    await kb.aadd_documents("notes", DOCS)
    other = KBHandler.from_config(config, embedding=make_embedding(name="another-model"))
    with pytest.raises(SearchError) as info:
        await other.asearch(req("BM25", collections=["notes"]), ctx)
    assert info.value.code is ErrorCode.UNSUPPORTED
    assert "hash-64" in info.value.message and "another-model" in info.value.message
    with pytest.raises(SearchError):
        await other.aadd_documents("notes", DOCS)
    assert (await kb.asearch(req("BM25"), ctx)).items  # nothing indexed was lost
    await other.aclose()


@pytest.mark.parametrize("marker", [{}, {"index_format": 1}, {"index_format": 99}])
async def test_a_collection_of_another_index_format_is_refused_with_what_to_do(
    config: SearchConfig, ctx: SearchContext, make_embedding: Any, marker: dict[str, int]
) -> None:
    handler = KBHandler.from_config(config, embedding=make_embedding())
    # What an earlier (no marker, or format 1) or a later version left in the data folder.
    handler._client.create_collection(
        "older", metadata={"embedding_model": "hash-64", **marker}, embedding_function=None
    )
    for attempt in (
        handler.asearch(req("BM25", collections=["older"]), ctx),
        handler.aadd_documents("older", DOCS),
    ):
        with pytest.raises(SearchError) as info:
            await attempt
        assert info.value.code is ErrorCode.UNSUPPORTED
        found = marker.get("index_format", 1)
        assert f"indexed in format {found}" in info.value.message
        assert "index its documents again" in info.value.message
    await handler.aadd_documents("newer", DOCS)  # other collections are untouched
    assert (await handler.asearch(req("BM25", collections=["newer"]), ctx)).items
    await handler.aclose()


async def test_delete_documents(kb: KBHandler, ctx: SearchContext) -> None:
    await kb.aadd_documents("notes", DOCS)
    assert await kb.adelete_documents("notes", ["bm25", "missing"]) == 1
    result = await kb.asearch(req("BM25 term frequency", threshold=0.0), ctx)
    assert "bm25" not in [i.document_id for i in result.items]


async def test_long_documents_return_several_chunks_or_one_when_grouped(
    tmp_path: Path, make_embedding: Any
) -> None:
    config = SearchConfig.load(
        profile={"kb": {"data_dir": str(tmp_path), "chunking": {"size": 32, "overlap": 4}}}
    )
    kb = KBHandler.from_config(config, embedding=make_embedding())
    text = " ".join(f"Paragraph {i} mentions glaciers and ice sheets melting." for i in range(30))
    report = await kb.aadd_documents(
        "notes", [Document(id="long", text=text, source="https://example.org/ice")]
    )
    assert report.chunks_added > 5
    result = await kb.asearch(
        req("glaciers ice sheets", limit=5), SearchContext(config=config, request_id="r")
    )
    assert [i.document_id for i in result.items] == ["long"] * 5  # top_n counts chunks
    assert len({i.metadata["chunk_id"] for i in result.items}) == 5
    assert result.items[0].url == "https://example.org/ice"
    grouped = await kb.asearch(
        req("glaciers ice sheets", limit=5, options={"group_by_document": True}),
        SearchContext(config=config, request_id="r"),
    )
    assert [i.document_id for i in grouped.items] == ["long"]
    assert grouped.items[0].metadata["chunk_id"] == result.items[0].metadata["chunk_id"]
    await kb.aclose()


async def test_progress_and_logs(kb: KBHandler, config: SearchConfig, log: Any) -> None:
    seen: list[tuple[str, int, int, int]] = []
    await kb.aadd_documents(
        "notes",
        DOCS,
        progress=lambda u: seen.append((u.stage, u.done, u.total, u.stored)),
        ctx=SearchContext(config=config, request_id="r", log=log),
    )
    assert seen[0] == ("embedding", 0, 3, 0) and seen[-1] == ("embedding", 3, 3, 3)
    assert any("3 added" in message for _, message in log.lines)


async def test_graph_fills_entities_relations_and_nodes(kb: KBHandler, ctx: SearchContext) -> None:
    await kb.aadd_documents(
        "notes",
        [
            {
                "id": "curie",
                "text": "Marie Curie worked at the CNRS with Pierre Curie on radioactivity.",
            },
            {"id": "other", "text": "The NASA budget grew."},
        ],
    )
    plain = await kb.asearch(req("What did the CNRS study?"), ctx)
    assert plain.graph_nodes == [] and plain.entities == []
    result = await kb.asearch(req("What did the CNRS study?", graph=True), ctx)
    assert [e.name for e in result.entities] == ["CNRS"]
    assert {"Marie Curie", "Pierre Curie"} <= {n.name for n in result.graph_nodes}
    assert all(r.source == "CNRS" for r in result.relations)
    assert "curie" in [i.document_id for i in result.items]


async def test_graph_extraction_by_agent(tmp_path: Path, make_embedding: Any) -> None:
    calls: list[dict[str, Any]] = []

    def agent(payload: dict[str, Any]) -> dict[str, Any]:
        calls.append(payload)
        return {
            "entities": [{"name": "Zorblax", "type": "protein"}, {"name": "Quux", "type": "gene"}],
            "relations": [{"source": "Zorblax", "target": "Quux", "type": "binds"}],
        }

    config = SearchConfig.load(
        profile={"kb": {"data_dir": str(tmp_path), "graph": {"uses": "extractor"}}}
    )
    kb = KBHandler.from_config(
        config, embedding=make_embedding(), delegates=Delegates({"extractor": agent})
    )
    await kb.aadd_documents("notes", ["some text about proteins"])
    assert calls[0]["task"] == "extract_entities" and calls[0]["text"] == "some text about proteins"
    result = await kb.asearch(
        req("zorblax", graph=True), SearchContext(config=config, request_id="r")
    )
    assert [(n.name, n.relation) for n in result.graph_nodes] == [
        ("Zorblax", None),
        ("Quux", "co_occurs with Zorblax"),
    ]
    await kb.aclose()


def test_sync_twins(config: SearchConfig, make_embedding: Any) -> None:
    kb = KBHandler.from_config(config, embedding=make_embedding())
    assert kb.add_documents("notes", DOCS).added == 3
    assert kb.list_collections() == ["notes"]
    assert kb.delete_documents("notes", ["vec"]) == 1


def test_kb_config_rejects_unknown_keys_and_bad_fusion() -> None:
    with pytest.raises(ValueError, match=r"kb\.hybrid\.fusion"):
        SearchConfig.load(profile={"kb": {"hybrid": {"fusion": "max"}}})
    with pytest.raises(ValueError, match="unknown key"):
        SearchConfig.load(profile={"kb": {"chroma": "x"}})
    with pytest.raises(ValueError, match="chroma_url"):
        KBHandler.from_config(SearchConfig.load(profile={"kb": {"chroma_url": "localhost:8000"}}))


async def test_exact_in_memory_dense_search_matches_chroma(
    kb: KBHandler, config: SearchConfig
) -> None:
    await kb.aadd_documents("notes", DOCS)
    via_chroma = config.merged({"kb": {"hybrid": {"exact_limit": 0}}})
    for query in ("similarity search in a vector index", "pasta sauce", "document frequency"):
        exact = await kb.asearch(
            req(query, threshold=0.0), SearchContext(config=config, request_id="a")
        )
        hnsw = await kb.asearch(
            req(query, threshold=0.0), SearchContext(config=via_chroma, request_id="b")
        )
        assert [i.document_id for i in exact.items] == [i.document_id for i in hnsw.items]
        for a, b in zip(exact.items, hnsw.items, strict=True):
            assert a.metadata["similarity"] == pytest.approx(b.metadata["similarity"], abs=1e-4)


async def test_a_collection_searched_through_chroma_ranks_as_the_exact_search(
    kb: KBHandler, config: SearchConfig
) -> None:
    """Chroma's path asks it for some vectors and reuses the first fusion's similarities:
    rankings, fused scores and similarities match the exact path over every vector."""
    words = [
        "river",
        "bank",
        "loan",
        "interest",
        "water",
        "flood",
        "credit",
        "stone",
        "bridge",
        "rate",
        "fish",
        "boat",
    ]
    rng = random.Random(4)
    docs = [
        {
            "id": f"d{n}",
            "title": " ".join(rng.sample(words, 2)),
            "text": " ".join(rng.choices(words, k=12)),
        }
        for n in range(150)
    ]
    await kb.aadd_documents("many", docs)
    via_chroma = config.merged({"kb": {"hybrid": {"exact_limit": 0}}})
    coll = await kb._collection("many")
    for query in ("river bank", "loan interest rate", "stone bridge over water", "fish"):
        asked = req(query, threshold=0.0, collections=["many"], limit=10)
        exact = await kb.asearch(asked, SearchContext(config=config, request_id="a"))
        hnsw = await kb.asearch(asked, SearchContext(config=via_chroma, request_id="b"))
        assert [i.document_id for i in exact.items] == [i.document_id for i in hnsw.items], query
        for a, b in zip(exact.items, hnsw.items, strict=True):
            assert a.score == pytest.approx(b.score, abs=1e-4)
            assert a.metadata["similarity"] == pytest.approx(b.metadata["similarity"], abs=1e-4)
        # The similarity reported is to the query's own vector (not the one feedback moved).
        held = coll.vectors([i.metadata["chunk_id"] for i in hnsw.items])
        mine = unit(kb.embedding([query])[0])
        for item in hnsw.items:
            cosine = min(1.0, max(0.0, float(held[item.metadata["chunk_id"]] @ mine)))
            assert item.metadata["similarity"] == pytest.approx(cosine, abs=1e-5)


async def test_unnormalised_vectors_still_give_cosine_in_0_1(
    config: SearchConfig, ctx: SearchContext
) -> None:
    def scaled(texts: list[str]) -> list[list[float]]:
        return [[3.0 * (len(t) % 7 + 1), 2.0, 1.0] for t in texts]

    kb = KBHandler.from_config(config, embedding=_named(scaled, "scaled"))
    await kb.aadd_documents("notes", DOCS)
    result = await kb.asearch(req("pasta", threshold=0.0), ctx)
    assert all(0.0 <= i.metadata["similarity"] <= 1.0 for i in result.items)
    await kb.aclose()


def _named(function: Any, name: str) -> Any:
    function.name = name
    return function


async def test_an_embedding_with_a_query_form_embeds_queries_that_way(
    config: SearchConfig, ctx: SearchContext, make_embedding: Any
) -> None:
    class Asymmetric(make_embedding):  # type: ignore[misc, valid-type]
        def __init__(self) -> None:
            super().__init__(name="asymmetric")
            self.queries: list[str] = []

        def embed_query(self, text: str) -> list[float]:
            self.queries.append(text)
            return self([f"query {text}"])[0]

    embedding = Asymmetric()
    handler = KBHandler.from_config(config, embedding=embedding)
    await handler.aadd_documents("notes", DOCS)
    documents = list(embedding.embedded)
    assert (await handler.asearch(req("BM25 ranking", collections=["notes"]), ctx)).items
    assert embedding.queries == ["BM25 ranking"]
    assert embedding.embedded[len(documents) :] == ["query BM25 ranking"]
    await handler.aclose()


async def test_text_is_stored_once_beside_the_vectors(kb: KBHandler, ctx: SearchContext) -> None:
    await kb.aadd_documents("notes", DOCS)
    coll = await kb._collection("notes")
    in_chroma = coll.chroma.get(include=["documents", "metadatas"])
    assert len(in_chroma["ids"]) == 3 and in_chroma["documents"] == [None] * 3
    assert {m["document_id"] for m in in_chroma["metadatas"]} == {"vec", "bm25", "pasta"}
    where = {"where": {"lang": "en"}}  # Chroma's metadata still filters
    found = await kb.asearch(req("pasta in salted water", options=where), ctx)
    assert [i.document_id for i in found.items] == ["pasta"]
    assert found.items[0].content.startswith("Boil pasta")
