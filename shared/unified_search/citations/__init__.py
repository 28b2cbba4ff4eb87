"""Citations: IDs unique within a scope, the ``<references>`` block, the prompt, and parsing answers."""

from __future__ import annotations

from unified_search.citations.context import (
    REFINE_INSTRUCTION,
    Citations,
    build_context,
    citation_example,
    citation_prompt,
    example_reference,
    packed_context,
    parse_citations,
    references_xml,
    render_ref,
)
from unified_search.citations.format import format_citation, link_of
from unified_search.citations.ids import CitationAllocator, CitationRegistry, cite_together
from unified_search.citations.numbering import Numbering
from unified_search.citations.verify import (
    CitationVerifier,
    averify_citations,
    check_events,
    verify_citations,
)

__all__ = [
    "REFINE_INSTRUCTION",
    "CitationAllocator",
    "CitationRegistry",
    "CitationVerifier",
    "Citations",
    "Numbering",
    "averify_citations",
    "build_context",
    "check_events",
    "citation_example",
    "citation_prompt",
    "cite_together",
    "example_reference",
    "format_citation",
    "link_of",
    "packed_context",
    "parse_citations",
    "references_xml",
    "render_ref",
    "verify_citations",
]
