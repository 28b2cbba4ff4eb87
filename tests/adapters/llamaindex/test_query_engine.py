import re
from typing import Any

import pytest
from llama_index.core.base.llms.types import CompletionResponse
from llama_index.core.llms import MockLLM
from llama_index.core.query_engine import RetrieverQueryEngine
from llama_index.core.schema import NodeWithScore

from llama_index_unified_search import (
    UnifiedRerankPostprocessor,
    UnifiedSearchRetriever,
    citation_qa_template,
    citation_refine_template,
    resolve_citations,
)
from unified_search.citations import citation_prompt
from unified_search.config import CitationConfig, SearchConfig
from unified_search.engine.searcher import Searcher


class CitingLLM(MockLLM):
    """Answers by citing the first reference it is shown, plus one id it invents."""

    def complete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> CompletionResponse:
        shown = re.findall(r'<ref id="(ref_\d+)"', prompt)
        return CompletionResponse(
            text=f"Heat pumps save energy #ref:{shown[0]}. Also #ref:ref_099."
        )


def _engine(searcher: Searcher, llm: MockLLM, **kwargs: Any) -> RetrieverQueryEngine:
    retriever = UnifiedSearchRetriever(searcher, types=["kb", "web"], top_k=3)
    return RetrieverQueryEngine.from_args(
        retriever,
        llm=llm,
        text_qa_template=citation_qa_template(),
        refine_template=citation_refine_template(),
        **kwargs,
    )


def test_query_engine_prompt_holds_the_references_block(searcher: Searcher) -> None:
    """MockLLM echoes its prompt: the core's instruction, the <references> block and the query."""
    response = _engine(searcher, MockLLM()).query("do heat pumps save energy?")
    text = str(response)
    assert text.startswith(citation_prompt(CitationConfig()))
    block = text[text.index("<references>") : text.index("</references>")]
    assert re.findall(r'<ref id="(ref_\d+)"', block) == ["ref_001", "ref_002", "ref_003"]
    assert "saves &lt;energy&gt;" in block  # escaped by the core
    assert "Question: do heat pumps save energy?" in text
    # The instruction's examples cite ref_001 and ref_002, which are real source nodes.
    resolved = resolve_citations(response)
    assert resolved.ids == ["ref_001", "ref_002"] and resolved.unknown == []


def test_citations_resolve_to_source_nodes_and_unknown_are_flagged(searcher: Searcher) -> None:
    """A cited id maps to the node carrying it; an invented id is reported as unknown."""
    response = _engine(searcher, CitingLLM()).query("heat pumps")
    resolved = resolve_citations(response)
    assert resolved.ids == ["ref_001", "ref_099"]
    assert resolved.unknown == ["ref_099"]
    (node,) = resolved.cited_nodes
    assert node is response.source_nodes[0]
    assert node.node.metadata["unified_search"]["title"] == "Heat pumps"


async def test_async_query_resolves_the_same_citations(searcher: Searcher) -> None:
    """aquery goes through _aretrieve and gives the same cited nodes."""
    response = await _engine(searcher, CitingLLM()).aquery("heat pumps")
    assert [n.node.metadata["unified_search"]["citation_id"] for n in response.source_nodes] == [
        "ref_001",
        "ref_002",
        "ref_003",
    ]
    assert resolve_citations(response).unknown == ["ref_099"]


def test_postprocessor_in_query_engine_reorders_source_nodes(searcher: Searcher) -> None:
    """A reranking postprocessor keeps citation ids attached to their nodes while reordering."""
    rerank = UnifiedRerankPostprocessor(reranker="weighted", top_n=2)
    response = _engine(searcher, CitingLLM(), node_postprocessors=[rerank]).query("heat")
    assert len(response.source_nodes) == 2
    assert [n.node.metadata["unified_search"]["citation_id"] for n in response.source_nodes] == [
        "ref_001",
        "ref_002",
    ]
    assert (
        resolve_citations(response).cited_nodes[0].node.metadata["unified_search"]["citation_id"]
        == "ref_001"
    )


def test_refine_template_keeps_citing_across_chunks(searcher: Searcher) -> None:
    """In refine mode every call shows references and the answer so far."""
    prompts: list[str] = []

    class Recording(CitingLLM):
        def complete(
            self, prompt: str, formatted: bool = False, **kwargs: Any
        ) -> CompletionResponse:
            prompts.append(prompt)
            return super().complete(prompt, formatted, **kwargs)

    response = _engine(searcher, Recording(), response_mode="refine").query("heat")
    assert len(prompts) == 3
    assert "Answer so far: Heat pumps save energy #ref:ref_001" in prompts[1]
    assert '<ref id="ref_002"' in prompts[1] and '<ref id="ref_003"' in prompts[2]
    assert resolve_citations(response).ids == ["ref_003", "ref_099"]


@pytest.mark.parametrize("fmt", ["[{id}]", "{{{id}}}", "【{id}】"])
def test_templates_follow_the_configured_citation_format(fmt: str) -> None:
    """The instruction shows the configured format, braces included, after formatting."""
    config = SearchConfig.load(profile={"citation": {"format": fmt}})
    example = fmt.replace("{id}", "ref_001")
    qa = citation_qa_template(config)
    assert {"context_str", "query_str"} <= set(qa.template_vars)
    text = qa.format(context_str="<ref/>", query_str="q?")
    assert (
        example in text and "<references>\n<ref/>\n</references>" in text and "Question: q?" in text
    )
    refine = citation_refine_template(config.citation)
    assert {"context_msg", "query_str", "existing_answer"} <= set(refine.template_vars)
    assert example in refine.format(context_msg="", query_str="q", existing_answer="a")


def test_resolve_citations_with_custom_format_and_explicit_nodes(searcher: Searcher) -> None:
    """Explicit nodes and a custom format override the response's own."""
    nodes: list[NodeWithScore] = UnifiedSearchRetriever(searcher).retrieve("heat")
    config = SearchConfig.load(profile={"citation": {"format": "[{id}]"}})
    resolved = resolve_citations("see [ref_002] and #ref:ref_001", nodes, config)
    assert resolved.ids == ["ref_002"] and resolved.cited_nodes == [nodes[1]]
    assert resolve_citations("no citations here", nodes).ids == []


class MarkdownCitingLLM(MockLLM):
    """Cites the first two references it is shown as Markdown links, and one page it invents."""

    def complete(self, prompt: str, formatted: bool = False, **kwargs: Any) -> CompletionResponse:
        tags = re.findall(r"<ref ([^>]*)>", prompt.split("<references>", 1)[1])
        links = []
        for tag in tags[:2]:
            attrs = dict(re.findall(r'(\w+)="([^"]*)"', tag))
            links.append(f"[{attrs['title']}]({attrs.get('url') or '#ref:' + attrs['id']})")
        return CompletionResponse(text=f"Yes {links[0]}, {links[1]}, [x](https://made.up/x).")


def test_markdown_citations_resolve_to_source_nodes(searcher: Searcher) -> None:
    """With citation.format = "[{title}]({url})", links resolve by URL or by #ref anchor."""
    config = SearchConfig.load(profile={"citation": {"format": "[{title}]({url})"}})
    retriever = UnifiedSearchRetriever(searcher, types=["kb", "web"], top_k=3)
    engine = RetrieverQueryEngine.from_args(
        retriever, llm=MarkdownCitingLLM(), text_qa_template=citation_qa_template(config)
    )
    response = engine.query("heat pumps")
    resolved = resolve_citations(response, config=config)
    assert resolved.ids == ["ref_001", "ref_002"]
    assert resolved.unknown == ["[x](https://made.up/x)"]
    assert [n.node.metadata["unified_search"]["citation_id"] for n in resolved.cited_nodes] == [
        "ref_001",
        "ref_002",
    ]
