"""Reranking quality and speed on a BEIR-format dataset (nDCG@10, ms per 100 candidates).

First stage: BM25 (bm25s, English stemming) over the whole corpus, top 100 per
query. Then each local reranker of unified-search reorders those 100:

* ``rrf``: reciprocal-rank fusion of the BM25 list and the embedding model's
  dense ranking of the same candidates (LlamaIndex's fusion on the same two
  lists is the peer);
* ``weighted`` (the default): score × source weight, i.e. the BM25 order here;
* ``intent``: keyword coverage / freshness / authority (no dates or URLs here,
  so mostly keyword coverage), with the default weight table (the search-layer
  design's) and with the table used before it;
* ``embedding``: cosine similarity with the offline all-MiniLM-L6-v2 (int8);
* ``cross_encoder``: only with ``--cross-encoder MODEL`` and sentence-transformers.

Document embeddings are cached per text within the run (quality pass). The
latency column is measured separately on ``--latency-queries`` queries with no
cache, i.e. every candidate embedded afresh, and is given per 100 candidates.

A second table counts the queries whose deep-search expansion would rewrite a
common English word as a technical name: the search-layer design's synonyms
(``Go`` → Golang, ``React`` → React.js) read in any case, as the design writes
them, against ours, which read such names only as written ("B cells go through
..." is not about Golang).

Usage:
    python benchmarks/rerank.py --data ../shared/datasets/scifact [--limit-queries 50] [--only intent] [--json out.json]
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import math
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from report import absent, write_json

from unified_search.config.rerank import IntentRerankConfig
from unified_search.kb.embeddings import default_embedding
from unified_search.nlp.expand import synonym_table, synonyms_in
from unified_search.nlp.synonyms import CASED_SYNONYMS
from unified_search.rerank.base import Reranker
from unified_search.rerank.cross_encoder import CrossEncoderReranker
from unified_search.rerank.embedding import EmbeddingReranker
from unified_search.rerank.intent import IntentReranker
from unified_search.rerank.rrf import RRFReranker
from unified_search.rerank.weighted import WeightedReranker
from unified_search.types import ResultItem

Qrels = dict[str, dict[str, int]]
#: The intent weights (keyword, freshness, authority) used before the design's table.
EARLIER_INTENT_WEIGHTS = {
    "factual": (0.6, 0.1, 0.3),
    "status": (0.4, 0.4, 0.2),
    "comparison": (0.6, 0.15, 0.25),
    "tutorial": (0.5, 0.2, 0.3),
    "exploratory": (0.6, 0.15, 0.25),
    "news": (0.35, 0.5, 0.15),
    "resource": (0.4, 0.05, 0.55),
}
Embed = Callable[[list[str]], Sequence[Sequence[float]]]
NOT_AVAILABLE = "not available offline"


def load(data: Path, split: str) -> tuple[dict[str, dict[str, str]], dict[str, str], Qrels]:
    corpus = {}
    for line in (data / "corpus.jsonl").read_text(encoding="utf-8").splitlines():
        doc = json.loads(line)
        corpus[doc["_id"]] = {"title": doc.get("title", ""), "text": doc.get("text", "")}
    queries = {}
    for line in (data / "queries.jsonl").read_text(encoding="utf-8").splitlines():
        query = json.loads(line)
        queries[query["_id"]] = query["text"]
    qrels: Qrels = {}
    for row in (data / "qrels" / f"{split}.tsv").read_text(encoding="utf-8").splitlines()[1:]:
        qid, did, score = row.split("\t")[:3]
        qrels.setdefault(qid, {})[did] = int(score)
    return corpus, queries, qrels


def first_stage(
    corpus: dict[str, dict[str, str]], texts: list[str], depth: int
) -> list[list[ResultItem]]:
    import bm25s
    import Stemmer

    stemmer = Stemmer.Stemmer("english")
    ids = list(corpus)
    docs = [f"{corpus[i]['title']} {corpus[i]['text']}" for i in ids]
    retriever = bm25s.BM25()
    retriever.index(
        bm25s.tokenize(docs, stopwords="en", stemmer=stemmer, show_progress=False),
        show_progress=False,
    )
    tokens = bm25s.tokenize(texts, stopwords="en", stemmer=stemmer, show_progress=False)
    hits, scores = retriever.retrieve(tokens, k=depth, show_progress=False)
    return [
        [
            ResultItem(
                type="kb",
                collection="corpus",
                document_id=ids[int(index)],
                title=corpus[ids[int(index)]]["title"],
                content=corpus[ids[int(index)]]["text"],
                score=float(score),
            )
            for index, score in zip(row_hits, row_scores, strict=True)
        ]
        for row_hits, row_scores in zip(hits, scores, strict=True)
    ]


class CachedEmbedding:
    """Embed each distinct text once per run (the quality pass repeats documents across queries)."""

    def __init__(self, embed: Embed) -> None:
        self.embed = embed
        self.cache: dict[str, Sequence[float]] = {}

    def __call__(self, texts: list[str]) -> list[Sequence[float]]:
        missing = list(dict.fromkeys(t for t in texts if t not in self.cache))
        if missing:
            self.cache.update(zip(missing, self.embed(missing), strict=True))
        return [self.cache[t] for t in texts]


class DenseFusion:
    """RRF of the first-stage list and the dense ranking of the same candidates."""

    def __init__(
        self, embed: Embed, fuse: Callable[[list[list[ResultItem]], list[ResultItem]], Any]
    ) -> None:
        self.dense = EmbeddingReranker(embed)
        self.fuse = fuse

    async def arerank(self, query: str, items: list[ResultItem]) -> list[ResultItem]:
        dense = await self.dense.arerank(query, items)
        dense = [i.model_copy(update={"score": i.metadata["rerank_score"]}) for i in dense]
        return list(await self.fuse([list(items), dense], items))


def ours_rrf(lists: list[list[ResultItem]], items: list[ResultItem]) -> Any:
    return RRFReranker().arerank("", items, lists=lists)


async def llama_index_rrf(
    lists: list[list[ResultItem]], items: list[ResultItem]
) -> list[ResultItem]:
    """LlamaIndex's QueryFusionRetriever fusion (k=60, unweighted) on the same two lists."""
    from llama_index.core.retrievers.fusion_retriever import QueryFusionRetriever
    from llama_index.core.schema import NodeWithScore, TextNode

    by_id = {i.document_id: i for i in items}
    results = {
        (str(n), 0): [
            NodeWithScore(node=TextNode(text=i.document_id or "", id_=i.document_id), score=i.score)
            for i in ranked
        ]
        for n, ranked in enumerate(lists)
    }
    fused = QueryFusionRetriever._reciprocal_rerank_fusion(None, results)  # type: ignore[arg-type]
    return [by_id[node.node.node_id] for node in fused]


def ndcg_at_10(ranked: Sequence[ResultItem], relevant: dict[str, int]) -> float:
    gains = [relevant.get(item.document_id or "", 0) for item in ranked[:10]]
    dcg = sum(g / math.log2(rank + 2) for rank, g in enumerate(gains))
    ideal = sorted(relevant.values(), reverse=True)[:10]
    idcg = sum(g / math.log2(rank + 2) for rank, g in enumerate(ideal))
    return dcg / idcg if idcg else 0.0


def systems(embed: Embed, cross_model: str | None) -> dict[str, Any]:
    """Name → async (query, candidates) → ranked list; None when not available."""

    def wrap(reranker: Reranker) -> Callable[[str, list[ResultItem]], Any]:
        return lambda query, items: reranker.arerank(query, items)

    cross: Any = None
    if cross_model and importlib.util.find_spec("sentence_transformers"):
        from unified_search.config.rerank import CrossEncoderConfig

        cross = wrap(CrossEncoderReranker(config=CrossEncoderConfig(model=cross_model)))
    return {
        "llama-index fusion (bm25 + dense)": DenseFusion(embed, llama_index_rrf).arerank
        if importlib.util.find_spec("llama_index")
        else None,
        "unified-search rrf (bm25 + dense)": DenseFusion(embed, ours_rrf).arerank,
        "unified-search weighted (default)": wrap(WeightedReranker()),
        "unified-search intent": wrap(IntentReranker()),
        "unified-search intent (earlier weights)": wrap(IntentReranker(_earlier_weights())),
        "unified-search embedding": wrap(EmbeddingReranker(embed)),
        "unified-search cross_encoder": cross,
    }


def _earlier_weights() -> IntentRerankConfig:
    weights = {
        intent: {"keyword": k, "freshness": f, "authority": a}
        for intent, (k, f, a) in EARLIER_INTENT_WEIGHTS.items()
    }
    return IntentRerankConfig.model_validate({"weights": weights})


async def quality(
    runs: dict[str, Any],
    queries: list[tuple[str, str]],
    candidates: list[list[ResultItem]],
    qrels: Qrels,
) -> dict[str, float | None]:
    scores: dict[str, float | None] = {"bm25s (first stage)": _mean(candidates, queries, qrels)}
    for name, run in runs.items():
        if run is None:
            scores[name] = None
            continue
        ranked = [
            await run(text, items) for (qid, text), items in zip(queries, candidates, strict=True)
        ]
        scores[name] = _mean(ranked, queries, qrels)
        print(f"  {name}: done", file=sys.stderr)
    return scores


def _mean(ranked: list[list[ResultItem]], queries: list[tuple[str, str]], qrels: Qrels) -> float:
    return statistics.fmean(
        ndcg_at_10(r, qrels[qid]) for r, (qid, _) in zip(ranked, queries, strict=True)
    )


async def latency(
    runs: dict[str, Any], queries: list[tuple[str, str]], candidates: list[list[ResultItem]]
) -> dict[str, float | None]:
    """Milliseconds per 100 candidates, cold (no embedding cache)."""
    timings: dict[str, float | None] = {"bm25s (first stage)": None}
    for name, run in runs.items():
        if run is None:
            timings[name] = None
            continue
        spent, count = 0.0, 0
        for (_, text), items in zip(queries, candidates, strict=True):
            started = time.perf_counter()
            await run(text, items)
            spent += time.perf_counter() - started
            count += len(items)
        timings[name] = spent * 1000 * 100 / count if count else None
    return timings


def table(
    scores: dict[str, float | None], timings: dict[str, float | None], recall: float, n: int
) -> str:
    base = scores["bm25s (first stage)"] or 1.0
    lines = [
        f"Reranking the BM25 top-{DEPTH} of {n} queries (first-stage recall@{DEPTH} = {recall:.3f})",
        "",
        "| system | nDCG@10 | vs BM25 | rerank ms / 100 candidates (cold) |",
        "|---|---:|---:|---:|",
    ]
    for name, score in scores.items():
        if score is None:
            lines.append(f"| {name} | {NOT_AVAILABLE} | – | – |")
            continue
        ms = timings.get(name)
        lines.append(
            f"| {name} | {score:.4f} | {score / base:.3f}× | {'–' if ms is None else f'{ms:,.1f}'} |"
        )
    return "\n".join(lines)


DEPTH = 100
#: The design's synonyms as it writes them: every key read in any case.
DESIGN_SYNONYMS = {key.lower(): value for key, value in synonym_table().items()}


def common_word_rewrites(texts: Sequence[str]) -> dict[str, int]:
    """Queries in which a name that is also a common word (go, react ...) would be expanded."""
    names = {name.lower() for name in CASED_SYNONYMS}
    ours = synonym_table()

    def rewrites(table: dict[str, str]) -> int:
        return sum(1 for t in texts if {w.lower() for w in synonyms_in(t, table)} & names)

    return {
        "design synonyms (names in any case)": rewrites(DESIGN_SYNONYMS),
        "unified-search synonyms (names as written)": rewrites(ours),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, required=True, help="BEIR dataset folder")
    parser.add_argument("--split", default="test")
    parser.add_argument(
        "--limit-queries", type=int, default=None, help="evaluate only the first N queries"
    )
    parser.add_argument(
        "--latency-queries", type=int, default=5, help="queries timed without a cache"
    )
    parser.add_argument(
        "--cross-encoder", default=None, help="sentence-transformers cross-encoder model"
    )
    parser.add_argument(
        "--json", type=Path, default=None, help="write {'systems': {name: {metric: value}}}"
    )
    parser.add_argument(
        "--only", default=None, help="run only the systems whose name contains this text"
    )
    args = parser.parse_args()

    corpus, all_queries, qrels = load(args.data, args.split)
    queries = [(qid, all_queries[qid]) for qid in qrels if qid in all_queries][: args.limit_queries]
    candidates = first_stage(corpus, [text for _, text in queries], min(DEPTH, len(corpus)))
    recall = statistics.fmean(
        len({i.document_id for i in c} & set(qrels[qid])) / len(qrels[qid])
        for c, (qid, _) in zip(candidates, queries, strict=True)
    )
    model = default_embedding()

    def chosen(embed: Embed) -> dict[str, Any]:
        every = systems(embed, args.cross_encoder)
        return {name: run for name, run in every.items() if (args.only or "") in name}

    scores = asyncio.run(quality(chosen(CachedEmbedding(model)), queries, candidates, qrels))
    sample = slice(0, args.latency_queries)
    timings = asyncio.run(latency(chosen(model), queries[sample], candidates[sample]))
    print(table(scores, timings, recall, len(queries)))
    every = list(all_queries.values())  # every query of the dataset, judged or not
    rewrites = common_word_rewrites(every)
    print("\n| expansion | queries with a common word read as a technical name |\n|---|---:|")
    print("\n".join(f"| {name} | {count} of {len(every)} |" for name, count in rewrites.items()))
    if args.json:
        out: dict[str, dict[str, Any]] = {
            name: {"ndcg@10": score, "rerank_ms_per_100": timings.get(name)}
            if score is not None
            else absent("not run: needs its package (and, for cross_encoder, --cross-encoder)")
            for name, score in scores.items()
        }
        out |= {name: {"common_word_rewrites": n} for name, n in rewrites.items()}
        write_json(args.json, out)


if __name__ == "__main__":
    main()
