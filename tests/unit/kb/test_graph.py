from __future__ import annotations

from pathlib import Path

import pytest

from unified_search.kb.association import associate, spans
from unified_search.kb.graph import (
    CO_OCCURS,
    Extraction,
    extract,
    extract_entities,
    parse_extraction,
    query_entities,
)
from unified_search.kb.sidestore import SideStore
from unified_search.types import Entity, Relation

TEXT = (
    "Marie Curie worked with the CNRS on radium isotopes. Radium isotopes decay quickly, "
    "and Pierre Curie measured it with an MRI-free method."
)


def test_extractor_finds_names_acronyms_and_repeated_phrases() -> None:
    found = {e.name: e.type for e in extract(TEXT).entities}
    assert found["Marie Curie"] == "name"
    assert found["Pierre Curie"] == "name"
    assert found["CNRS"] == "acronym"
    assert found["radium isotopes"] == "phrase"
    assert "The" not in found and "and" not in found


def test_relations_are_co_occurrences_within_the_text() -> None:
    relations = {(r.source, r.target) for r in extract(TEXT).relations}
    assert ("Marie Curie", "CNRS") in relations or ("CNRS", "Marie Curie") in relations
    assert all(r.type == "co_occurs" for r in extract(TEXT).relations)


def test_query_entities_accept_single_phrases() -> None:
    names = {e.name for e in query_entities("effects of radium isotopes on DNA")}
    assert {"radium isotopes", "DNA"} <= names


def test_parse_agent_answer_drops_malformed_entries() -> None:
    parsed = parse_extraction(
        {
            "entities": [
                {"name": "Chroma", "type": "product"},
                {"type": "x"},
                "junk",
                {"name": " "},
            ],
            "relations": [{"source": "Chroma", "target": "HNSW"}, {"source": "Chroma"}],
        }
    )
    assert [(e.name, e.type) for e in parsed.entities] == [("Chroma", "product")]
    assert [(r.source, r.target, r.type) for r in parsed.relations] == [
        ("Chroma", "HNSW", "related_to")
    ]
    with pytest.raises(ValueError, match="mapping"):
        parse_extraction(["not", "a", "mapping"])


def test_spans_are_lowercased_ngrams() -> None:
    assert {"radium", "radium isotopes", "of radium isotopes"} <= spans("Of Radium isotopes")


def test_association_walks_the_neighbourhood(tmp_path: Path) -> None:
    side = SideStore.local(tmp_path / "g.sqlite")
    side.add_graphs(
        [("c1", extract(TEXT)), ("c2", extract("The CNRS funds NASA. NASA and the CNRS agree."))]
    )
    found = associate(side, "What did the CNRS do?", max_nodes=10, max_chunks=5)
    assert [e.name for e in found.entities] == ["CNRS"]
    assert found.nodes[0].name == "CNRS" and found.nodes[0].relation is None
    neighbours = {n.name for n in found.nodes[1:]}
    assert {"Marie Curie", "NASA"} <= neighbours
    assert all(0 < n.score <= 1 for n in found.nodes)
    assert {cid for cid, _ in found.chunks} == {"c1", "c2"}
    side.delete_chunks(["c2"])
    again = associate(side, "What did the CNRS do?", max_nodes=10, max_chunks=5)
    assert "NASA" not in {n.name for n in again.nodes}
    assert associate(side, "nothing known here", 10, 5).nodes == []
    side.close()


def test_indexing_extracts_the_entities_of_extract() -> None:
    for text in (TEXT, "The CNRS funds NASA. NASA and the CNRS agree.", "", "no names here"):
        assert extract_entities(text) == extract(text).entities


def test_co_occurrence_comes_from_mentions_and_typed_relations_add_to_it(tmp_path: Path) -> None:
    side = SideStore.local(tmp_path / "g.sqlite")
    nasa, cnrs, esa = (Entity(name=n, type="acronym") for n in ("NASA", "CNRS", "ESA"))
    side.add_graphs(
        [
            (
                "c1",
                Extraction([nasa, cnrs], [Relation(source="NASA", target="CNRS", type=CO_OCCURS)]),
            ),
            (
                "c2",
                Extraction(
                    [nasa, cnrs, esa], [Relation(source="ESA", target="NASA", type="funds")]
                ),
            ),
            ("c3", Extraction([esa])),
        ]
    )
    with side.engine.connect() as conn:
        stored = conn.exec_driver_sql("SELECT source, target, type FROM relations").all()
    assert stored == [("esa", "nasa", "funds")]  # co-occurrence is not written twice
    # CNRS: two chunks with NASA; ESA: one chunk with NASA plus its typed relation.
    assert [(k, w) for k, _, _, w in side.neighbours("nasa", 10)] == [("cnrs", 2), ("esa", 2)]
    assert [(k, w) for k, _, _, w in side.neighbours("esa", 10)] == [("nasa", 2), ("cnrs", 1)]
    side.delete_chunks(["c2"])
    assert [(k, w) for k, _, _, w in side.neighbours("nasa", 10)] == [("cnrs", 1)]
    assert side.neighbours("esa", 10) == []
    side.close()


def test_side_store_commits_without_waiting_for_the_disk(tmp_path: Path) -> None:
    side = SideStore.local(tmp_path / "w.sqlite")
    with side.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 1  # NORMAL
    side.close()
