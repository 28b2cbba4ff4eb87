"""Web items out of whatever a web agent or an MCP tool returned.

The shapes accepted are those of ``unified_search.contract.agent_items``.
"""

from __future__ import annotations

from typing import Any

from unified_search.contract.agent_items import agent_item, answer_entries
from unified_search.types import ResultItem, SearchType


def items_from_output(output: Any, *, provider: str) -> list[ResultItem]:
    """Validate an agent's or a tool's answer into web items.

    Example:
        >>> [i.url for i in items_from_output({"items": [{"link": "https://x.io/?utm_source=a"}]}, provider="agent")]
        ['https://x.io/']
    """
    return [
        agent_item(entry, rank, provider=provider, kind=SearchType.WEB)
        for rank, entry in enumerate(answer_entries(output, provider=provider))
    ]
