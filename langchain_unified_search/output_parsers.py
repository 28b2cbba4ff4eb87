"""``CitationOutputParser``: a model's answer with its citations resolved to references."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.messages import BaseMessage
from langchain_core.output_parsers import BaseOutputParser
from langchain_core.runnables import RunnableConfig
from pydantic import BaseModel, ConfigDict, Field

from langchain_unified_search.prompts import ReferencesLike, reference_context
from unified_search import CitationReport, Reference, verify_citations
from unified_search.citations import parse_citations
from unified_search.config import CitationConfig, SearchConfig


class CitedAnswer(BaseModel):
    """An answer, the references it cites, and the citations that match nothing.

    Example:
        >>> CitedAnswer(text="Yes #ref:ref_001.", citations=["ref_001"]).unknown
        []
    """

    model_config = ConfigDict(frozen=True)

    text: str
    citations: list[str] = Field(default_factory=list)
    """Cited IDs in order of first appearance."""
    references: list[Reference] = Field(default_factory=list)
    """The cited references, in citation order."""
    unknown: list[str] = Field(default_factory=list)
    """Citations that match no given reference (invented or mistyped by the model): the ID,
    or the citation as written when the format names no ID (an unknown URL)."""
    checks: CitationReport | None = None
    """Sentence by sentence, whether the cited references say it (``check_claims=True``)."""


class CitationOutputParser(BaseOutputParser[CitedAnswer]):
    """Find the citations in an answer and resolve them against the references.

    The references are given at construction, or with each input as a mapping
    ``{"answer": <text or message>, "references": <context, documents or references>}``
    (``context`` is accepted for ``references``), which is what a chain keeping its
    references next to the answer produces::

        chain = (
            {"references": retriever | format_references(), "question": RunnablePassthrough()}
            | RunnablePassthrough.assign(answer=citation_prompt() | model)
            | CitationOutputParser()
        )

    and what ``AutoSearch(...).with_model(model)`` produces. Citations matching
    none of those references are listed in ``unknown``.

    Example:
        >>> parser = CitationOutputParser()
        >>> parser.parse("Paris #ref:ref_001.").citations
        ['ref_001']
    """

    model_config = ConfigDict(extra="forbid")

    references: list[Reference] | None = None
    """References an answer may cite; ``None`` parses citations without checking them."""
    citation_format: str = CitationConfig().format
    """How citations are written (``citation.format`` of the configuration): ``#ref:{id}``,
    an HTML link, ``[{title}]({url})`` ... URL and title citations resolve against the references."""
    check_claims: bool = False
    """Also check each sentence against the references it cites (``unified_search.verify_citations``:
    supported, unsupported, uncited or unknown ID, with the supporting span)."""

    @classmethod
    def from_config(cls, config: SearchConfig, **fields: Any) -> CitationOutputParser:
        """Use the citation format of ``config``."""
        return cls(citation_format=config.citation.format, **fields)

    def parse(self, text: str) -> CitedAnswer:
        """Parse ``text`` against this parser's references (and check its claims, if asked)."""
        answer = _resolve(text, self.references, self.citation_format)
        if not self.check_claims:
            return answer
        config = CitationConfig(format=self.citation_format)
        checks = verify_citations(text, self.references or [], config=config)
        return answer.model_copy(update={"checks": checks})

    def invoke(
        self,
        input: str | BaseMessage | Mapping[str, Any],
        config: RunnableConfig | None = None,
        **kwargs: Any,
    ) -> CitedAnswer:
        """Parse an answer, or an ``{"answer", "context"}`` mapping carrying its references."""
        if isinstance(input, Mapping):
            return self._with_context(input).invoke(input["answer"], config, **kwargs)
        return super().invoke(input, config, **kwargs)

    async def ainvoke(
        self,
        input: str | BaseMessage | Mapping[str, Any],
        config: RunnableConfig | None = None,
        **kwargs: Any,
    ) -> CitedAnswer:
        """Async twin of ``invoke``."""
        if isinstance(input, Mapping):
            return await self._with_context(input).ainvoke(input["answer"], config, **kwargs)
        return await super().ainvoke(input, config, **kwargs)

    def _with_context(self, state: Mapping[str, Any]) -> CitationOutputParser:
        if "answer" not in state:
            raise KeyError(
                "the input mapping needs an 'answer' (and 'references' to resolve against)"
            )
        given: ReferencesLike = state.get("references") or state.get("context") or []
        references = reference_context(given).references
        return self.model_copy(update={"references": references})

    @property
    def _type(self) -> str:
        return "unified_search_citations"


def _resolve(text: str, references: Sequence[Reference] | None, fmt: str) -> CitedAnswer:
    by_id = {reference.id: reference for reference in references or ()}
    found = parse_citations(text, fmt=fmt, references=references)
    cited = [by_id[cid] for cid in found.ids if cid in by_id]
    return CitedAnswer(text=text, citations=found.ids, references=cited, unknown=found.unknown)
