"""Rendering untrusted titles and content: printed as text, never as markup."""

from __future__ import annotations

import io
import json

from unified_search.cli.console import stdout
from unified_search.cli.render import markdown, show
from unified_search.response import SearchResponse
from unified_search.types import Reference, ReferenceContext, SearchRequest, SearchResult

HOSTILE = "[bold red]Buy now[/bold red] :smile: line\nbreak"


def response() -> SearchResponse:
    ref = Reference(
        id="ref_001",
        index=1,
        type="web",
        source="user",
        weight=1.0,
        score=0.5,
        title=HOSTILE,
        content=HOSTILE,
        url="https://shop.example/x",
    )
    request = SearchRequest(query="q", type="web")
    return SearchResponse(
        request_id="r1",
        requests=[request],
        results=[SearchResult(type="web", query="q")],
        context=ReferenceContext(references=[ref], xml="<references>x</references>"),
    )


def rendered(output: str) -> str:
    buffer = io.StringIO()
    console = stdout()
    console.file = buffer
    console.width = 400  # wide enough that no cell wraps
    show(console, response(), output)
    return buffer.getvalue()


def test_table_prints_markup_and_emoji_codes_literally() -> None:
    text = rendered("table")
    assert "[bold red]Buy now[/bold red] :smile: line break" in text
    assert "😄" not in text


def test_markdown_keeps_one_reference_per_item_line() -> None:
    lines = markdown(response().references).splitlines()
    assert lines[0] == f"1. **[ref_001] {' '.join(HOSTILE.split())}** <https://shop.example/x>"
    assert len(lines) == 2


def test_json_output_is_the_response_for_programs() -> None:
    data = json.loads(rendered("json"))
    assert data["request_id"] == "r1" and data["status"] == "empty"
    assert data["references"][0]["title"] == HOSTILE
