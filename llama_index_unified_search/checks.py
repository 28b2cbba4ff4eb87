"""``CitationEvaluator``: the claim-by-claim citation check as a LlamaIndex evaluator.

It checks each sentence of a query engine's answer against the source nodes it
cites (``unified_search.verify_citations``). The result passes when no sentence
is unsupported, uncited or cites an unknown ID; its score is the share of
checked claims that are supported, and its feedback lists the flagged sentences.
``check_response`` adds the report to a response's metadata instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from llama_index.core.base.response.schema import Response
from llama_index.core.evaluation import BaseEvaluator, EvaluationResult
from llama_index.core.schema import NodeWithScore

from llama_index_unified_search.nodes import citation_id_of, node_to_item
from unified_search import CitationReport, Reference, Verdict, averify_citations, run_sync
from unified_search.citations import cite_together
from unified_search.config import CitationConfig, SearchConfig

#: Key of the report in ``Response.metadata`` (``check_response``).
METADATA_KEY = "citation_checks"


class CitationEvaluator(BaseEvaluator):
    """Evaluate whether an answer's cited source nodes say what its sentences say.

    Example:
        >>> result = CitationEvaluator().evaluate(
        ...     response="The office opens at nine #ref:ref_001.",
        ...     contexts=["The office opens at nine on weekdays."])
        >>> result.passing, result.score
        (True, 1.0)
    """

    def __init__(self, config: SearchConfig | CitationConfig | None = None) -> None:
        self.citation = (
            config.citation if isinstance(config, SearchConfig) else config or CitationConfig()
        )

    async def aevaluate(
        self,
        query: str | None = None,
        response: str | None = None,
        contexts: Sequence[str] | None = None,
        source_nodes: Sequence[NodeWithScore] | None = None,
        **kwargs: Any,
    ) -> EvaluationResult:
        """Check ``response`` against ``source_nodes`` (or plain ``contexts``, cited 1, 2 ...)."""
        references = references_of(source_nodes or [], contexts or [])
        report = await averify_citations(response or "", references, config=self.citation)
        return _result(query, response, [r.content for r in references], report)

    async def aevaluate_response(
        self, query: str | None = None, response: Response | None = None, **kwargs: Any
    ) -> EvaluationResult:
        """Check a ``Response`` against its own source nodes (their citation IDs kept)."""
        text = response.response if response is not None else None
        nodes = list(response.source_nodes) if response is not None else []
        return await self.aevaluate(query, text, source_nodes=nodes, **kwargs)

    def _get_prompts(self) -> dict[str, Any]:
        return {}

    def _update_prompts(self, prompts_dict: dict[str, Any]) -> None:
        return None


def references_of(nodes: Sequence[NodeWithScore], contexts: Sequence[str]) -> list[Reference]:
    """References of source nodes (keeping their citation IDs), else of texts numbered in order."""
    if nodes:
        items = [node_to_item(node) for node in nodes]
        ids = [citation_id_of(node.node) for node in nodes]
        items = [i.model_copy(update={"citation_id": c}) for i, c in zip(items, ids, strict=True)]
    else:
        from unified_search import ResultItem

        items = [ResultItem(type="kb", content=text) for text in contexts]
    return [Reference.from_item(item) for item in cite_together(items)]


async def acheck_response(
    response: Response, config: SearchConfig | CitationConfig | None = None
) -> Response:
    """A copy of ``response`` whose ``metadata["citation_checks"]`` is its ``CitationReport``."""
    citation = config.citation if isinstance(config, SearchConfig) else config or CitationConfig()
    references = references_of(list(response.source_nodes), [])
    report = await averify_citations(response.response or "", references, config=citation)
    metadata = {**(response.metadata or {}), METADATA_KEY: report}
    return Response(response.response, list(response.source_nodes), metadata)


def check_response(
    response: Response, config: SearchConfig | CitationConfig | None = None
) -> Response:
    """Sync twin of ``acheck_response``."""
    return run_sync(acheck_response(response, config))


def _result(
    query: str | None, response: str | None, contexts: list[str], report: CitationReport
) -> EvaluationResult:
    claims = [s for s in report.sentences if s.verdict is not Verdict.NO_CLAIM]
    supported = sum(s.verdict is Verdict.SUPPORTED for s in claims)
    flagged = report.flagged()
    feedback = (
        "\n".join(f"{s.verdict.value}: {s.text}" for s in flagged) or "every claim is supported"
    )
    return EvaluationResult(
        query=query,
        response=response,
        contexts=contexts,
        passing=report.ok,
        score=supported / len(claims) if claims else 1.0,
        feedback=feedback,
    )
