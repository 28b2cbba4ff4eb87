"""The reranker registry: builtin rerankers by name, agents and MCP tools by `uses` value."""

from __future__ import annotations

from collections.abc import Callable

from unified_search.config import SearchConfig
from unified_search.delegates import Delegates
from unified_search.errors import ErrorCode, SearchError
from unified_search.rerank.base import Reranker
from unified_search.rerank.weighted import WeightedReranker

RerankerFactory = Callable[[SearchConfig, Delegates], Reranker]

#: Builtin rerankers by name.
RERANKERS: dict[str, RerankerFactory] = {
    "weighted": lambda config, delegates: WeightedReranker(),
}


def get_reranker(name: str, config: SearchConfig, delegates: Delegates) -> Reranker:
    """Build the reranker called ``name``; an unknown name lists the valid ones."""
    factory = RERANKERS.get(name)
    if factory is None:
        valid = ", ".join(sorted(RERANKERS))
        raise SearchError(
            ErrorCode.UNSUPPORTED, f"unknown reranker {name!r}; valid rerankers: {valid}"
        )
    return factory(config, delegates)
