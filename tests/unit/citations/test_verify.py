"""Claim-level citation checks: verdicts, spans, formats, Chinese, and hostile answers."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from unified_search import Reference, averify_citations, verify_citations
from unified_search.citations.verify import CitationVerifier
from unified_search.config import CitationConfig
from unified_search.contract.checks import Verdict
from unified_search.contract.events import EventName, SearchEvent
from unified_search.types import SearchType, Source

STATINS = (
    "Statin use was associated with a lower risk of breast cancer death. "
    "The cohort included 31,236 newly diagnosed patients in Finland during 1995-2003. "
    "Post-diagnostic use showed the strongest effect."
)
GLACIERS = "Glaciers in the Alps lost a tenth of their remaining ice volume in the summer of 2022."
CHINESE = "他汀类药物的使用与乳腺癌死亡风险降低有关。该队列包括芬兰的三万多名患者。"


def ref(number: int, content: str, **extra: Any) -> Reference:
    return Reference(
        id=f"ref_{number:03d}",
        index=number,
        type=SearchType.WEB,
        source=Source.AUTO,
        weight=0.6,
        score=1.0,
        title=f"Source {number}",
        url=f"https://example.org/{number}",
        content=content,
        **extra,
    )


REFS = [ref(1, STATINS), ref(2, GLACIERS)]


@pytest.fixture(params=[None, "default"], ids=["lexical", "embedding"])
def embedding(request: pytest.FixtureRequest) -> str | None:
    return request.param  # type: ignore[no-any-return]


def verdicts(text: str, refs: list[Reference] = REFS, **kw: Any) -> list[str]:
    return [s.verdict.value for s in verify_citations(text, refs, **kw).sentences]


def test_each_verdict_with_both_kinds_of_evidence(embedding: str | None) -> None:
    answer = (
        "Here is what I found. "
        "Statin users had a lower risk of dying from breast cancer #ref:ref_001. "
        "Alpine glaciers lost a tenth of their ice in 2022 #ref:ref_001. "
        "The cohort had 31,236 patients from Finland #ref:ref_007. "
        "Glaciers lost a tenth of their ice volume in 2022."
    )
    assert verdicts(answer, embedding=embedding) == [
        "no_claim",
        "supported",
        "unsupported",
        "unknown_id",
        "uncited",
    ]


def test_the_span_points_at_the_supporting_passage_of_the_cited_reference() -> None:
    report = verify_citations("Finland's cohort had 31,236 patients #ref:ref_001.", REFS)
    span = report.sentences[0].span
    assert span is not None and span.reference_id == "ref_001"
    assert STATINS[span.start : span.end] == span.text
    assert "31,236" in span.text and "Statin use" not in span.text


def test_a_sentence_citing_two_references_is_supported_by_either() -> None:
    sentence = verify_citations(
        "Statin use was associated with lower breast cancer mortality #ref:ref_002#ref:ref_001.",
        REFS,
    ).sentences[0]
    assert sentence.verdict is Verdict.SUPPORTED
    assert [c.supported for c in sentence.citations] == [False, True]
    assert sentence.span is not None and sentence.span.reference_id == "ref_001"


@pytest.mark.parametrize(
    ("fmt", "cite"),
    [
        ("#ref:{id}", "#ref:ref_002"),
        ("[{index}]", "[2]"),
        ("[{title}]({url})", "[Source 2](https://example.org/2)"),
        ('<a class="ref" data-ref-id="{id}" href="#ref:{id}">[{id}]</a>', None),
        ("({type}:{index})", "(web:2)"),
    ],
)
def test_every_citation_format_is_read(fmt: str, cite: str | None) -> None:
    config = CitationConfig(format=fmt)
    written = cite or fmt.replace("{id}", "ref_002")
    text = f"Alpine glaciers lost a tenth of their ice volume in 2022 {written}."
    report = verify_citations(text, REFS, config=config, embedding=None)
    assert report.sentences[0].cited == ["ref_002"]
    assert report.sentences[0].verdict is Verdict.SUPPORTED


def test_a_citation_after_the_full_stop_belongs_to_the_sentence_before() -> None:
    report = verify_citations(
        "Alpine glaciers lost a tenth of their ice in 2022. #ref:ref_002 It was hot.", REFS
    )
    assert report.sentences[0].cited == ["ref_002"]
    assert report.sentences[1].cited == []


def test_chinese_answers_are_split_and_checked() -> None:
    refs = [ref(1, CHINESE), ref(2, GLACIERS)]
    answer = (
        "使用他汀类药物与乳腺癌死亡风险降低有关#ref:ref_001。冰川在夏天融化了很多#ref:ref_001。"
    )
    report = verify_citations(answer, refs)
    assert [s.verdict for s in report.sentences] == [Verdict.SUPPORTED, Verdict.UNSUPPORTED]
    assert report.sentences[0].span is not None
    assert report.sentences[0].span.text.startswith("他汀类药物")


def test_citations_inside_code_are_not_citations_and_code_is_not_a_claim() -> None:
    answer = (
        "Run this:\n```python\nprint('Glaciers lost ice #ref:ref_009.')\n```\n"
        "Then call `cite('#ref:ref_008')` to see it.\n"
        "Alpine glaciers lost a tenth of their ice in 2022 #ref:ref_002."
    )
    report = verify_citations(answer, REFS)
    cited = [c for s in report.sentences for c in s.cited]
    assert cited == ["ref_002"]
    assert all("print(" not in s.text for s in report.sentences)
    assert Verdict.UNKNOWN_ID not in report.counts


def test_ids_in_another_format_are_named_in_the_warnings() -> None:
    report = verify_citations("Glaciers lost a tenth of their ice [2]. See ref_001 too.", REFS)
    assert report.sentences[0].verdict is Verdict.UNCITED
    assert any("[N]" in w for w in report.warnings)
    assert any("ref_001" in w for w in report.warnings)


@pytest.mark.parametrize("text", ["", "   \n\n  ", "```\ncode only\n```"])
def test_an_answer_without_prose_has_no_sentences(text: str) -> None:
    report = verify_citations(text, REFS)
    assert report.sentences == [] and report.total == 0 and report.ok


def test_a_reference_without_content_is_unsupported_and_says_why() -> None:
    sentence = verify_citations(
        "Glaciers lost a tenth of their ice in 2022 #ref:ref_003.", [*REFS, ref(3, "  ")]
    ).sentences[0]
    assert sentence.verdict is Verdict.UNSUPPORTED
    assert sentence.citations[0].reason == "the reference has no text to check"


def test_a_huge_answer_is_capped_and_the_cap_is_named() -> None:
    answer = ("Alpine glaciers lost a tenth of their ice in 2022 #ref:ref_002. " * 1700)[:100_000]
    config = CitationConfig(verify={"max_sentences": 50})
    report = verify_citations(answer, REFS, config=config)
    assert len(report.sentences) == 50 and report.total > 1500
    assert report.limit is not None and "max_sentences" in report.limit
    assert report.counts == {Verdict.SUPPORTED: 50}


def test_one_line_of_100000_characters_is_cut_into_bounded_sentences() -> None:
    report = verify_citations("word " * 20_000, REFS)
    assert report.total > 1 and all(len(s.text) <= 1200 for s in report.sentences)


def test_an_answer_that_is_not_text_is_refused() -> None:
    with pytest.raises(TypeError, match="must be text"):
        verify_citations(b"bytes", REFS)  # type: ignore[arg-type]


def test_a_cross_encoder_is_averaged_in() -> None:
    calls: list[list[tuple[str, str]]] = []

    def sceptic(pairs: list[tuple[str, str]]) -> list[float]:
        calls.append(pairs)
        return [-20.0 for _ in pairs]

    checker = CitationVerifier(embedding=None, cross_encoder=sceptic)
    report = checker.check("Alpine glaciers lost a tenth of their ice #ref:ref_002.", REFS)
    assert calls and report.method == "lexical+cross_encoder"
    assert report.sentences[0].score < 0.5 + 1e-9


async def test_the_async_check_emits_one_event_per_sentence_then_the_report() -> None:
    heard: list[SearchEvent] = []
    report = await averify_citations(
        "Alpine glaciers lost ice #ref:ref_002. It rained.",
        REFS,
        sinks=[heard.append],
        request_id="r1",
    )
    names = [e.name for e in heard]
    assert names == [EventName.CITATION_CHECK] * 2 + [EventName.CITATIONS_CHECKED]
    assert heard[-1].checks == report and heard[0].request_id == "r1"
    assert heard[0].check == report.sentences[0]


def test_sync_and_async_agree() -> None:
    text = "Alpine glaciers lost a tenth of their ice #ref:ref_002."
    sync = verify_citations(text, REFS)
    other = asyncio.run(averify_citations(text, REFS))
    assert [s.verdict for s in sync.sentences] == [s.verdict for s in other.sentences]


async def test_a_check_is_stored_with_its_request_and_read_back(tmp_path: Any) -> None:
    from unified_search.records.store import SearchStore

    store = SearchStore(f"sqlite:///{tmp_path / 'records.sqlite3'}", table_prefix="chk_")
    try:
        report = await averify_citations(
            "Alpine glaciers lost a tenth of their ice #ref:ref_002. Cats purr #ref:ref_009.",
            REFS,
            store=store,
            request_id="r1",
            chat_id="c1",
            search_id="s1",
        )
        [saved] = await store.aget_checks("r1")
        assert saved.report == report and saved.flagged == 1
        assert (saved.chat_id, saved.search_id, saved.id) == ("c1", "s1", 1)
        assert store.get_checks("other") == []
        with pytest.raises(ValueError, match="request_id"):
            store.save_checks(" ", report)
    finally:
        store.close()


def test_checks_are_stored_in_postgresql_too(postgres_url: str) -> None:
    import uuid

    from unified_search.records.store import SearchStore

    store = SearchStore(postgres_url, table_prefix=f"t{uuid.uuid4().hex[:8]}_")
    try:
        report = verify_citations("Glaciers lost ice #ref:ref_002.", REFS, embedding=None)
        store.save_checks("r1", report)
        assert [c.report for c in store.get_checks("r1")] == [report]
    finally:
        store.metadata.drop_all(store.engine)
        store.close()
