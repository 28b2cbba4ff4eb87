from __future__ import annotations

import numpy as np
import pytest

from unified_search.config.kb import HybridConfig
from unified_search.fusion import Ranking, reciprocal_rank
from unified_search.kb.fusion import fuse
from unified_search.kb.lexical import LexicalIndex, analyze, document_terms, top_k


def test_analyze_stems_and_drops_stop_words() -> None:
    assert analyze("The running of the Vectors") == ["run", "vector"]


def test_title_counts_boost_times() -> None:
    assert document_terms("Graphs", "graphs and trees", 2).count("graph") == 3


def test_bm25_prefers_matching_documents_and_is_deterministic() -> None:
    index = LexicalIndex(
        ["a", "b", "c"],
        [
            analyze("vector databases store embeddings"),
            analyze("cooking pasta"),
            analyze("vector math"),
        ],
    )
    ids, scores = index.search(analyze("vector embeddings"), k=5)
    assert ids == ["a", "c"]
    assert scores[0] > scores[1] > 0


def test_pseudo_relevance_feedback_finds_related_documents() -> None:
    docs = {
        "a": "glioma tumour growth glioma tumour",
        "b": "tumour glioma biopsy",
        "c": "biopsy biopsy needle",
        "d": "pasta recipe",
    }
    index = LexicalIndex(list(docs), [analyze(t) for t in docs.values()])
    plain, _ = index.search(analyze("glioma"), k=5)
    expanded, _ = index.search(analyze("glioma"), k=5, prf_docs=2, prf_terms=3)
    assert "c" not in plain
    assert "c" in expanded and "d" not in expanded


def test_empty_index_returns_nothing() -> None:
    assert LexicalIndex([], []).search(["x"], k=3) == ([], [])


def test_top_k_breaks_ties_by_id() -> None:
    scores = np.array([1.0, 2.0, 1.0, 1.0, 0.0], dtype=np.float32)
    assert top_k(["d", "a", "c", "b", "e"], scores, 3) == (["a", "b", "c"], [2.0, 1.0, 1.0])


@pytest.mark.parametrize("keep_zero", [False, True])
def test_top_k_matches_a_full_sort_on_scores_with_ties_and_zeros(keep_zero: bool) -> None:
    rng = np.random.default_rng(5)
    for trial in range(300):
        n = int(rng.integers(0, 40))
        # Few distinct values: many ties, and zeros in most arrays.
        scores = rng.choice([0.0, 0.0, 0.5, 1.0, 1.5, 2.0], size=n).astype(np.float32)
        ids = [f"{rng.integers(1000):03d}-{i}" for i in range(n)]
        k = int(rng.integers(0, n + 3))
        kept = [i for i in range(n) if keep_zero or scores[i] > 0]
        expected = sorted(kept, key=lambda i: (-float(scores[i]), ids[i]))[:k]
        assert top_k(ids, scores, k, keep_zero=keep_zero) == (
            [ids[i] for i in expected],
            [float(scores[i]) for i in expected],
        ), (trial, scores.tolist(), k)


def test_default_convex_fusion_scales_by_the_best_score() -> None:
    # Cosines all close: min-max would stretch 0.62 vs 0.6 into 1 vs 0; max keeps them close.
    dense = Ranking(["a", "b"], [0.62, 0.6])
    lexical = Ranking(["b", "a"], [10.0, 6.0])
    by_max = fuse(dense, lexical, HybridConfig())
    by_minmax = fuse(dense, lexical, HybridConfig(scale="minmax"))
    w = HybridConfig().dense_weight
    assert [i for i, _ in by_max] == ["b", "a"]
    assert by_max[0][1] == pytest.approx(w * 0.6 / 0.62 + (1 - w))
    assert [i for i, _ in by_minmax] == ["a", "b"]  # w * 1 + 0 against 0 + (1 - w)


def test_unknown_scale_is_a_validation_error_naming_the_field() -> None:
    with pytest.raises(ValueError, match="scale"):
        HybridConfig(scale="zscore")  # type: ignore[arg-type]


def test_rrf_fusion_weighs_the_dense_side_by_dense_weight() -> None:
    dense, lexical = Ranking(["x", "y", "z"], [3, 2, 1]), Ranking(["y", "z"], [5, 4])
    fused = fuse(dense, lexical, HybridConfig(fusion="rrf", dense_weight=0.9, rrf_k=10))
    expected = reciprocal_rank([dense.ids, lexical.ids], [0.9, 0.1], 10)
    assert [i for i, _ in fused] == [i for i, _ in expected] == ["y", "x", "z"]
    assert [s for _, s in fused] == pytest.approx([s for _, s in expected])
    even = fuse(dense, lexical, HybridConfig(fusion="rrf", rrf_k=10))
    assert [i for i, _ in even] == ["y", "z", "x"]


@pytest.mark.parametrize("fusion", ["convex", "rrf", "dense", "lexical"])
def test_every_fusion_handles_empty_rankings(fusion: str) -> None:
    empty = Ranking([], [])
    assert fuse(empty, empty, HybridConfig(fusion=fusion)) == []  # type: ignore[arg-type]


def test_unknown_fusion_is_a_validation_error_naming_the_field() -> None:
    with pytest.raises(ValueError, match="fusion"):
        HybridConfig(fusion="max")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "text",
    [
        "Running runners ran; the runner runs and is running.",
        "Étude des protéines: les protéines étudiées, studies of studied proteins",
        "",
        "a an the of",
        "Vectors vectorised VECTOR vectorising 2024 x86_64 data-driven",
    ],
)
def test_analyze_matches_stemming_every_word_however_full_the_stem_table(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bm25s
    import Stemmer

    from unified_search.kb import lexical

    stemmer = Stemmer.Stemmer("english")
    stop = set(bm25s.stopwords.STOPWORDS_EN)
    expected = stemmer.stemWords([w for w in lexical._TOKEN.findall(text.lower()) if w not in stop])
    assert analyze(text) == expected
    assert analyze(text) == expected  # every word now answered from the table
    monkeypatch.setattr(lexical, "MAX_STEMS", 0)  # every call starts a new table
    assert analyze(text) == expected and analyze(f"{text} {text}") == expected * 2
