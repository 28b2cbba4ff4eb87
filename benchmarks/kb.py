"""Knowledge-base retrieval quality and speed against LangChain and LlamaIndex peers.

Usage: python benchmarks/kb.py --data PATH [--json OUT] [--cache DIR] [--queries N]

PATH is a BEIR-format dataset (corpus.jsonl, queries.jsonl, qrels/test.tsv).
Every system uses the same embedding model (the default all-MiniLM-L6-v2
int8). The corpus is embedded once per run and each system reuses those
vectors (through an embedding function that looks texts up before calling
the model); ``index_s`` is that shared embedding time plus the system's own
indexing time. Query embeddings are computed live by every system, so
``query_ms_p50`` includes them. ``--cache DIR`` keeps corpus vectors on disk
between runs (off by default). Peers, built as their users would:

- langchain-chroma-dense: ``langchain_chroma.Chroma(...).as_retriever()`` (dense only);
- bm25s: BM25 alone (bm25s, Lucene variant, English stop words, Snowball stemming);
- langchain-ensemble: ``langchain_classic.retrievers.EnsembleRetriever`` over a BM25
  retriever (a ``langchain_core`` ``BaseRetriever`` wrapping bm25s, since
  ``langchain_community`` is not installed) and the Chroma retriever, weights 0.5/0.5;
- llamaindex-fusion: ``QueryFusionRetriever(mode="reciprocal_rerank", num_queries=1)``
  over ``llama_index.retrievers.bm25.BM25Retriever`` and a ``VectorStoreIndex`` retriever.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import math
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from unified_search.config import SearchConfig
from unified_search.handler import SearchContext
from unified_search.kb.handler import KBHandler
from unified_search.kb.ingest import embed_text
from unified_search.kb.minilm import MiniLMEmbedding
from unified_search.types import SearchRequest

K_EVAL, K_RECALL = 10, 100
Ranked = list[str]


# -- data and metrics ---------------------------------------------------------------------


def load(path: Path) -> tuple[list[dict[str, Any]], dict[str, str], dict[str, dict[str, int]]]:
    corpus = [json.loads(line) for line in (path / "corpus.jsonl").open()]
    queries = {q["_id"]: q["text"] for q in map(json.loads, (path / "queries.jsonl").open())}
    qrels: dict[str, dict[str, int]] = {}
    for i, line in enumerate((path / "qrels" / "test.tsv").open()):
        qid, did, rel = line.rstrip("\n").split("\t")
        if i and int(rel) > 0:
            qrels.setdefault(qid, {})[did] = int(rel)
    return corpus, {q: queries[q] for q in qrels}, qrels


def ndcg(ranked: Ranked, rel: dict[str, int], k: int = K_EVAL) -> float:
    dcg = sum(rel.get(d, 0) / math.log2(i + 2) for i, d in enumerate(ranked[:k]))
    ideal = sorted(rel.values(), reverse=True)[:k]
    return dcg / sum(r / math.log2(i + 2) for i, r in enumerate(ideal))


def recall(ranked: Ranked, rel: dict[str, int], k: int = K_RECALL) -> float:
    return len(set(ranked[:k]) & set(rel)) / len(rel)


def doc_text(doc: dict[str, Any]) -> str:
    """What every system embeds for a document: the same string as our ingestion."""
    return embed_text(doc.get("title") or "", doc["text"])


# -- shared embedding -----------------------------------------------------------------------


class CachedEmbedding:
    """The default model, answering corpus texts from vectors computed once."""

    def __init__(self, model: MiniLMEmbedding, vectors: dict[str, list[float]]) -> None:
        self.model, self.vectors, self.name = model, vectors, model.name
        self.max_tokens, self.token_count = model.max_tokens, model.token_count

    def __call__(self, texts: list[str]) -> list[list[float]]:
        missing = [t for t in texts if t not in self.vectors]
        fresh = dict(zip(missing, self.model(missing), strict=True)) if missing else {}
        return [self.vectors.get(t) or fresh[t] for t in texts]

    # LangChain Embeddings and LlamaIndex-style entry points, for the peers.
    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return self(texts)

    def embed_query(self, text: str) -> list[float]:
        return self.model([text])[0]


def embed_corpus(
    model: MiniLMEmbedding, corpus: list[dict[str, Any]], cache: Path | None
) -> tuple[dict[str, list[float]], float]:
    texts = [doc_text(d) for d in corpus]
    key = hashlib.sha256(("\n".join(texts) + model.name).encode()).hexdigest()[:16]
    file = cache / f"kb-{key}.npy" if cache else None
    started = time.perf_counter()
    if file and file.exists():
        matrix = np.load(file)
        print(f"corpus vectors loaded from {file} (embedding time not measured)", file=sys.stderr)
    else:
        matrix = model.embed_array(texts)
        if file:
            file.parent.mkdir(parents=True, exist_ok=True)
            np.save(file, matrix)
    return dict(zip(texts, matrix.tolist(), strict=True)), time.perf_counter() - started


# -- systems --------------------------------------------------------------------------------


class System:
    def __init__(
        self, name: str, index: Callable[[], Any], search: Callable[[Any, str], Ranked]
    ) -> None:
        self.name, self._index, self._search = name, index, search


def run_system(
    system: System, queries: dict[str, str], qrels: dict[str, dict[str, int]], embed_s: float
) -> dict[str, float]:
    started = time.perf_counter()
    state = system._index()
    index_s = embed_s + time.perf_counter() - started
    scores, recalls, times = [], [], []
    for qid, text in sorted(queries.items()):
        t0 = time.perf_counter()
        ranked = system._search(state, text)
        times.append((time.perf_counter() - t0) * 1000)
        scores.append(ndcg(ranked, qrels[qid]))
        recalls.append(recall(ranked, qrels[qid]))
    return {
        "ndcg@10": statistics.fmean(scores),
        "recall@100": statistics.fmean(recalls),
        "index_s": index_s,
        "query_ms_p50": statistics.median(times),
    }


def dedup(ids: Sequence[str]) -> Ranked:
    return list(dict.fromkeys(ids))


# Ours ----------------------------------------------------------------------------------------


class Ours:
    """One KB index shared by our pipeline variants (they differ only at query time)."""

    def __init__(self, corpus: list[dict[str, Any]], embed: CachedEmbedding, root: Path) -> None:
        self.corpus, self.embed, self.root = corpus, embed, root
        self.handler: KBHandler | None = None
        self.loop = asyncio.new_event_loop()

    def index(self) -> KBHandler:
        if self.handler is None:
            config = SearchConfig.load(profile={"kb": {"data_dir": str(self.root / "ours")}})
            self.handler = KBHandler.from_config(config, embedding=self.embed)
            docs = [
                {"id": d["_id"], "title": d.get("title") or "", "text": d["text"]}
                for d in self.corpus
            ]
            self.loop.run_until_complete(self.handler.aadd_documents("bench", docs))
        return self.handler

    def searcher(self, overrides: dict[str, Any]) -> Callable[[KBHandler, str], Ranked]:
        def search(handler: KBHandler, text: str) -> Ranked:
            ctx = SearchContext(config=handler.config.merged({"kb": overrides}), request_id="bench")
            request = SearchRequest(query=text, type="kb", limit=K_RECALL, collections=["bench"])
            result = self.loop.run_until_complete(handler.asearch(request, ctx))
            return dedup([i.document_id or "" for i in result.items])

        return search


PIPELINES: dict[str, dict[str, Any]] = {
    "unified-search (default)": {},
    "unified-search-minmax": {"hybrid": {"scale": "minmax"}},
    "unified-search-rrf": {"hybrid": {"fusion": "rrf"}},
    "unified-search-dense": {"hybrid": {"fusion": "dense"}, "threshold": 0.0},
    "unified-search-prf": {"hybrid": {"prf_docs": 5}},
}


# Peers -------------------------------------------------------------------------------------


def bm25_peer(corpus: list[dict[str, Any]]) -> System:
    import bm25s
    import Stemmer

    stemmer = Stemmer.Stemmer("english")
    ids = [d["_id"] for d in corpus]

    def index() -> Any:
        retriever = bm25s.BM25(method="lucene")
        texts = [f"{d.get('title') or ''} {d['text']}" for d in corpus]
        retriever.index(
            bm25s.tokenize(texts, stopwords="en", stemmer=stemmer, show_progress=False),
            show_progress=False,
        )
        return retriever

    def search(retriever: Any, text: str) -> Ranked:
        tokens = bm25s.tokenize([text], stopwords="en", stemmer=stemmer, show_progress=False)
        if not tokens.vocab:
            return []
        docs, scores = retriever.retrieve(tokens, k=K_RECALL, show_progress=False, sorted=True)
        pairs = sorted(
            zip(docs[0], scores[0], strict=True), key=lambda p: (-float(p[1]), ids[p[0]])
        )
        return [ids[i] for i, s in pairs if s > 0]

    return System("bm25s", index, search)


def _lc_bm25(corpus: list[dict[str, Any]]) -> Any:
    import bm25s
    import Stemmer
    from langchain_core.documents import Document
    from langchain_core.retrievers import BaseRetriever

    stemmer = Stemmer.Stemmer("english")
    texts = [f"{d.get('title') or ''} {d['text']}" for d in corpus]
    engine = bm25s.BM25(method="lucene")
    engine.index(
        bm25s.tokenize(texts, stopwords="en", stemmer=stemmer, show_progress=False),
        show_progress=False,
    )
    docs = [
        Document(page_content=t, metadata={"id": d["_id"]})
        for t, d in zip(texts, corpus, strict=True)
    ]

    class BM25sRetriever(BaseRetriever):
        k: int = K_RECALL

        def _get_relevant_documents(self, query: str, *, run_manager: Any = None) -> list[Document]:
            tokens = bm25s.tokenize([query], stopwords="en", stemmer=stemmer, show_progress=False)
            if not tokens.vocab:
                return []
            found, scores = engine.retrieve(tokens, k=self.k, show_progress=False)
            return [docs[i] for i, s in zip(found[0], scores[0], strict=True) if s > 0]

    return BM25sRetriever()


def _lc_chroma(corpus: list[dict[str, Any]], embed: CachedEmbedding, root: Path) -> Any:
    import chromadb
    from langchain_chroma import Chroma

    client = chromadb.PersistentClient(
        path=str(root / "langchain"), settings=chromadb.config.Settings(anonymized_telemetry=False)
    )
    store = Chroma(
        collection_name="bench",
        embedding_function=embed,
        client=client,
        collection_metadata={"hnsw:space": "cosine"},
    )
    for start in range(0, len(corpus), 1000):
        batch = corpus[start : start + 1000]
        store.add_texts(
            [doc_text(d) for d in batch],
            metadatas=[{"id": d["_id"]} for d in batch],
            ids=[d["_id"] for d in batch],
        )
    return store.as_retriever(search_kwargs={"k": K_RECALL})


def langchain_dense(corpus: list[dict[str, Any]], embed: CachedEmbedding, root: Path) -> System:
    def search(retriever: Any, text: str) -> Ranked:
        return dedup([d.metadata["id"] for d in retriever.invoke(text)])

    return System(
        "langchain-chroma-dense", lambda: _lc_chroma(corpus, embed, root / "dense"), search
    )


def langchain_ensemble(corpus: list[dict[str, Any]], embed: CachedEmbedding, root: Path) -> System:
    from langchain_classic.retrievers import EnsembleRetriever

    def index() -> Any:
        dense = _lc_chroma(corpus, embed, root / "ensemble")
        return EnsembleRetriever(
            retrievers=[_lc_bm25(corpus), dense], weights=[0.5, 0.5], id_key="id"
        )

    def search(retriever: Any, text: str) -> Ranked:
        return dedup([d.metadata["id"] for d in retriever.invoke(text)])

    return System("langchain-ensemble", index, search)


def llamaindex_fusion(corpus: list[dict[str, Any]], embed: CachedEmbedding) -> System:
    from llama_index.core import Settings, VectorStoreIndex
    from llama_index.core.embeddings import BaseEmbedding
    from llama_index.core.retrievers import QueryFusionRetriever
    from llama_index.core.schema import TextNode
    from llama_index.retrievers.bm25 import BM25Retriever

    class Embedding(BaseEmbedding):
        def _get_query_embedding(self, query: str) -> list[float]:
            return embed.embed_query(query)

        async def _aget_query_embedding(self, query: str) -> list[float]:
            return embed.embed_query(query)

        def _get_text_embedding(self, text: str) -> list[float]:
            return embed([text])[0]

        def _get_text_embeddings(self, texts: list[str]) -> list[list[float]]:
            return embed(texts)

    def index() -> Any:
        Settings.llm = None
        model = Embedding(model_name=embed.name, embed_batch_size=256)
        nodes = [TextNode(text=doc_text(d), id_=d["_id"]) for d in corpus]
        vector = VectorStoreIndex(nodes, embed_model=model, show_progress=False)
        bm25 = BM25Retriever.from_defaults(nodes=nodes, similarity_top_k=K_RECALL, language="en")
        return QueryFusionRetriever(
            [vector.as_retriever(similarity_top_k=K_RECALL), bm25],
            mode="reciprocal_rerank",
            num_queries=1,
            similarity_top_k=K_RECALL,
            use_async=False,
            llm=None,
        )

    def search(retriever: Any, text: str) -> Ranked:
        found = retriever.retrieve(text)
        found = sorted(found, key=lambda n: (-(n.score or 0.0), n.node.node_id))
        return dedup([n.node.node_id for n in found])

    return System("llamaindex-fusion", index, search)


# -- overhead: our search vs a raw Chroma query on the same collection ------------------------


def overhead(ours: Ours, queries: list[str], limit: int = 10) -> dict[str, float]:
    """p50 of our KB search vs ``collection.query`` (both embed the query; same collection).

    Measured twice: with the default settings (dense top-k exact over the in-memory vector
    copy for collections up to ``kb.hybrid.exact_limit`` chunks) and with every dense search
    sent to Chroma (``exact_limit: 0``), so the cost of the layer itself is visible too.
    """
    handler = ours.index()
    default = SearchContext(config=handler.config, request_id="bench")
    via_chroma = SearchContext(
        config=handler.config.merged({"kb": {"hybrid": {"exact_limit": 0}}}), request_id="bench"
    )
    collection = ours.loop.run_until_complete(handler._collection("bench")).chroma
    model = ours.embed.model
    times: dict[str, list[float]] = {"raw": [], "default": [], "chroma": []}
    for text in queries:
        request = SearchRequest(query=text, type="kb", limit=limit, collections=["bench"])
        t0 = time.perf_counter()
        collection.query(query_embeddings=model([text]), n_results=limit)
        t1 = time.perf_counter()
        ours.loop.run_until_complete(handler.asearch(request, default))
        t2 = time.perf_counter()
        ours.loop.run_until_complete(handler.asearch(request, via_chroma))
        t3 = time.perf_counter()
        for key, ms in zip(times, ((t1 - t0), (t2 - t1), (t3 - t2)), strict=True):
            times[key].append(ms * 1000)
    raw, ours_ms, chroma_ms = (statistics.median(v) for v in times.values())
    return {
        "raw_chroma_ms_p50": raw,
        "unified_search_ms_p50": ours_ms,
        "overhead": ours_ms / raw - 1,
        "unified_search_via_chroma_ms_p50": chroma_ms,
        "overhead_via_chroma": chroma_ms / raw - 1,
    }


# -- main ---------------------------------------------------------------------------------------


def table(systems: dict[str, dict[str, float]], default: str) -> str:
    base = systems["bm25s"]["ndcg@10"]
    lines = [
        f"{'system':34} {'ndcg@10':>8} {'recall@100':>10} {'index_s':>8} {'query_ms_p50':>12} {'ndcg/bm25':>9}"
    ]
    for name, m in sorted(systems.items(), key=lambda kv: -kv[1]["ndcg@10"]):
        mark = " *" if name == default else ""
        lines.append(
            f"{name + mark:34} {m['ndcg@10']:8.4f} {m['recall@100']:10.4f} {m['index_s']:8.1f} "
            f"{m['query_ms_p50']:12.1f} {m['ndcg@10'] / base:9.3f}"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True, help="BEIR dataset folder")
    parser.add_argument("--json", type=Path, help="write {systems: {name: metrics}} here")
    parser.add_argument("--cache", type=Path, help="keep corpus vectors here between runs")
    parser.add_argument("--queries", type=int, default=0, help="use only the first N test queries")
    parser.add_argument("--skip-peers", action="store_true", help="run our pipelines only")
    args = parser.parse_args(argv)
    corpus, queries, qrels = load(args.data)
    if args.queries:
        queries = dict(sorted(queries.items())[: args.queries])
    model = MiniLMEmbedding()
    vectors, embed_s = embed_corpus(model, corpus, args.cache)
    embed = CachedEmbedding(model, vectors)
    results: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory(prefix="kb-bench-") as tmp:
        root = Path(tmp)
        ours = Ours(corpus, embed, root)
        for name, overrides in PIPELINES.items():
            system = System(name, ours.index, ours.searcher(overrides))
            results[name] = run_system(system, queries, qrels, embed_s)
            # The variants share the default's index; they differ only at query time.
            results[name]["index_s"] = results[next(iter(PIPELINES))]["index_s"]
            print(f"{name}: done", file=sys.stderr)
        peers = (
            []
            if args.skip_peers
            else [
                bm25_peer(corpus),
                langchain_dense(corpus, embed, root),
                langchain_ensemble(corpus, embed, root),
                llamaindex_fusion(corpus, embed),
            ]
        )
        if args.skip_peers:
            peers = [bm25_peer(corpus)]
        for system in peers:
            results[system.name] = run_system(
                system, queries, qrels, 0.0 if system.name == "bm25s" else embed_s
            )
            print(f"{system.name}: done", file=sys.stderr)
        cost = overhead(ours, list(queries.values()))
        ours.loop.run_until_complete(ours.handler.aclose() if ours.handler else asyncio.sleep(0))
    default = next(iter(PIPELINES))
    print(
        f"dataset {args.data} · {len(corpus)} documents · {len(queries)} queries · "
        f"embedding {model.name} · corpus embedded in {embed_s:.1f}s"
    )
    print(table(results, default))
    print(
        f"* default pipeline. Query latency vs raw Chroma collection.query, top-10, p50, query "
        f"embedding included: {cost['unified_search_ms_p50']:.1f} ms vs "
        f"{cost['raw_chroma_ms_p50']:.1f} ms = {cost['overhead']:+.1%}; with every dense "
        f"search sent to Chroma (exact_limit 0): {cost['unified_search_via_chroma_ms_p50']:.1f} ms "
        f"= {cost['overhead_via_chroma']:+.1%}"
    )
    if args.json:
        args.json.write_text(
            json.dumps({"systems": results, "overhead": cost, "default": default}, indent=2)
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
