"""How citations are written: the ``citation`` section and the check of its format."""

from __future__ import annotations

import re

from pydantic import Field, field_validator

from unified_search.config.section import Section

FIELDS = ("id", "index", "title", "type", "url")
"""Every field a citation format may use."""
IDENTIFYING = ("id", "index", "url")
"""Fields that name one reference; a format needs at least one of them."""

FIELD_PATTERN = re.compile(r"\{([^{}]*)\}")


def check_format(fmt: str) -> str:
    """Return ``fmt`` if every field is known and one names the reference, else raise ValueError."""
    fields = FIELD_PATTERN.findall(fmt)
    valid = ", ".join(f"{{{name}}}" for name in FIELDS)
    unknown = [name for name in fields if name not in FIELDS]
    if unknown:
        raise ValueError(f"unknown field {{{unknown[0]}}}; valid fields: {valid}")
    if not set(fields) & set(IDENTIFYING):
        raise ValueError("the format must name the reference with {id}, {index} or {url}")
    return fmt


class VerifyConfig(Section):
    """How answers are checked against the references they cite (``verify_citations``)."""

    threshold: float = Field(default=0.5, ge=0.0, le=1.0)
    """Support score (0..1) from which a cited reference counts as saying the sentence."""
    max_sentences: int = Field(default=200, ge=1)
    """Sentences checked per answer at most; the report names the cap when it is reached."""
    candidates: int = Field(default=3, ge=1, le=50)
    """Passages per cited reference, those sharing the most terms, weighed by their meaning."""
    embedding: bool = True
    """Weigh meaning with the embedding model too, not only shared terms."""


class CitationConfig(Section):
    """How references are cited and packed for a model."""

    format: str = "#ref:{id}"
    """How a citation is written in an answer, from the reference's ``{id}`` (``ref_001``), ``{index}`` (``1``), ``{type}``, ``{title}`` and ``{url}`` (``#ref:<id>`` without one); it must use ``{id}``, ``{index}`` or ``{url}``."""
    custom_prompt: str | None = None
    """Replaces the built-in citation instruction; ``{format}`` and ``{example}`` are filled in."""
    auto_inject_prompt: bool = True
    """Add the citation instruction to the reference context."""
    max_tokens: int = Field(default=8000, ge=64)
    """Token budget of the ``<references>`` block (cl100k_base tokens)."""
    verify: VerifyConfig = Field(default_factory=VerifyConfig)
    """How ``verify_citations`` checks answers."""

    @field_validator("format")
    @classmethod
    def _known_fields(cls, value: str) -> str:
        return check_format(value)
