"""Rendering untrusted titles and content: printed as text, never as markup."""

from __future__ import annotations

import io
import json

from unified_search.cli.console import stdout
from unified_search.cli.render import markdown, show
from unified_search.db.understanding import Understanding
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


def test_database_answers_show_how_the_question_was_understood() -> None:
    understanding = Understanding(
        understood="books where genre = Fantasy",
        not_understood=["[red]wobbly[/red]"],
        corrections=["bokks → books"],
        warnings=["writer returned an unusable DSL: model 'x' is not one of books"],
    )
    result = SearchResult(
        type="db", query="fantasy bokks", metadata={"understanding": understanding.as_metadata()}
    )
    base = response()
    db = base.model_copy(
        update={"requests": [SearchRequest(query="fantasy bokks", type="db")], "results": [result]}
    )
    buffer = io.StringIO()
    console = stdout()
    console.file, console.width = buffer, 400
    show(console, db, "table")
    text = buffer.getvalue()
    assert "understood as: books where genre = Fantasy; not understood: [red]wobbly[/red]" in text
    assert "read bokks → books" in text and "warning: writer returned an unusable DSL" in text
    shown = json.loads(_json(db))["understood"]
    assert shown == [{"line": understanding.line(), **understanding.model_dump(mode="json")}]


def _json(value: SearchResponse) -> str:
    buffer = io.StringIO()
    console = stdout()
    console.file, console.width = buffer, 400
    show(console, value, "json")
    return buffer.getvalue()
