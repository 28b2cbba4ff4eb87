"""Synthesis formatting: one line each, grouped by topic, or an overview, by list size."""

from __future__ import annotations

from unified_search.policy.synthesis import synthesize, topics
from unified_search.types import ResultItem


def web(n: int, topic: str, host: str = "example.com") -> ResultItem:
    return ResultItem(
        type="web",
        title=f"Kubernetes {topic} guide {n}",
        url=f"https://{host}/{n}",
        content=f"How {topic} works in Kubernetes clusters.",
        score=round(1 - n / 100, 2),
        citation_id=f"ref_{n:03d}",
    )


def test_empty_list() -> None:
    assert synthesize([]) == "No results."
    assert synthesize([], query="rust") == "No results for 'rust'."


def test_short_list_one_line_each_with_everything() -> None:
    items = [
        web(1, "ingress"),
        ResultItem(type="kb", title="Doc", content="local", collection="notes", score=0.5),
    ]
    assert synthesize(items).splitlines() == [
        "1. [ref_001] Kubernetes ingress guide 1 <https://example.com/1> — How ingress works in Kubernetes clusters. [web user] score 0.99",
        "2. Doc — local [kb user notes] score 0.50",
    ]


def test_rerank_score_is_shown_when_present() -> None:
    item = ResultItem(type="kb", title="t", score=0.1, metadata={"rerank_score": 0.75})
    assert synthesize([item]).endswith("score 0.75")


def test_untrusted_text_cannot_break_lines() -> None:
    item = ResultItem(
        type="web", title="evil\ntitle\x00", url="https://e.org", content="a\r\n\tb" + "c" * 500
    )
    text = synthesize([item])
    assert "\n" not in text
    assert "evil title" in text and "…" in text


def test_medium_list_is_grouped_by_shared_keyword() -> None:
    names = ["ingress", "helm", "ingress", "helm", "operator", "ingress", "helm", "scheduler"]
    items = [web(n, topic) for n, topic in enumerate(names, start=1)]
    lines = synthesize(items, query="kubernetes").splitlines()
    headings = [line for line in lines if not line.startswith("  ")]
    assert headings == ["ingress (3):", "helm (3):", "Other (2):"]
    assert lines[1].startswith("  1. [ref_001]") and lines[3].startswith("  6. [ref_006]")
    assert len(lines) == 3 + len(items)


def test_topics_ignore_query_words_and_words_every_item_has() -> None:
    items = [web(1, "ingress"), web(2, "ingress"), web(3, "helm")]
    assert topics(items, "kubernetes") == ["ingress", "ingress", "Other"]


def test_long_list_is_an_overview_top_five_and_sources() -> None:
    items = [web(n, "ingress", host="a.io" if n % 2 else "b.io") for n in range(1, 17)]
    items.append(ResultItem(type="kb", title="local", collection="notes", score=0.1))
    lines = synthesize(items).splitlines()
    assert lines[0] == "17 results (16 web, 1 kb); top 5:"
    assert [line.split(".")[0] for line in lines[1:6]] == ["1", "2", "3", "4", "5"]
    assert lines[6] == "… and 12 more. Sources covered: a.io (8), b.io (8), kb:notes (1)."
    assert len(lines) == 7


def test_boundaries_five_and_fifteen() -> None:
    five = [web(n, "x") for n in range(1, 6)]
    assert len(synthesize(five).splitlines()) == 5
    fifteen = [web(n, "x") for n in range(1, 16)]
    assert "top 5" not in synthesize(fifteen)
    assert "top 5" in synthesize([*fifteen, web(16, "x")])
