"""Fan-out: UnifiedSearchRetriever vs LlamaIndex QueryFusionRetriever, in one table.

Both fuse the same three mocked sources by reciprocal rank. Ours: one
Searcher whose knowledge-base handler serves three requests (one per source)
with ``asyncio.sleep``, behind ``UnifiedSearchRetriever`` with the ``rrf``
reranker. Peer: ``QueryFusionRetriever`` (``reciprocal_rerank``,
``num_queries=1`` so no LLM query generation) over three ``BaseRetriever``s
that ``time.sleep`` in ``_retrieve`` and ``asyncio.sleep`` in ``_aretrieve``.

Speed: sources answer after 50, 100 and 200 ms; the median wall time of
several runs, and the ratio to our sync ``retrieve`` (the machine is noisy;
compare ratios). Quality (with ``--scifact DIR``, a BEIR SciFact copy): the
three sources become BM25 rankings of the titles, the abstracts and both, and
each fused top 10 is scored by nDCG@10 over the test queries.

Usage: python benchmarks/llamaindex_fanout.py [--runs N] [--scifact DIR] [--json PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import csv
import json
import math
import statistics
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from llama_index.core.base.base_retriever import BaseRetriever
from llama_index.core.llms import MockLLM
from llama_index.core.retrievers import QueryFusionRetriever
from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode
from report import write_json

from llama_index_unified_search import UnifiedSearchRetriever
from unified_search.contract.handler import SearchContext
from unified_search.engine.searcher import Searcher
from unified_search.types import ResultItem, SearchRequest, SearchResult

TOP_K = 10
DEPTH = 20  # documents each source returns
QUERY = "how do heat pumps work"
Ranking = list[tuple[str, str, float]]  # (doc id, text, score), best first


@dataclass(frozen=True)
class Source:
    """A mocked source: a ranking function and how long it takes to answer."""

    name: str
    delay: float
    rank: Callable[[str], Ranking]


class SleepingHandler:
    """Our side: one knowledge-base handler serving each source as a collection."""

    def __init__(self, sources: list[Source]) -> None:
        self.sources = {source.name: source for source in sources}

    async def asearch(self, request: SearchRequest, ctx: SearchContext) -> SearchResult:
        source = self.sources[request.collections[0]]
        await asyncio.sleep(source.delay)
        items = [
            # One shared collection name: the same document from two sources is one item.
            ResultItem(type="kb", collection="bench", document_id=doc, content=text, score=score)
            for doc, text, score in source.rank(request.query)
        ]
        return SearchResult(type="kb", query=request.query, items=items)


class SleepingRetriever(BaseRetriever):
    """The peer's side: one LlamaIndex retriever per source (blocking when sync)."""

    def __init__(self, source: Source) -> None:
        self.source = source
        super().__init__()

    def _nodes(self, query: str) -> list[NodeWithScore]:
        return [
            NodeWithScore(node=TextNode(id_=doc, text=text), score=score)
            for doc, text, score in self.source.rank(query)
        ]

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        time.sleep(self.source.delay)
        return self._nodes(query_bundle.query_str)

    async def _aretrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        await asyncio.sleep(self.source.delay)
        return self._nodes(query_bundle.query_str)


def ours(sources: list[Source]) -> UnifiedSearchRetriever:
    searcher = Searcher({"uses": {"rerank": "rrf"}}, handlers={"kb": SleepingHandler(sources)})
    requests = [{"type": "kb", "collections": [source.name]} for source in sources]
    return UnifiedSearchRetriever(searcher, requests=requests, top_k=TOP_K)


def peer(sources: list[Source], use_async: bool) -> QueryFusionRetriever:
    return QueryFusionRetriever(
        [SleepingRetriever(source) for source in sources],
        llm=MockLLM(),
        mode="reciprocal_rerank",
        num_queries=1,
        use_async=use_async,
        similarity_top_k=TOP_K,
    )


def systems(sources: list[Source]) -> dict[str, Callable[[str], list[NodeWithScore]]]:
    """Each compared system as a function from query to fused nodes."""
    retriever, fused_async, fused_sync = ours(sources), peer(sources, True), peer(sources, False)
    return {
        "unified-search (default) retrieve": retriever.retrieve,
        "unified-search aretrieve": lambda q: asyncio.run(retriever.aretrieve(q)),
        "llamaindex QueryFusion use_async=True retrieve": fused_async.retrieve,
        "llamaindex QueryFusion use_async=True aretrieve": lambda q: asyncio.run(
            fused_async.aretrieve(q)
        ),
        "llamaindex QueryFusion use_async=False retrieve": fused_sync.retrieve,
    }


# -- speed --------------------------------------------------------------------------------


def synthetic(name: str) -> Callable[[str], Ranking]:
    ranking = [(f"{name}-{i}", f"{name} document {i}", 1.0 - i / 40) for i in range(DEPTH)]
    return lambda query: ranking


SLOW_SOURCES = [Source(n, d, synthetic(n)) for n, d in [("a", 0.05), ("b", 0.10), ("c", 0.20)]]


def median_ms(call: Callable[[str], list[NodeWithScore]], runs: int) -> float:
    call(QUERY)  # warm-up: first-use imports and loop start are not fan-out time
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        nodes = call(QUERY)
        times.append((time.perf_counter() - started) * 1000)
        assert len(nodes) == TOP_K, len(nodes)
    return statistics.median(times)


def speed(runs: int) -> dict[str, dict[str, float]]:
    slowest = max(source.delay for source in SLOW_SOURCES) * 1000
    results = {
        name: {"median_ms": median_ms(call, runs)} for name, call in systems(SLOW_SOURCES).items()
    }
    baseline = results["unified-search (default) retrieve"]["median_ms"]
    for metrics in results.values():
        metrics["ratio_to_unified_search"] = metrics["median_ms"] / baseline
        # Time beyond the slowest source: what the fan-out itself costs.
        metrics["overhead_ms"] = metrics["median_ms"] - slowest
    return results


# -- quality ------------------------------------------------------------------------------


def _jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def bm25_source(name: str, ids: list[str], texts: list[str], shown: list[str]) -> Source:
    """Rank by BM25 over ``texts``; answer with ``shown`` so that both fusers see one text per
    document whichever field ranked it (LlamaIndex identifies nodes by a hash of their text)."""
    import bm25s  # the benchmark's own optional dependency (installed with the kb extra)
    import Stemmer

    stemmer = Stemmer.Stemmer("english")
    index = bm25s.BM25()
    tokens = bm25s.tokenize(texts, stopwords="en", stemmer=stemmer, show_progress=False)
    index.index(tokens, show_progress=False)

    def rank(query: str) -> Ranking:
        tokens = bm25s.tokenize([query], stopwords="en", stemmer=stemmer, show_progress=False)
        docs, scores = index.retrieve(tokens, k=DEPTH, show_progress=False)
        return [(ids[d], shown[d], float(s)) for d, s in zip(docs[0], scores[0], strict=True)]

    return Source(name, 0.0, rank)


def ndcg_at_10(ranked: list[str], relevant: set[str]) -> float:
    gain = sum(1 / math.log2(i + 2) for i, doc in enumerate(ranked[:10]) if doc in relevant)
    ideal = sum(1 / math.log2(i + 2) for i in range(min(len(relevant), 10)))
    return gain / ideal


def quality(directory: Path) -> dict[str, float]:
    corpus = _jsonl(directory / "corpus.jsonl")
    queries = {q["_id"]: q["text"] for q in _jsonl(directory / "queries.jsonl")}
    qrels: defaultdict[str, set[str]] = defaultdict(set)
    with (directory / "qrels" / "test.tsv").open() as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            qrels[row["query-id"]].add(row["corpus-id"])
    ids = [doc["_id"] for doc in corpus]
    fields = {
        "title": [doc["title"] for doc in corpus],
        "abstract": [doc["text"] for doc in corpus],
        "title+abstract": [f"{doc['title']} {doc['text']}" for doc in corpus],
    }
    shown = fields["title+abstract"]
    sources = [bm25_source(name, ids, texts, shown) for name, texts in fields.items()]
    retriever, fused = ours(sources), peer(sources, False)
    # The async twins fuse exactly as the sync calls measured here.
    scored: dict[str, Callable[[str], list[str]]] = {
        "unified-search": lambda q: [
            n.node.metadata["unified_search"]["document_id"] for n in retriever.retrieve(q)
        ],
        "llamaindex": lambda q: [n.node.node_id for n in fused.retrieve(q)],
    }
    scored |= {f"bm25 {s.name} alone": lambda q, s=s: [d for d, _, _ in s.rank(q)] for s in sources}
    return {
        name: statistics.mean(ndcg_at_10(run(queries[qid]), rel) for qid, rel in qrels.items())
        for name, run in scored.items()
    }


# -- report -------------------------------------------------------------------------------


def merge(
    timing: dict[str, dict[str, float]], ndcg: dict[str, float]
) -> dict[str, dict[str, float]]:
    results = {name: dict(metrics) for name, metrics in timing.items()}
    for name, metrics in results.items():
        family = "unified-search" if name.startswith("unified-search") else "llamaindex"
        if family in ndcg:
            metrics["ndcg@10_scifact"] = ndcg[family]
    for name, value in ndcg.items():
        if name.startswith("bm25"):
            results[f"reference: {name}"] = {"ndcg@10_scifact": value}
    return results


def _cell(metrics: dict[str, float], key: str, width: int, digits: int) -> str:
    return f"{metrics[key]:>{width}.{digits}f}" if key in metrics else f"{'-':>{width}}"


def table(results: dict[str, dict[str, float]], runs: int) -> str:
    width = max(len(name) for name in results)
    lines = [
        f"3 sources fused by reciprocal rank, top {TOP_K}; speed: sources answer after "
        f"50/100/200 ms, median of {runs} runs; quality: nDCG@10 on SciFact test (300 queries)",
        f"{'system':<{width}}  {'median ms':>9}  {'over 200 ms':>11}  {'× ours':>7}  {'nDCG@10':>7}",
        f"{'-' * width}  {'-' * 9}  {'-' * 11}  {'-' * 7}  {'-' * 7}",
    ]
    for name, m in results.items():
        cells = [
            _cell(m, "median_ms", 9, 1),
            _cell(m, "overhead_ms", 11, 1),
            _cell(m, "ratio_to_unified_search", 7, 2),
            _cell(m, "ndcg@10_scifact", 7, 4),
        ]
        lines.append(f"{name:<{width}}  " + "  ".join(cells))
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="timed runs per system")
    parser.add_argument("--scifact", type=Path, help="BEIR SciFact directory for nDCG@10")
    parser.add_argument("--json", type=Path, help="write {systems: {name: {metric: value}}} here")
    args = parser.parse_args()
    results = merge(speed(args.runs), quality(args.scifact) if args.scifact else {})
    print(table(results, args.runs))
    if args.json:
        write_json(args.json, results)


if __name__ == "__main__":
    main()
