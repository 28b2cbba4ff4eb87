"""Items out of whatever a web agent or an MCP tool returned.

Accepted shapes: a list of items, or an object holding one under ``items``,
``results`` or ``result`` (MCP servers wrap a returned list as ``result``).
An item is a ``ResultItem`` or a dict with its fields; ``link`` and
``snippet`` are read as ``url`` and ``content``, unknown keys go to
``metadata``. Anything else fails with PROVIDER_ERROR naming the problem.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from unified_search.errors import ErrorCode, SearchError
from unified_search.http import excerpt
from unified_search.types import ResultItem, SearchType
from unified_search.urls import clean_url
from unified_search.web.provider import rank_score

LIST_KEYS = ("items", "results", "result")
ALIASES = {"link": "url", "snippet": "content", "description": "content", "text": "content"}
_FIELDS = frozenset(ResultItem.model_fields) - {"type", "citation_id", "weight", "source"}


def items_from_output(output: Any, *, provider: str) -> list[ResultItem]:
    """Validate an agent's or a tool's answer into web items.

    Example:
        >>> [i.url for i in items_from_output({"items": [{"link": "https://x.io/?utm_source=a"}]}, provider="agent")]
        ['https://x.io/']
    """
    entries = _unwrap(output)
    if not isinstance(entries, list):
        raise _bad(provider, f"expected a list of items, got {excerpt(repr(output), 120)}")
    return [_item(entry, rank, provider) for rank, entry in enumerate(entries)]


def _unwrap(output: Any) -> Any:
    if isinstance(output, Mapping):
        for key in LIST_KEYS:
            if key in output:
                return _unwrap(output[key])
    return output


def _item(entry: Any, rank: int, provider: str) -> ResultItem:
    if isinstance(entry, ResultItem):
        entry = entry.model_dump(exclude={"type", "citation_id", "weight", "source"})
    if not isinstance(entry, Mapping):
        raise _bad(provider, f"item {rank} is not an object: {excerpt(repr(entry), 80)}")
    fields, extra = _split(entry)
    if not any(fields.get(key) for key in ("url", "title", "content")):
        raise _bad(provider, f"item {rank} has no url, title or content")
    metadata = {
        **extra,
        **fields.get("metadata", {}),
        "provider": provider,
        "providers": [provider],
    }
    fields.update(type=SearchType.WEB, metadata=metadata)
    fields.setdefault("score", rank_score(rank))
    if isinstance(fields.get("url"), str):
        fields["url"] = clean_url(fields["url"])
    try:
        return ResultItem.model_validate(fields)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise _bad(provider, f"item {rank} field {where!r}: {first['msg']}") from None


def _split(entry: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    fields: dict[str, Any] = {}
    extra: dict[str, Any] = {}
    for key, value in entry.items():
        name = ALIASES.get(str(key), str(key))
        if name in _FIELDS and name not in fields:
            fields[name] = value
        elif name not in _FIELDS:
            extra[str(key)] = value
    if not isinstance(fields.get("metadata", {}), Mapping):
        extra["metadata"] = fields.pop("metadata")
    return fields, extra


def _bad(provider: str, reason: str) -> SearchError:
    return SearchError(
        ErrorCode.PROVIDER_ERROR, f"bad output: {reason}", provider=provider, retryable=False
    )
