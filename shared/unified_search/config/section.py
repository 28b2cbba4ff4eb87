"""The base of every configuration section."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Section(BaseModel):
    """A configuration section: unknown keys are errors, values compare by content."""

    model_config = ConfigDict(extra="forbid", validate_default=True, use_attribute_docstrings=True)
