"""Rendering untrusted titles and content: printed as text, never as markup."""

from __future__ import annotations

import io
import json
import re

import pytest

from unified_search.cli.console import stdout
from unified_search.cli.render import markdown, show
from unified_search.contract.response import SearchResponse
from unified_search.db.understanding import Understanding
from unified_search.errors import ErrorCode, ErrorInfo
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


def rendered(output: str, shown: SearchResponse | None = None) -> str:
    buffer = io.StringIO()
    console = stdout()
    console.file = buffer
    console.width = 400  # wide enough that no cell wraps
    show(console, shown or response(), output)
    return buffer.getvalue()


def troubled() -> SearchResponse:
    """One source failed, another answered, and the record was not stored."""
    base = response()
    failed = SearchResult(
        type="db",
        query="q",
        error=ErrorInfo(
            code=ErrorCode.NETWORK_ERROR, message="database unreachable", provider="db"
        ),
    )
    warning = ErrorInfo(
        code=ErrorCode.TIMEOUT, message="could not store the search record", provider="store"
    )
    return base.model_copy(
        update={
            "requests": [*base.requests, SearchRequest(query="q", type="db")],
            "results": [SearchResult(type="web", query="q"), failed],
            "warnings": [warning],
        }
    )


@pytest.mark.parametrize("output", ["table", "markdown", "json"])
def test_every_format_shows_failures_and_warnings(output: str) -> None:
    """A reader of any format learns that a source failed and that the answer was not kept."""
    text = rendered(output, troubled())
    for needle in ("NETWORK_ERROR", "database unreachable", "TIMEOUT", "could not store"):
        assert needle in text, (output, needle)
    assert "partial" in text


def test_markdown_lists_failures_after_the_references() -> None:
    lines = markdown(troubled()).splitlines()
    assert lines[0].startswith("1. **[ref_001] ")
    assert lines[-3:] == [
        "**Status: partial**",
        "- failed: NETWORK_ERROR [db]: database unreachable",
        "- warning: TIMEOUT [store]: could not store the search record",
    ]
    assert markdown(response()).count("Status") == 0  # nothing failed: nothing to say


def test_table_prints_markup_and_emoji_codes_literally() -> None:
    text = rendered("table")
    assert "[bold red]Buy now[/bold red] :smile: line break" in text
    assert "😄" not in text


def test_markdown_keeps_one_reference_per_item_line() -> None:
    lines = markdown(response()).splitlines()
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


def test_the_table_shows_the_scores_it_is_ordered_by() -> None:
    """After reranking, the source's own scores are in no order: the table shows the ranking's."""
    base = response().references[0]
    ranked = [
        base.model_copy(
            update={
                "id": f"ref_00{i}",
                "index": i,
                "score": raw,
                "metadata": {"rerank_score": rank},
            }
        )
        for i, (raw, rank) in enumerate([(0.1, 0.93), (0.9, 0.61), (0.0, 0.42)], start=1)
    ]
    shown = response().model_copy(update={"context": ReferenceContext(references=ranked)})
    rows = [line for line in rendered("table", shown).splitlines() if "ref_00" in line]
    scores = [float(cell) for row in rows for cell in row.split("│")[5:6]]
    assert scores == [0.93, 0.61, 0.42]


#: A screen clear, an OSC-8 link, a C1 CSI, DEL and a bidi override, beside markup.
CONTROLS = "[/bold] \x1b[2J\x1b]8;;http://evil.example\x07link\x1b]8;;\x07 \x9b31m\x7f \u202eevil"
ACTIVE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def controlled() -> SearchResponse:
    """Controls in every place a response carries found or sent text: items, trace, errors."""
    base = troubled()
    ref = base.references[0].model_copy(update={"title": CONTROLS, "content": CONTROLS})
    failed = base.results[1].model_copy(
        update={"error": ErrorInfo(code=ErrorCode.UNKNOWN, message=CONTROLS, provider="db")}
    )
    context = base.context.model_copy(update={"references": [ref], "xml": CONTROLS})
    return base.model_copy(
        update={"context": context, "results": [base.results[0], failed], "trace": []}
    )


@pytest.mark.parametrize("output", ["table", "markdown", "xml", "json"])
def test_terminal_controls_are_shown_as_escapes_in_every_format(output: str) -> None:
    text = rendered(output, controlled())
    assert ACTIVE.search(text) is None, (output, ACTIVE.search(text))
    if output == "json":  # exact: it reads back as the very text
        assert json.loads(text)["references"][0]["title"] == CONTROLS
    else:
        assert "\\x1b[2J" in text and "\\u202eevil" in text and "\\x9b31m" in text


def test_the_trace_shows_queries_and_errors_as_text() -> None:
    from unified_search.cli.render import trace_table
    from unified_search.contract.events import TraceNode

    node = TraceNode(
        id="n1",
        kind="search_item",
        label="kb",
        status="failed",
        input={"query": CONTROLS},
        error=ErrorInfo(code=ErrorCode.UNKNOWN, message=CONTROLS),
    )
    buffer = io.StringIO()
    console = stdout()
    console.file, console.width = buffer, 400
    console.print(trace_table([node]))
    assert ACTIVE.search(buffer.getvalue()) is None
    assert "[/bold] \\x1b[2J" in buffer.getvalue()
