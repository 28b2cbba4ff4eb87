"""The citation prompt and the reference formatter, with the core's wording and settings.

``citation_prompt`` is a ``ChatPromptTemplate`` taking ``question`` and
``references`` (the ``<references>`` XML block) and, optionally, the earlier
``history`` messages. ``format_references`` builds the block from documents,
items, references or a search response: its ``ReferenceContext`` formats into
the prompt as the XML text, and keeps the references for ``CitationOutputParser``.
Given a mapping, it formats the ``references`` entry and passes the rest on, so
``format_references() | citation_prompt()`` composes directly.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.documents import Document
from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder
from langchain_core.runnables import Runnable, RunnableLambda

from langchain_unified_search.documents import document_to_item, reference_to_item
from unified_search import Reference, ReferenceContext, ResultItem, SearchResponse
from unified_search.citations import build_context, cite_together
from unified_search.citations import citation_prompt as core_citation_prompt
from unified_search.config import CitationConfig, SearchConfig

ReferencesLike = (
    ReferenceContext
    | SearchResponse
    | Sequence[Document]
    | Sequence[ResultItem]
    | Sequence[Reference]
)


def _citation_config(config: SearchConfig | CitationConfig | None) -> CitationConfig:
    if isinstance(config, SearchConfig):
        return config.citation
    return config or CitationConfig()


def reference_context(
    value: ReferencesLike, config: SearchConfig | CitationConfig | None = None
) -> ReferenceContext:
    """Build the reference context of documents, items, references or a search response.

    Entries keep the ``citation_id`` a search gave them, so it still resolves in
    the record store; entries without one, or whose ID an earlier entry holds (an
    ensemble of retrievers with scopes of their own), are numbered after the
    highest ID in use. The same page or passage given twice is cited once;
    nothing else is dropped (see ``unified_search.citations.cite_together``).
    """
    if isinstance(value, ReferenceContext):
        return value
    if isinstance(value, SearchResponse):
        return value.context
    unique: dict[str | None, ResultItem] = {}
    for item in cite_together(_as_item(entry) for entry in value):
        unique.setdefault(item.citation_id, item)
    return build_context(list(unique.values()), _citation_config(config))


def _as_item(entry: Document | ResultItem | Reference) -> ResultItem:
    if isinstance(entry, Document):
        return document_to_item(entry)
    if isinstance(entry, Reference):
        return reference_to_item(entry)
    return entry


def format_references(
    config: SearchConfig | CitationConfig | None = None,
) -> Runnable[Any, Any]:
    """Return a runnable turning documents (or items, references, a response) into a ``ReferenceContext``.

    A mapping input keeps its other keys and has its ``references`` entry formatted,
    ready for ``citation_prompt()``.

    Example:
        >>> context = format_references().invoke([Document(page_content="Paris is in France.")])
        >>> context.references[0].id, str(context).startswith("<references>")
        ('ref_001', True)
    """

    def run(value: Any) -> Any:
        if isinstance(value, Mapping):
            return {**value, "references": reference_context(value["references"], config)}
        return reference_context(value, config)

    return RunnableLambda(run, name="format_references")


def references_system_text(context: ReferenceContext) -> str:
    """The system message that hands references to a model: the instruction, then the block."""
    return "\n\n".join(part for part in (context.prompt, context.xml) if part)


def citation_prompt(
    config: SearchConfig | CitationConfig | None = None, *, system: str | None = None
) -> ChatPromptTemplate:
    """Return the chat prompt asking for a cited answer to ``question`` from ``references``.

    Args:
        config: the citation settings (format, custom prompt); the core defaults otherwise.
        system: your own instructions, placed before the citation instruction.

    Example:
        >>> prompt = citation_prompt()
        >>> messages = prompt.invoke({"question": "Where is Paris?", "references": "<references/>"})
        >>> messages.to_messages()[0].content.startswith("Use the references")
        True
    """
    instruction = core_citation_prompt(_citation_config(config))
    if system:
        instruction = f"{system}\n\n{instruction}"
    template = ChatPromptTemplate.from_messages(
        [
            ("system", "{citation_instruction}\n\n{references}"),
            MessagesPlaceholder("history", optional=True),
            ("human", "{question}"),
        ]
    )
    return template.partial(citation_instruction=instruction)
