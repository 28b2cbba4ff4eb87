"""Citation formats in LangChain: the prompt shows the configured format, the parser reads it back."""

from __future__ import annotations

from langchain_core.language_models import GenericFakeChatModel
from langchain_core.messages import AIMessage

from langchain_unified_search import AutoSearch, CitationOutputParser, citation_prompt

HTML = '<a class="ref" data-ref-id="{id}" data-ref-type="{type}" href="#ref:{id}">[{id}]</a>'
MARKDOWN = "[{title}]({url})"


def test_a_markdown_answer_resolves_to_the_references(sources):
    config = {"citation": {"format": MARKDOWN}}
    answer = (
        "Ten days [web-0 leave](https://example.com/web-0), "
        "carried over [kb-0 leave](#ref:ref_002), "
        "and [a blog](https://blog.example.net/leave)."
    )
    model = GenericFakeChatModel(messages=iter([AIMessage(answer)]))
    auto = AutoSearch(searcher=sources.searcher(config), types=["web", "kb"], k=2)
    parser = CitationOutputParser(citation_format=MARKDOWN)
    cited = (auto.with_model(model) | parser).invoke("leave")
    refs = {ref.url or ref.id: ref.id for ref in cited.references}
    assert cited.citations == ["ref_001", "ref_002"]
    assert refs == {"https://example.com/web-0": "ref_001", "ref_002": "ref_002"}
    assert cited.unknown == ["[a blog](https://blog.example.net/leave)"]


def test_the_design_html_link_round_trips(sources):
    config = {"citation": {"format": HTML}}
    searcher = sources.searcher(config)
    response = searcher.search({"query": "leave", "type": "db"}, top_n=2)
    first, second = response.references
    prompt = citation_prompt(searcher.config).invoke({"question": "q", "references": "x"})
    assert 'data-ref-type="web" href="#ref:ref_001">[ref_001]</a>' in prompt.to_string()
    text = (
        f'Stock is 4<a class="ref" data-ref-id="{second.id}" data-ref-type="db" '
        f'href="#ref:{second.id}">[{second.id}]</a>.'
    )
    parser = CitationOutputParser.from_config(searcher.config, references=[first, second])
    parsed = parser.parse(text)
    assert parsed.citations == [second.id] and parsed.references == [second]
