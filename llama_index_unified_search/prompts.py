"""Citation prompt templates for LlamaIndex response synthesizers.

The instruction is the core's ``citation_prompt``; the nodes reach the model
as the ``<ref>`` elements of a ``<references>`` block (see ``ReferenceNode``),
so the model cites the same ``ref_NNN`` IDs the retriever put in metadata.
"""

from __future__ import annotations

from llama_index.core.prompts import PromptTemplate, PromptType

from unified_search.citations import REFINE_INSTRUCTION, citation_prompt
from unified_search.config import CitationConfig, SearchConfig

_QA = """{instruction}

<references>
{context_str}
</references>

Question: {query_str}
Answer: """

_REFINE = """{instruction}

Question: {query_str}
Answer so far: {existing_answer}

More references:
<references>
{context_msg}
</references>

{refine}
Answer: """


def _citation_config(config: SearchConfig | CitationConfig | None) -> CitationConfig:
    if isinstance(config, SearchConfig):
        return config.citation
    return config if config is not None else CitationConfig()


def _instruction(config: SearchConfig | CitationConfig | None) -> str:
    # LlamaIndex fills only the variables it is given and leaves other braces as they are,
    # so a citation format such as "{{id}}" survives formatting unchanged.
    return citation_prompt(_citation_config(config))


def citation_qa_template(config: SearchConfig | CitationConfig | None = None) -> PromptTemplate:
    """Return a text-QA template that asks for citations in ``citation.format``.

    Example:
        Not run here: ``retriever`` and ``llm`` are the caller's.

        >>> engine = RetrieverQueryEngine.from_args(  # doctest: +SKIP
        ...     retriever, llm=llm, text_qa_template=citation_qa_template()
        ... )
    """
    template = _QA.replace("{instruction}", _instruction(config))
    return PromptTemplate(template, prompt_type=PromptType.QUESTION_ANSWER)


def citation_refine_template(
    config: SearchConfig | CitationConfig | None = None,
) -> PromptTemplate:
    """Return a refine template that keeps citing while the answer is improved."""
    template = _REFINE.replace("{refine}", REFINE_INSTRUCTION)
    template = template.replace("{instruction}", _instruction(config))
    return PromptTemplate(template, prompt_type=PromptType.REFINE)
