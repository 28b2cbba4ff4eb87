"""``citation_checks``: a runnable that adds the claim-by-claim check to an answer and its references."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from langchain_core.callbacks import adispatch_custom_event, dispatch_custom_event
from langchain_core.messages import BaseMessage
from langchain_core.runnables import Runnable, RunnableConfig, RunnableLambda

from langchain_unified_search.events import event_data
from langchain_unified_search.prompts import ReferencesLike, reference_context
from unified_search import CitationReport, averify_citations, verify_citations
from unified_search.citations import check_events
from unified_search.config import CitationConfig, SearchConfig


def citation_checks(
    config: SearchConfig | CitationConfig | None = None, *, key: str = "checks"
) -> Runnable[Mapping[str, Any], dict[str, Any]]:
    """Return a runnable adding ``key``: the ``CitationReport`` of the mapping's answer.

    Its input is what a chain keeping its references next to the answer produces,
    ``{"answer": <text or message>, "references": <context, documents or references>}``
    (``context`` is accepted for ``references``); the output is the same mapping with
    the report added, so it composes after ``RunnablePassthrough.assign(answer=...)``;
    each sentence's check and the report are also dispatched as custom events
    (``citation_check``, ``citations_checked``), so ``astream_events`` shows them::

        chain = (
            {"references": retriever | format_references(), "question": RunnablePassthrough()}
            | RunnablePassthrough.assign(answer=citation_prompt() | model)
            | citation_checks()
        )

    Example:
        >>> from unified_search import Reference
        >>> ref = Reference(id="ref_001", index=1, type="kb", source="user", weight=1.0,
        ...                 score=1.0, content="The office opens at nine on weekdays.")
        >>> out = citation_checks().invoke({"answer": "The office opens at nine #ref:ref_001.",
        ...                                 "references": [ref]})
        >>> out["checks"].sentences[0].verdict.value
        'supported'
    """
    citation = config.citation if isinstance(config, SearchConfig) else config or CitationConfig()

    def check(state: Mapping[str, Any], config: RunnableConfig) -> dict[str, Any]:
        text, references = _inputs(state, citation)
        report = verify_citations(text, references, config=citation)
        for event in check_events(report):
            dispatch_custom_event(event.name.value, event_data(event), config=config)
        return {**state, key: report}

    async def acheck(state: Mapping[str, Any], config: RunnableConfig) -> dict[str, Any]:
        text, references = _inputs(state, citation)
        report: CitationReport = await averify_citations(text, references, config=citation)
        for event in check_events(report):
            await adispatch_custom_event(event.name.value, event_data(event), config=config)
        return {**state, key: report}

    return RunnableLambda(check, afunc=acheck, name="citation_checks")


def _inputs(state: Mapping[str, Any], citation: CitationConfig) -> tuple[str, list[Any]]:
    if not isinstance(state, Mapping) or "answer" not in state:
        raise KeyError("the input mapping needs an 'answer' (and 'references' to check against)")
    answer = state["answer"]
    text = answer.text if isinstance(answer, BaseMessage) else str(answer)
    given: ReferencesLike = state.get("references") or state.get("context") or []
    return text, reference_context(given, citation).references
