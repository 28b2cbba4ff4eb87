from __future__ import annotations

from pathlib import Path

import pytest

from unified_search.kb.association import associate, spans
from unified_search.kb.graph import extract, parse_extraction, query_entities
from unified_search.kb.sidestore import SideStore

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
    side = SideStore(tmp_path / "g.sqlite")
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
