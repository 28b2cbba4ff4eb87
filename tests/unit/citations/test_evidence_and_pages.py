"""The pieces of a citation check: terms, windows, the embedding cache, pages, the verifier's options."""

from __future__ import annotations

from typing import Any

import pytest

from unified_search.citations import evidence
from unified_search.citations.evidence import EmbeddingCache, coverage, terms, windows
from unified_search.citations.pages import breaks_of, page_at, page_label
from unified_search.citations.sentences import split_answer
from unified_search.citations.verify import CitationVerifier
from unified_search.types import Reference


def test_terms_stem_drop_stop_words_keep_negations_and_weigh_numbers() -> None:
    found = terms("The patients were NOT treated; 31,236 cases in 2003.")
    assert found["31236"] == 2.0 and found["2003"] == 2.0
    assert "not" in found and "the" not in found
    assert "patient" in found and "treat" in found


def test_coverage_is_the_weighted_share_found() -> None:
    sentence = terms("statins cut 20 deaths")
    assert coverage(sentence, terms("statins cut 20 deaths daily")) == 1.0
    assert coverage(sentence, terms("statins cut deaths")) == pytest.approx(3 / 5)
    assert coverage({}, terms("anything")) == 0.0


def test_windows_are_single_sentences_and_neighbouring_pairs_with_offsets() -> None:
    text = "First sentence here. Second one there. Third and last."
    found = windows(text)
    assert [w.text for w in found] == [
        "First sentence here.",
        "Second one there.",
        "Third and last.",
        "First sentence here. Second one there.",
        "Second one there. Third and last.",
    ]
    assert all(text[w.start : w.end] == w.text for w in found)


def test_the_embedding_cache_embeds_each_text_once_and_stays_bounded() -> None:
    calls: list[list[str]] = []

    def embed(texts: list[str]) -> list[list[float]]:
        calls.append(texts)
        return [[float(len(t)), 1.0] for t in texts]

    cache = EmbeddingCache(embed, size=3)
    assert cache.vectors(["a", "bb", "a"]) == [[1.0, 1.0], [2.0, 1.0], [1.0, 1.0]]
    assert cache.vectors(["bb"]) == [[2.0, 1.0]] and calls == [["a", "bb"]]
    cache.vectors(["ccc", "dddd"])  # past the size: the cache starts again
    assert cache.vectors(["a"]) == [[1.0, 1.0]] and calls[-1] == ["a"]


@pytest.mark.parametrize(
    ("meta", "offset", "page", "label"),
    [
        ({}, 0, None, None),
        ({"page": True}, 0, None, None),
        ({"page": 2}, 99, 2, "2"),
        ({"page": 2, "page_end": 2}, 5, 2, "2"),
        ({"page": 2, "page_end": 4, "page_breaks": "10,x,20"}, 15, 3, "2-4"),
        ({"page": 2, "page_end": 4, "page_breaks": 7}, 15, 2, "2-4"),
    ],
)
def test_pages(meta: dict[str, Any], offset: int, page: int | None, label: str | None) -> None:
    assert page_at(meta, offset) == page and page_label(meta) == label
    assert breaks_of(meta) in ([], [10, 20])


def test_a_span_knows_its_page_in_a_paged_chunk() -> None:
    content = "Leave is 25 days a year. Sick leave is paid from the first day."
    ref = Reference(
        id="ref_001",
        index=1,
        type="kb",
        source="user",
        weight=1.0,
        score=1.0,
        content=content,
        metadata={"page": 4, "page_end": 5, "page_breaks": str(content.index("Sick"))},
    )
    report = CitationVerifier(embedding=None).check(
        "Sick leave is paid from day one #ref:ref_001.", [ref]
    )
    span = report.sentences[0].span
    assert span is not None and span.page == 5 and span.text.startswith("Sick")


def test_an_unknown_embedding_name_is_refused() -> None:
    with pytest.raises(ValueError, match="embedding must be"):
        CitationVerifier(embedding="e5")


def test_without_the_bundled_model_the_check_is_lexical_and_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import unified_search.models.minilm as minilm

    def missing() -> Any:
        raise ImportError("onnxruntime is not installed")

    monkeypatch.setattr(minilm, "default_embedding", missing)
    report = CitationVerifier().check("Nothing cited here at all today.", [])
    assert report.method == "lexical"
    assert any("lexical evidence only" in w for w in report.warnings)


def test_embeddings_can_be_turned_off_in_the_configuration() -> None:
    from unified_search.config import CitationConfig

    checker = CitationVerifier(CitationConfig(verify={"embedding": False}))
    assert checker.embeddings() is None


def test_headings_and_lists_are_split_and_marked() -> None:
    split = split_answer(
        "## Results in full\n- Statins reduce deaths a lot\n1. Aspirin thins blood well",
        "#ref:{id}",
        None,
    )
    assert [(s.text, s.claim) for s in split.sentences] == [
        ("Results in full", False),
        ("Statins reduce deaths a lot", True),
        ("Aspirin thins blood well", True),
    ]


def test_stems_are_remembered_within_a_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(evidence, "_stems", {f"w{n}": "x" for n in range(200_001)})
    assert "glacier" in terms("glaciers")
    assert len(evidence._stems) < 10
