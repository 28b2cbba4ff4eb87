"""The base of every configuration section."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict


class Section(BaseModel):
    """A configuration section: unknown keys are errors, values compare by content."""

    model_config = ConfigDict(extra="forbid", validate_default=True, use_attribute_docstrings=True)


def deep_merge(base: Mapping[str, Any], layer: Mapping[str, Any]) -> dict[str, Any]:
    """Merge ``layer`` into ``base``: mappings merge recursively, anything else replaces."""
    merged = dict(base)
    for key, value in layer.items():
        current = merged.get(key)
        if isinstance(current, Mapping) and isinstance(value, Mapping):
            merged[key] = deep_merge(current, value)
        else:
            merged[key] = value
    return merged
