"""Result items out of whatever an agent or an MCP tool answered.

Accepted shapes: a list of items, or an object holding one under ``items``,
``results`` or ``result`` (MCP servers wrap a returned list as ``result``).
An item is a ``ResultItem`` or a dict with its fields; ``link`` and
``snippet`` are read as ``url`` and ``content``, unknown keys go to
``metadata`` (a ``source`` the answer names as ``metadata["origin"]``: an item's
``source`` is who asked). Who asked, the weight and the citation ID are the
engine's to set and are never taken from the answer. Anything else fails with
PROVIDER_ERROR naming the problem.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from unified_search.errors import ErrorCode, SearchError
from unified_search.types import ORIGIN, ResultItem, SearchType
from unified_search.urls import clean_url

LIST_KEYS = ("items", "results", "result")
ALIASES = {"link": "url", "snippet": "content", "description": "content", "text": "content"}
#: Fields the engine sets itself: never read from an answer.
ENGINE_FIELDS = frozenset({"type", "citation_id", "weight", "source"})
_FIELDS = frozenset(ResultItem.model_fields) - ENGINE_FIELDS
#: How fast the rank-based score falls: 1.0 for the first result, 0.5 for the eleventh.
RANK_DECAY = 0.1


def rank_score(rank: int) -> float:
    """Score the result at 0-based ``rank`` when its source gives none: ``1 / (1 + 0.1 · rank)``.

    Example:
        >>> [round(rank_score(r), 3) for r in (0, 1, 10)]
        [1.0, 0.909, 0.5]
    """
    return 1.0 / (1.0 + RANK_DECAY * max(rank, 0))


def answer_entries(output: Any, *, provider: str) -> list[Any]:
    """The list of entries in an answer (unwrapping ``items``/``results``/``result``).

    Example:
        >>> answer_entries({"result": {"items": [{"url": "https://x.io"}]}}, provider="agent")
        [{'url': 'https://x.io'}]
    """
    entries = output
    while isinstance(entries, Mapping):
        key = next((key for key in LIST_KEYS if key in entries), None)
        if key is None:
            break
        entries = entries[key]
    if not isinstance(entries, list):
        raise bad_output(provider, f"expected a list of items, got {_shown(output, 120)}")
    return entries


def agent_item(entry: Any, rank: int, *, provider: str, kind: SearchType) -> ResultItem:
    """Validate the entry at 0-based ``rank`` into a ``kind`` item (scored by rank if it has none)."""
    if isinstance(entry, ResultItem):
        entry = entry.model_dump(exclude=set(ENGINE_FIELDS))
    if not isinstance(entry, Mapping):
        raise bad_output(provider, f"item {rank} is not an object: {_shown(entry, 80)}")
    fields, extra = _split(entry)
    if not any(fields.get(key) for key in ("url", "title", "content")):
        raise bad_output(provider, f"item {rank} has no url, title or content")
    metadata = {
        **extra,
        **fields.get("metadata", {}),
        "provider": provider,
        "providers": [provider],
    }
    fields.update(type=kind, metadata=metadata)
    fields.setdefault("score", rank_score(rank))
    if isinstance(fields.get("url"), str):
        fields["url"] = clean_url(fields["url"])
    try:
        return ResultItem.model_validate(fields)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise bad_output(provider, f"item {rank} field {where!r}: {first['msg']}") from None


def _split(entry: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    fields: dict[str, Any] = {}
    extra: dict[str, Any] = {}
    for key, value in entry.items():
        name = ALIASES.get(str(key), str(key))
        if name in _FIELDS and name not in fields:
            fields[name] = value
        elif name not in _FIELDS:
            extra[ORIGIN if key == "source" else str(key)] = value
    if not isinstance(fields.get("metadata", {}), Mapping):
        extra["metadata"] = fields.pop("metadata")
    return fields, extra


def _shown(value: Any, limit: int) -> str:
    """``value``'s repr on one line, at most ``limit`` characters."""
    text = " ".join(repr(value).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def bad_output(provider: str, reason: str) -> SearchError:
    """PROVIDER_ERROR for an answer that cannot be used, not retried."""
    return SearchError(
        ErrorCode.PROVIDER_ERROR, f"bad output: {reason}", provider=provider, retryable=False
    )
