"""Rerank with an agent (an LLM callable) or an MCP tool named by a ``uses`` value.

The delegate receives ``{"query", "top_n", "items": [{"id", "title", "url",
"type", "score", "content"}]}`` with IDs ``ref_001``, ``ref_002`` ... in the
current order, and answers a new order as ``{"order": ["ref_003", ...]}`` or
``{"items": [{"id" | "citation_id": "ref_003", "score"?: 0.9}, ...]}`` (a bare
list, or text holding the IDs one per line, is accepted too).

LLM rerankers are known to answer IDs that were never given, repeat IDs and
write malformed lines. Such entries are skipped; items the answer leaves out
keep their old order after the ranked ones, so no item is lost and none is
swapped for another. An answer with no usable ID at all is a failure.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from unified_search.config.search import SearchConfig
from unified_search.contract.delegates import Delegates
from unified_search.rerank.base import Lists, RerankerBase, cut, with_rerank_score
from unified_search.types import ResultItem, citation_id

_REF = re.compile(r"\bref_\d{3,}\b")


def payload(
    query: str, items: Sequence[ResultItem], top_n: int | None, max_chars: int
) -> dict[str, Any]:
    """The request sent to the delegate, items numbered in their current order."""
    return {
        "query": query,
        "top_n": top_n,
        "items": [
            {
                "id": citation_id(index),
                "title": item.title,
                "url": item.url,
                "type": item.type.value,
                "score": item.score,
                "content": item.content[:max_chars],
            }
            for index, item in enumerate(items, start=1)
        ],
    }


def parse_order(answer: Any) -> list[tuple[str, float | None]]:
    """Read the delegate's answer into (ID, score) pairs, in its order, as written."""
    if isinstance(answer, str):
        answer = _json_or_text(answer)
    if isinstance(answer, dict):
        answer = answer.get("order", answer.get("items"))
    if isinstance(answer, str):
        return [(ref, None) for ref in _REF.findall(answer)]
    if not isinstance(answer, list):
        raise ValueError(f"expected an order list, got {type(answer).__name__}")
    return [entry for entry in (_entry(e) for e in answer) if entry is not None]


def _json_or_text(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


def _entry(raw: Any) -> tuple[str, float | None] | None:
    if isinstance(raw, str):
        found = _REF.search(raw)
        return (found.group(), None) if found else None
    if isinstance(raw, dict):
        ref = raw.get("citation_id", raw.get("id"))
        score: Any = raw.get("score")
        if isinstance(ref, str) and _REF.fullmatch(ref.strip()):
            usable = isinstance(score, int | float) and not isinstance(score, bool)
            return ref.strip(), float(score) if usable else None
    return None


def apply_order(items: Sequence[ResultItem], answer: Any, top_n: int | None) -> list[ResultItem]:
    """Reorder ``items`` by the delegate's answer; unknown IDs skipped, missing items appended."""
    ids = {citation_id(index): index - 1 for index in range(1, len(items) + 1)}
    chosen: dict[int, float | None] = {}
    for ref, score in parse_order(answer):
        if ref in ids and ids[ref] not in chosen:
            chosen[ids[ref]] = score
    if not chosen:
        raise ValueError("the answer names none of the given items")
    order = list(chosen) + [i for i in range(len(items)) if i not in chosen]
    ranked = [
        with_rerank_score(items[i], _score(chosen.get(i), position, len(items)))
        for position, i in enumerate(order)
    ]
    return cut(ranked, top_n)


def _score(given: float | None, position: int, count: int) -> float:
    """The delegate's own score if it gave one, else one falling with the position.

    The order is the delegate's either way; the score is only recorded.
    """
    return given if given is not None else (count - position) / count


class DelegateReranker(RerankerBase):
    """Ask an agent or ``mcp:<server>.<tool>`` for the order.

    Example:
        >>> import asyncio
        >>> agents = Delegates({"flip": lambda p: {"order": [i["id"] for i in p["items"]][::-1]}})
        >>> items = [ResultItem(type="kb", title="a"), ResultItem(type="kb", title="b")]
        >>> reranker = DelegateReranker("flip", SearchConfig(), agents)
        >>> [i.title for i in asyncio.run(reranker.arerank("q", items))]
        ['b', 'a']
    """

    def __init__(self, uses: str, config: SearchConfig, delegates: Delegates) -> None:
        self.name = uses
        self.config = config
        self.delegates = delegates

    async def _order(
        self, query: str, items: Sequence[ResultItem], top_n: int | None, lists: Lists
    ) -> list[ResultItem]:
        """Return the items in the delegate's order, cut to ``top_n``."""
        request = payload(query, items, top_n, self.config.rerank.agent.max_chars)
        answer = await self.delegates.call(self.name, request, self.config)
        return apply_order(items, answer, top_n)
