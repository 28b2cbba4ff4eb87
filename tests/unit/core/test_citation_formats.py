"""Citation formats: every reference field, the design's HTML link, Markdown links, both ways."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from unified_search.citations import build_context, citation_prompt, parse_citations
from unified_search.citations.format import format_citation
from unified_search.config import CitationConfig, SearchConfig
from unified_search.config.citation import FIELDS, check_format
from unified_search.engine.searcher import Searcher
from unified_search.errors import ConfigurationError
from unified_search.types import Reference, ResultItem, SearchType, Source

HTML = '<a class="ref" data-ref-id="{id}" data-ref-type="{type}" href="#ref:{id}">[{id}]</a>'
MARKDOWN = "[{title}]({url})"
FORMATS = ["#ref:{id}", HTML, MARKDOWN, "[{index}]", "[^{id}]", "({type} {index}: {url})"]


def _refs() -> list[Reference]:
    items = [
        ResultItem(type="web", url="https://example.org/heat", title="Heat pumps (guide)"),
        ResultItem(type="kb", collection="hr", document_id="leave", title="Leave [2024] policy"),
        ResultItem(type="db", model="products", record_id="7", title="Heat pump X1", score=0.5),
    ]
    cited = [i.model_copy(update={"citation_id": f"ref_{n:03d}"}) for n, i in enumerate(items, 1)]
    return [Reference.from_item(item) for item in cited]


def test_every_field_of_a_reference_can_be_written() -> None:
    web, kb, _ = _refs()
    fmt = "{id}|{index}|{type}|{title}|{url}"
    assert format_citation(fmt, web) == "ref_001|1|web|Heat pumps (guide)|https://example.org/heat"
    assert format_citation(fmt, kb) == "ref_002|2|kb|Leave [2024] policy|#ref:ref_002"
    assert format_citation(HTML, kb) == (
        '<a class="ref" data-ref-id="ref_002" data-ref-type="kb" href="#ref:ref_002">[ref_002]</a>'
    )


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_format_parses_back_to_the_cited_ids(fmt: str) -> None:
    refs = _refs()
    order = [refs[2], refs[0], refs[2], refs[1]]
    answer = "Intro. " + " More. ".join(f"Claim {format_citation(fmt, r)}." for r in order)
    found = parse_citations(answer, fmt=fmt, references=refs)
    assert found.ids == ["ref_003", "ref_001", "ref_002"]
    assert found.unknown == []


@given(st.lists(st.sampled_from(range(3)), max_size=12), st.text(" .,;:\n()[]ab", max_size=8))
def test_markdown_and_html_survive_any_filler(picks: list[int], filler: str) -> None:
    refs = _refs()
    for fmt in (HTML, MARKDOWN):
        text = filler.join(format_citation(fmt, refs[p]) for p in picks)
        expected = list(dict.fromkeys(refs[p].id for p in picks))
        assert parse_citations(text, fmt=fmt, references=refs).ids == expected


def test_unknown_citations_are_flagged_in_every_format() -> None:
    refs = _refs()
    stranger = Reference(
        id="ref_009",
        index=9,
        type=SearchType.WEB,
        source=Source.AUTO,
        weight=0.6,
        score=1.0,
        title="Elsewhere",
        url="https://elsewhere.org/x",
    )
    for fmt in FORMATS:
        text = f"{format_citation(fmt, refs[0])} and {format_citation(fmt, stranger)}"
        found = parse_citations(text, fmt=fmt, references=refs)
        assert found.ids[:1] == ["ref_001"] and len(found.unknown) == 1, fmt
    markdown = parse_citations(
        "[Elsewhere](https://elsewhere.org/x).", fmt=MARKDOWN, references=refs
    )
    assert markdown.ids == [] and markdown.unknown == ["[Elsewhere](https://elsewhere.org/x)"]


def test_urls_are_matched_as_pages_not_as_strings() -> None:
    refs = _refs()
    text = "See [the guide](http://www.example.org/heat/?utm_source=chat)."
    assert parse_citations(text, fmt=MARKDOWN, references=refs).ids == ["ref_001"]


@pytest.mark.parametrize(
    ("fmt", "problem"),
    [
        ("[{ref}]", "unknown field {ref}; valid fields: {id}, {index}, {title}, {type}, {url}"),
        ("[{title}]", "must name the reference with {id}, {index} or {url}"),
        ("[cite]", "must name the reference"),
    ],
)
def test_a_bad_format_fails_at_configuration_load(fmt: str, problem: str, tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError) as info:
        SearchConfig.load(profile={"citation": {"format": fmt}})
    assert info.value.key == "citation.format" and problem in str(info.value)
    file = tmp_path / "search.yml"
    file.write_text(f"citation:\n  format: '{fmt}'\n", encoding="utf-8")
    with pytest.raises(ConfigurationError) as in_file:
        SearchConfig.load(file)
    assert str(file) in str(in_file.value) and problem in str(in_file.value)
    assert check_format(HTML) == HTML and set(FIELDS) == {"id", "index", "title", "type", "url"}


def test_the_default_prompt_explains_weights_and_prefers_the_heavier_reference() -> None:
    prompt = citation_prompt(CitationConfig())
    assert "weight" in prompt and "prefer the one with the higher weight" in prompt
    assert "source (user" in prompt and "type (web, kb or db)" in prompt
    assert "#ref:ref_001" in prompt


def test_the_prompt_shows_the_format_with_the_real_references() -> None:
    refs = _refs()
    html = citation_prompt(CitationConfig(format=HTML), refs)
    assert format_citation(HTML, refs[0]) + format_citation(HTML, refs[1]) in html
    markdown = citation_prompt(CitationConfig(format=MARKDOWN), refs[1:2])
    assert "[Leave [2024] policy](#ref:ref_002)" in markdown
    assert "linked as #ref:" in markdown and "title and url" in markdown
    assert "ref_007 is 7" in citation_prompt(CitationConfig(format="[{index}]"))


def test_an_index_format_puts_the_index_in_the_references_block() -> None:
    items = [
        ResultItem(type="kb", document_id=str(n), content="x", citation_id=f"ref_00{n}")
        for n in (1, 2)
    ]
    plain = ET.fromstring(build_context(items, CitationConfig()).xml)
    numbered = ET.fromstring(build_context(items, CitationConfig(format="[{index}]")).xml)
    assert [r.get("index") for r in plain] == [None, None]
    assert [r.get("index") for r in numbered] == ["1", "2"]


class Pages:
    async def asearch(self, request, ctx):  # type: ignore[no-untyped-def]
        from unified_search.types import SearchResult

        items = [ResultItem(type="web", url="https://example.org/a", title="A page", score=0.9)]
        return SearchResult(type="web", query=request.query, items=items)


async def test_a_searcher_configured_with_the_html_link_prompts_and_parses_it() -> None:
    searcher = Searcher({"citation": {"format": HTML}}, handlers={"web": Pages()})
    response = await searcher.asearch({"query": "q", "type": "web"})
    link = (
        '<a class="ref" data-ref-id="ref_001" data-ref-type="web" href="#ref:ref_001">[ref_001]</a>'
    )
    assert link in response.context.prompt
    answer = f"It says so{link}."
    found = parse_citations(answer, fmt=HTML, references=response.references)
    assert found.ids == ["ref_001"] and found.unknown == []
