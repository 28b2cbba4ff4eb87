"""Citation checks in LangChain: the output parser's ``checks`` and the ``citation_checks`` runnable."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.documents import Document
from langchain_core.messages import AIMessage
from langchain_core.runnables import RunnableLambda

from langchain_unified_search import CitationOutputParser, citation_checks
from unified_search import Reference, Verdict

OFFICE = "The office opens at nine on weekdays and closes at five."
REFS = [
    Reference(
        id="ref_001", index=1, type="kb", source="user", weight=1.0, score=1.0, content=OFFICE
    )
]
ANSWER = (
    "The office opens at nine on weekdays #ref:ref_001. Parking is free for visitors #ref:ref_001."
)


def test_the_parser_checks_claims_when_asked() -> None:
    plain = CitationOutputParser(references=REFS).parse(ANSWER)
    checked = CitationOutputParser(references=REFS, check_claims=True).parse(ANSWER)
    assert plain.checks is None
    assert checked.checks is not None
    assert [s.verdict for s in checked.checks.sentences] == [Verdict.SUPPORTED, Verdict.UNSUPPORTED]
    assert checked.citations == plain.citations == ["ref_001"]


async def test_the_parser_checks_a_mapping_with_documents_async() -> None:
    docs = [Document(page_content=OFFICE, metadata={"title": "Hours"})]
    parser = CitationOutputParser(check_claims=True)
    answer = await parser.ainvoke({"answer": AIMessage(content=ANSWER), "context": docs})
    assert answer.checks is not None and answer.checks.counts[Verdict.SUPPORTED] == 1


@pytest.mark.parametrize("use_async", [False, True])
async def test_the_runnable_adds_the_checks_and_dispatches_events(use_async: bool) -> None:
    heard: list[str] = []
    chain = (
        RunnableLambda(lambda q: {"question": q, "answer": ANSWER, "references": REFS})
        | citation_checks()
    )
    if use_async:
        out = await chain.ainvoke("When does the office open?")
        async for event in chain.astream_events("q", version="v2"):
            if event["event"] == "on_custom_event":
                heard.append(event["name"])
    else:

        class Ear(BaseCallbackHandler):
            def on_custom_event(self, name: str, data: Any, **kwargs: Any) -> None:
                heard.append(name)

        out = chain.invoke("When does the office open?", config={"callbacks": [Ear()]})
    assert out["question"] == "When does the office open?"
    assert out["checks"].flagged()[0].text.startswith("Parking")
    assert heard == ["citation_check", "citation_check", "citations_checked"]


def test_the_runnable_needs_an_answer() -> None:
    with pytest.raises(KeyError, match="answer"):
        citation_checks().invoke({"references": REFS})


def test_a_custom_key_and_config(tmp_path: Any) -> None:
    from unified_search.config import SearchConfig

    config = SearchConfig.load(profile={"citation": {"format": "[{index}]"}})
    out = citation_checks(config, key="grounding").invoke(
        {"answer": "The office opens at nine on weekdays [1].", "references": REFS}
    )
    assert out["grounding"].sentences[0].verdict is Verdict.SUPPORTED
