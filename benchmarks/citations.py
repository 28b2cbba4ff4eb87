"""Citation numbering cost per search (memory, SQLite, PostgreSQL), and what each citation format costs.

Each search numbers 15 items (three sources of five), one of which was cited
before in the scope. Measured per search, median and p95 over ``--runs``:

- ``continue``: a scope the caller named (``request_id``/``thread_id``/``chat_id``):
  the items are numbered in the store in one transaction before the answer;
- ``fresh``: a scope the engine generated: numbered in memory, written afterwards
  (the cost shown is that write, which runs next to the record's);
- ``memory``: no store at all, the baseline.

Before timing, each store holds a few hundred numbered items and PostgreSQL has
analysed its tables, as autovacuum keeps a live database (fresh tables without
statistics make PostgreSQL scan a whole scope instead of using the index).

The second table compares citation formats on the pages of the recorded provider
answers (tests/fixtures/web: 26 real-shaped titles and URLs, half of them cited
as knowledge-base passages without a URL): the tokens (cl100k_base) a model
writes per citation and for an answer of 12 cited sentences, the tokens of the
citation instruction, and the share of citations parsed back to the right
reference. With ``--corpus`` (BEIR folders), it also counts the spans of
ordinary text that a format's parser would take for citations: every
document of those corpora cites nothing, so each match is a false citation.
``#ref:{id}`` is our default; the HTML link is the format the design
document's own default prompt asks for; ``[{index}]`` is how LlamaIndex's
CitationQueryEngine asks models to cite (its "Source N" numbering).

Usage: python benchmarks/citations.py [--runs N] [--postgres URL] [--corpus DIR ...] [--json PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path

from report import write_json

from unified_search.citations import citation_prompt, parse_citations
from unified_search.citations.format import cited, format_citation
from unified_search.citations.numbering import Numbering
from unified_search.config import CitationConfig
from unified_search.records.store import SearchStore
from unified_search.tokens import count_tokens
from unified_search.types import Reference, ResultItem, SearchType, Source

FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "web"
#: Recorded provider answers and where their list of pages is.
PAGES = {
    "tavily_search_success": ("results",),
    "brave_search_success": ("web", "results"),
    "exa_search_success": ("results",),
    "serper_search_success": ("organic",),
    "searxng_search_success": ("results",),
    "serpapi_google_success": ("organic_results",),
}
FORMATS = {
    "unified-search (default) #ref:{id}": "#ref:{id}",
    "unified-search html link (design prompt)": (
        '<a class="ref" data-ref-id="{id}" data-ref-type="{type}" href="#ref:{id}">[{id}]</a>'
    ),
    "unified-search markdown link": "[{title}]({url})",
    "llama-index CitationQueryEngine style [N]": "[{index}]",
}
CITED_SENTENCES = 12

ITEMS_PER_SEARCH = 15


def items(search: int) -> list[ResultItem]:
    fresh = [
        ResultItem(type=SearchType.KB, collection="c", document_id=f"{search}-{i}")
        for i in range(ITEMS_PER_SEARCH - 1)
    ]
    return [ResultItem(type=SearchType.KB, collection="c", document_id="common"), *fresh]


async def timed(call: Callable[[int], Awaitable[object]], runs: int) -> dict[str, float]:
    await call(-1)  # warm up: connections, statements
    samples = []
    for run in range(runs):
        started = time.perf_counter()
        await call(run)
        samples.append((time.perf_counter() - started) * 1000)
    samples.sort()
    return {
        "median_ms": round(statistics.median(samples), 3),
        "p95_ms": round(samples[int(len(samples) * 0.95) - 1], 3),
    }


async def measure(store: SearchStore | None, runs: int) -> dict[str, float]:
    numbering = Numbering(store)
    scope = f"bench-{uuid.uuid4().hex}"
    if store is not None:
        for warm in range(20):
            await numbering.anumber(scope, items(-2 - warm))
        if store.engine.dialect.name == "postgresql":
            with store.engine.begin() as conn:
                for table in (store.ledger.scopes, store.ledger.ids):
                    conn.exec_driver_sql(f"ANALYZE {table.name}")

    async def continue_scope(run: int) -> None:
        await numbering.anumber(scope, items(run))

    async def fresh_scope(run: int) -> None:
        numbered = await numbering.anumber(numbering.new_scope(), items(run))
        await numbering.aremember(scope + str(run), numbered.unwritten)

    figures = {f"continue_{k}": v for k, v in (await timed(continue_scope, runs)).items()}
    if store is not None:
        figures |= {f"fresh_{k}": v for k, v in (await timed(fresh_scope, runs)).items()}
    return figures


async def main(runs: int, postgres: str | None) -> dict[str, dict[str, float]]:
    systems = {"unified-search (memory, no store)": await measure(None, runs)}
    with tempfile.TemporaryDirectory() as folder:
        sqlite = SearchStore(f"sqlite:///{Path(folder) / 'bench.sqlite3'}")
        systems["unified-search (default) sqlite"] = await measure(sqlite, runs)
        sqlite.close()
    if postgres:
        pg = SearchStore(postgres, table_prefix=f"bench{uuid.uuid4().hex[:8]}_")
        try:
            systems["unified-search postgresql"] = await measure(pg, runs)
        finally:
            pg.metadata.drop_all(pg.engine)
            pg.close()
    return systems


def references() -> list[Reference]:
    """The recorded pages as references; every other one as a passage without a URL."""
    pages = []
    for name, path in PAGES.items():
        data = json.loads((FIXTURES / f"{name}.json").read_text(encoding="utf-8"))["response"]
        for key in path:
            data = data[key]
        pages += [(page["title"], page.get("url") or page["link"]) for page in data]
    return [
        Reference(
            id=f"ref_{n:03d}",
            index=n,
            type=SearchType.WEB if n % 2 else SearchType.KB,
            source=Source.AUTO,
            weight=0.6,
            score=1.0,
            title=title,
            url=url if n % 2 else None,
        )
        for n, (title, url) in enumerate(pages, start=1)
    ]


def answer(fmt: str, refs: list[Reference]) -> tuple[str, list[str], int]:
    """An answer citing one or two references per sentence; its cited IDs and citation tokens."""
    sentences, cited, tokens = [], [], 0
    for n in range(CITED_SENTENCES):
        chosen = [
            refs[(3 * n) % len(refs)],
            *([refs[(3 * n + 1) % len(refs)]] if n % 3 == 0 else []),
        ]
        marks = "".join(format_citation(fmt, ref) for ref in chosen)
        tokens += sum(count_tokens(format_citation(fmt, ref)) for ref in chosen)
        cited += [ref.id for ref in chosen]
        sentences.append(f"Statement number {n} holds{marks}.")
    return " ".join(sentences), list(dict.fromkeys(cited)), tokens


def corpus_texts(folders: list[Path]) -> list[str]:
    """The title and text of every document of the given BEIR corpora."""
    texts = []
    for folder in folders:
        for line in (folder / "corpus.jsonl").read_text(encoding="utf-8").splitlines():
            doc = json.loads(line)
            texts.append(f"{doc.get('title', '')}\n{doc.get('text', '')}")
    return texts


def formats(texts: list[str]) -> dict[str, dict[str, float]]:
    """Tokens, parse-back accuracy and false citations in ordinary text, per citation format."""
    refs = references()
    figures: dict[str, dict[str, float]] = {}
    for name, fmt in FORMATS.items():
        text, cited, tokens = answer(fmt, refs)
        found = parse_citations(text, fmt=fmt, references=refs)
        right = len(set(found.ids) & set(cited))
        per = [count_tokens(format_citation(fmt, ref)) for ref in refs]
        figures[name] = {
            "tokens_per_citation_mean": round(statistics.fmean(per), 2),
            "tokens_per_citation_max": max(per),
            "citation_tokens_per_answer": tokens,
            "instruction_tokens": count_tokens(citation_prompt(CitationConfig(format=fmt), refs)),
            "parsed_back": round(right / len(cited), 3),
            "misparsed": len(found.unknown) + len(set(found.ids) - set(cited)),
        }
        if texts:
            false = [sum(1 for _ in cited_in(text, fmt)) for text in texts]
            figures[name]["false_citations"] = sum(false)
            figures[name]["documents_with_false_citations"] = sum(1 for n in false if n)
    return figures


def cited_in(text: str, fmt: str) -> list[str]:
    """Everything the parser of ``fmt`` takes for a citation in ``text``, resolved or not."""
    return [written for _, written in cited(text, fmt, None)]


def format_table(figures: dict[str, dict[str, float]]) -> str:
    columns = {
        "tokens_per_citation_mean": "tokens / citation (mean)",
        "tokens_per_citation_max": "max",
        "citation_tokens_per_answer": f"citation tokens, {CITED_SENTENCES}-sentence answer",
        "instruction_tokens": "instruction tokens",
        "parsed_back": "parsed back",
        "misparsed": "misparsed",
        "false_citations": "false citations in the corpora",
        "documents_with_false_citations": "documents with one",
    }
    shown = [c for c in columns if all(c in row for row in figures.values())]
    lines = [
        "| format | " + " | ".join(columns[c] for c in shown) + " |",
        "|---|" + "---:|" * len(shown),
    ]
    for name, row in figures.items():
        lines.append(f"| {name} | " + " | ".join(f"{row[c]:g}" for c in shown) + " |")
    return "\n".join(lines)


def table(systems: dict[str, dict[str, float]]) -> str:
    columns = ["continue_median_ms", "continue_p95_ms", "fresh_median_ms", "fresh_p95_ms"]
    lines = [f"{'store':<36}" + "".join(f"{c:>20}" for c in columns)]
    for name, figures in systems.items():
        cells = "".join(f"{figures.get(c, float('nan')):>20.3f}" for c in columns)
        lines.append(f"{name:<36}{cells}")
    return "\n".join(lines)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--postgres", help="a PostgreSQL URL to measure as well")
    parser.add_argument("--json", type=Path)
    parser.add_argument(
        "--corpus", type=Path, nargs="*", default=[], help="BEIR folders of uncited text"
    )
    args = parser.parse_args()
    result = asyncio.run(main(args.runs, args.postgres))
    print(f"citation numbering per search of {ITEMS_PER_SEARCH} items (ms)")
    print(table(result))
    texts = corpus_texts(args.corpus)
    by_format = formats(texts)
    print(f"\ncitation formats (cl100k_base tokens; {len(texts)} uncited documents)")
    print(format_table(by_format))
    result |= by_format
    if args.json:
        write_json(args.json, result)
