"""The configuration reference: every ``search.yml`` key with its default and meaning.

Generated from the configuration models (their attribute docstrings), so the
README table and ``unified-search config --reference`` cannot drift from the code.
"""

from __future__ import annotations

import json
import types
from typing import Any, Union, get_args, get_origin

from pydantic import BaseModel

from unified_search.auth import Secret
from unified_search.config.aliases import ALIASES
from unified_search.config.search import SearchConfig

Row = tuple[str, str, str]


def reference_rows(
    model: type[BaseModel] = SearchConfig, values: BaseModel | None = None, prefix: str = ""
) -> list[Row]:
    """List ``(key, default, description)`` for every leaf key below ``model``.

    Defaults are read from ``values`` (the built-in configuration) so that a
    section's own defaults, such as each provider's key variable, show up.
    """
    values = values if values is not None else (SearchConfig() if model is SearchConfig else None)
    rows: list[Row] = []
    for name, field in model.model_fields.items():
        key = f"{prefix}{name}"
        current = (
            getattr(values, name)
            if values is not None
            else field.get_default(call_default_factory=True)
        )
        section = _model_in(field.annotation)
        mapped = _mapped_model(field.annotation)
        if section is not None:
            rows += reference_rows(section, current, f"{key}.")
        elif mapped is not None:
            rows += reference_rows(mapped, None, f"{key}.<name>.")
        else:
            rows.append((key, _default(current), _one_line(field.description)))
    return rows


def alias_rows() -> list[Row]:
    """List ``(key, default, description)`` for every design key read as one of ours."""
    return [(alias.key, "—", f"The design's key, read as {alias.reads_as}.") for alias in ALIASES]


def reference_markdown() -> str:
    """Render the reference as a Markdown table, the design's keys last."""
    lines = ["| key | default | meaning |", "|---|---|---|"]
    rows = [*reference_rows(), *alias_rows()]
    lines += [f"| `{key}` | {default} | {_one_line(text)} |" for key, default, text in rows]
    return "\n".join(lines)


def _model_in(annotation: Any) -> type[BaseModel] | None:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    return None


def _mapped_model(annotation: Any) -> type[BaseModel] | None:
    """Return ``V`` for ``dict[str, V]`` when ``V`` is a section (named entries such as MCP servers)."""
    if get_origin(annotation) in (Union, types.UnionType):
        return next(filter(None, (_mapped_model(arg) for arg in get_args(annotation))), None)
    if get_origin(annotation) is dict:
        return _model_in(get_args(annotation)[1])
    return None


def _default(value: Any) -> str:
    if isinstance(value, BaseModel):
        value = value.model_dump(mode="json")
    if isinstance(value, Secret):
        value = value.to_json()
    text = json.dumps(value, ensure_ascii=False, default=str)
    if len(text) > 40:
        return "(built-in table, see `unified-search config`)"
    return f"`{text}`".replace("|", "\\|")


def _one_line(text: str | None) -> str:
    return " ".join((text or "").split()).replace("|", "\\|")
