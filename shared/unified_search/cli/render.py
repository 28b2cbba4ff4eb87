"""Show a search response on the terminal: a table, JSON, the ``<references>`` XML or Markdown.

Titles, content, queries and error messages come from the web, from databases and
from whoever sent a query: they are printed as plain text (never read as Rich markup,
terminal controls shown as escapes; see ``cli.console.plain``) and flattened to one
line per cell.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from unified_search.cli.console import plain, print_json
from unified_search.contract.events import TraceNode
from unified_search.contract.response import SearchResponse
from unified_search.db.understanding import understandings, understood_json
from unified_search.errors import REFUSALS, ErrorInfo
from unified_search.escape import visible
from unified_search.policy.synthesis import flat
from unified_search.types import Reference

SNIPPET = 90
"""Characters of content shown per reference in the table."""


def show(console: Console, response: SearchResponse, output: str) -> None:
    """Print ``response`` in the ``output`` format (table, json, xml or markdown)."""
    if output == "json":
        print_json(console, response_json(response))
    elif output == "xml":
        console.print(plain(response.context.xml), highlight=False, soft_wrap=True)
    elif output == "markdown":
        console.print(plain(markdown(response)), highlight=False, soft_wrap=True)
    else:
        show_table(console, response)


def show_table(console: Console, response: SearchResponse) -> None:
    """References, the trace, how database questions were read, the failures, the record."""
    console.print(references_table(response.references))
    console.print(trace_table(response.trace))
    for line in understood_lines(response):
        console.print(plain(line), highlight=False)
    for error in response.errors:
        what = ("refused", "yellow") if error.code in REFUSALS else ("failed", "red")
        console.print(Text.assemble(what, " ", plain(error_line(error))))
    for warning in response.warnings:
        console.print(Text.assemble(("warning", "yellow"), " ", plain(error_line(warning))))
    console.print(
        plain(
            f"status: {response.status}  request id: {response.request_id}  "
            f"({response.duration_ms:.0f} ms)"
        ),
        highlight=False,
    )


def response_json(response: SearchResponse) -> dict[str, Any]:
    """The parts of a response a program needs, as plain JSON."""
    return {
        "request_id": response.request_id,
        "chat_id": response.chat_id,
        "status": response.status,
        "duration_ms": round(response.duration_ms, 3),
        "references": [ref.model_dump(mode="json") for ref in response.references],
        "errors": [error.model_dump(mode="json") for error in response.errors],
        "warnings": [warning.model_dump(mode="json") for warning in response.warnings],
        "trace": [trace_row(node) for node in response.trace if node.kind == "search_item"],
        "understood": understood_json(response.results),
        "xml": response.context.xml,
        "prompt": response.context.prompt,
    }


def understood_lines(response: SearchResponse) -> list[str]:
    """``understood as: …`` per database request, with its corrections and warnings."""
    lines = []
    for understanding in understandings(response.results):
        lines.append(understanding.line())
        if understanding.corrections:
            lines.append(f"  read {', '.join(understanding.corrections)}")
        lines += [f"  warning: {w}" for w in understanding.warnings]
    return lines


def references_table(references: Sequence[Reference], title: str = "References") -> Table:
    """One row per cited reference, best first."""
    table = Table(title=title, title_justify="left", expand=False)
    for column in ("id", "type", "title", "where", "score", "content"):
        table.add_column(column, overflow="fold")
    for ref in references:
        table.add_row(
            plain(ref.id),
            ref.type.value,
            plain(ref.title, 60),
            plain(where(ref), line=True),
            f"{ranking_score(ref):.2f}",
            plain(ref.content, SNIPPET),
        )
    if not references:
        table.add_row("-", "-", "no references found", "", "", "")
    return table


def ranking_score(ref: Reference) -> float:
    """The score the references are ordered by: the reranker's, else the source's own."""
    score = ref.metadata.get("rerank_score")
    return float(score) if isinstance(score, int | float) else ref.score


def where(ref: Reference) -> str:
    """Where a reference lives: a URL, a document (relative path) and collection, or a row.

    A URL is followed by the providers that agreed on it (``[brave, exa]``).
    """
    if ref.url:
        providers = agreeing(ref)
        return f"{ref.url} [{', '.join(providers)}]" if providers else ref.url
    if ref.collection:
        return f"{ref.document_id} ({ref.collection})" if ref.document_id else ref.collection
    if ref.model:
        return f"{ref.model}#{ref.record_id}" if ref.record_id else ref.model
    return ""


def agreeing(ref: Reference) -> list[str]:
    """The web providers that found the reference's page, in the order they answered."""
    names = ref.metadata.get("providers") or [ref.metadata.get("provider")]
    return [name for name in names if isinstance(name, str)]


def trace_table(trace: Sequence[TraceNode]) -> Table:
    """Which source took how long, found how much, or failed and why."""
    table = Table(title="Trace", title_justify="left")
    for column in ("source", "query", "status", "items", "ms", "error"):
        table.add_column(column, overflow="fold")
    for node in _steps_under_their_node(trace):
        row = trace_row(node)
        table.add_row(
            plain(row["source"]),
            plain(row["query"], 60),
            _coloured(row["status"]),
            str(row["items"]),
            f"{row['ms']:.0f}",
            plain(row["error"], line=True),
        )
    return table


def _steps_under_their_node(trace: Sequence[TraceNode]) -> list[TraceNode]:
    """Each node followed by its own steps (the search's rerank, a request's embedding ...)."""
    steps = [node for node in trace if node.kind == "search_step"]
    ordered: list[TraceNode] = []
    for node in [n for n in trace if n.kind != "search_step"]:
        ordered += [node, *(step for step in steps if step.parent_id == node.id)]
    return ordered


def trace_row(node: TraceNode) -> dict[str, Any]:
    """One trace node as a flat row; a step is shown by its name under its node."""
    if node.kind == "search_step":
        source = f"  └ {node.input.get('step', node.label)}"
        items = node.output.get("result_count", node.output.get("rows", ""))
    else:
        source = node.type.value if node.type else "search (total)"
        items = node.output.get("result_count", 0)
    return {
        "source": source,
        "query": node.input.get("query"),
        "status": node.status.value,
        "items": items,
        "ms": float(node.output.get("duration_ms", 0.0)),
        "error": error_line(node.error) if node.error else None,
    }


def error_line(error: ErrorInfo) -> str:
    """``CODE [provider]: message`` on one line."""
    provider = f" [{error.provider}]" if error.provider else ""
    return f"{error.code.value}{provider}: {flat(visible(error.message))}"


def markdown(response: SearchResponse) -> str:
    """A numbered Markdown list of the references, each with its citation ID, then the failures."""
    lines = []
    for ref in response.references:
        agreed = f" [{', '.join(agreeing(ref))}]" if ref.url and agreeing(ref) else ""
        link = f" <{ref.url}>{agreed}" if ref.url else f" ({where(ref)})" if where(ref) else ""
        lines.append(
            f"{ref.index}. **[{ref.id}] {flat(visible(ref.title)) or '(untitled)'}**{link}"
        )
        if ref.content:
            lines.append(f"   {flat(visible(ref.content), 300)}")
    if not lines:
        lines.append("_No references found._")
    problems = [
        f"- {'refused' if e.code in REFUSALS else 'failed'}: {error_line(e)}"
        for e in response.errors
    ]
    problems += [f"- warning: {error_line(w)}" for w in response.warnings]
    if problems:
        lines += ["", f"**Status: {response.status}**", *problems]
    return "\n".join(lines)


def _coloured(status: str) -> Text:
    colour = {"completed": "green", "failed": "red", "skipped": "yellow"}.get(status)
    return plain(status, style=colour or "")
