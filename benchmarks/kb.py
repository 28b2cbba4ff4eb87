"""Knowledge-base retrieval quality and indexing speed against LangChain and LlamaIndex peers.

Usage: python benchmarks/kb.py --data PATH [--data PATH ...] [--split NAME ...] [--json OUT]
       [--cache DIR] [--queries N] [--skip-peers] [--pipeline NAME ...]

Each PATH is a BEIR-format dataset (corpus.jsonl, queries.jsonl, qrels/<split>.tsv);
every split found is evaluated unless ``--split`` names some. One table per dataset
and split, then each of our pipelines' mean lead (nDCG@10 and recall@100) over the
best peer of each table.

Every system embeds with all-MiniLM-L6-v2 from the same package: ours computes in
int8 (the default model), the peers run the bundled graph as shipped (float32
compute), as a LangChain or LlamaIndex user loading that file would. The one
exception is ``unified-search (e5-small)``, the opt-in multilingual model
(``kb.embedding.provider: e5-small``, the ``multilingual`` extra), which builds its own
index with multilingual-e5-small, run only when ``--pipeline`` names it (about 2 abstracts
a CPU second); without the package it is listed as absent. Each model
embeds the corpus once per run and the systems reuse those vectors through an
embedding function that looks texts up first, so index time is reported as
``embed_s`` (that model's corpus embedding, measured in this run or when cached) plus ``rest_s``
(the system's own indexing: chunking, lexical index, Chroma, side store).
Chunks that are not a whole document (documents longer than one chunk) are
embedded while indexing; that time moves from ``rest_s`` to ``embed_s``.
``--cache DIR`` keeps corpus vectors between runs, with the seconds their
embedding took when they were computed (what ``embed_s`` then shows). Query
embeddings are computed live, so ``query_ms_p50`` includes them.

``rest_s`` is set beside a plain Chroma ``collection.add`` of the same corpus
vectors, texts and an ID field, in batches of the client's largest batch,
measured in the same run, in seconds and in CPU seconds (the fairer figure on a
busy machine): the cost of everything we write besides Chroma.

Peers, built as their users would:

- langchain-chroma-dense: ``langchain_chroma.Chroma(...).as_retriever()`` (dense only);
- bm25s: BM25 alone (bm25s, Lucene variant, English stop words, Snowball stemming);
- langchain-ensemble: ``langchain_classic.retrievers.EnsembleRetriever`` over a BM25
  retriever (a ``langchain_core`` ``BaseRetriever`` wrapping bm25s, since
  ``langchain_community`` is not installed) and the Chroma retriever, weights 0.5/0.5;
- llamaindex-fusion: ``QueryFusionRetriever(mode="reciprocal_rerank", num_queries=1)``
  over ``llama_index.retrievers.bm25.BM25Retriever`` and a ``VectorStoreIndex`` retriever.

A peer whose package is missing is listed as absent (``pip install -e ".[bench]"``
installs them all) and the JSON is written all the same.
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
from report import ABSENT, absent, write_json

from unified_search.config import SearchConfig
from unified_search.config.kb import EmbeddingConfig
from unified_search.contract.handler import SearchContext
from unified_search.kb.embeddings import embedding_from_config
from unified_search.kb.handler import KBHandler
from unified_search.kb.ingest import embed_text
from unified_search.models.minilm import MiniLMEmbedding
from unified_search.types import SearchRequest

K_EVAL, K_RECALL = 10, 100
Ranked = list[str]


# -- data and metrics ---------------------------------------------------------------------


Qrels = dict[str, dict[str, int]]


def splits_of(path: Path) -> list[str]:
    return sorted(f.stem for f in (path / "qrels").glob("*.tsv"))


def load_corpus(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (path / "corpus.jsonl").open()]


def load_split(path: Path, split: str) -> tuple[dict[str, str], Qrels]:
    """Queries (only those judged in ``split``) and their graded judgments."""
    queries = {q["_id"]: q["text"] for q in map(json.loads, (path / "queries.jsonl").open())}
    qrels: Qrels = {}
    for i, line in enumerate((path / "qrels" / f"{split}.tsv").open()):
        qid, did, rel = line.rstrip("\n").split("\t")
        if i and int(rel) > 0:
            qrels.setdefault(qid, {})[did] = int(rel)
    return {q: queries[q] for q in qrels}, qrels


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

    def __init__(self, model: Any, vectors: dict[str, list[float]]) -> None:
        self.model, self.vectors, self.name = model, vectors, model.name
        self.live_s = self.live_cpu_s = 0.0
        """Seconds (and CPU seconds) spent embedding texts that were not precomputed."""
        self.queries: dict[str, list[float]] | None = None
        """Query vectors kept for reuse (selection runs only: query latency is then moot)."""
        if hasattr(model, "token_count"):  # the handler's long-query warning, as in real use
            self.max_tokens, self.token_count = model.max_tokens, model.token_count

    def __call__(self, texts: list[str]) -> list[list[float]]:
        missing = [t for t in texts if t not in self.vectors]
        fresh: dict[str, list[float]] = {}
        if missing:  # chunks of documents longer than one chunk: embedded here, timed apart
            started, cpu = time.perf_counter(), time.process_time()
            fresh = dict(zip(missing, self.model(missing), strict=True))
            self.live_s += time.perf_counter() - started
            self.live_cpu_s += time.process_time() - cpu
        return [self.vectors.get(t) or fresh[t] for t in texts]

    # LangChain Embeddings and LlamaIndex-style entry points, for the peers.
    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return self(texts)

    def embed_query(self, text: str) -> list[float]:
        if self.queries is not None and text in self.queries:
            return self.queries[text]
        if hasattr(self.model, "embed_query"):
            vector: list[float] = self.model.embed_query(text)
        else:
            vector = self.model([text])[0]
        if self.queries is not None:
            self.queries[text] = vector
        return vector


def embed_corpus(
    model: Any, corpus: list[dict[str, Any]], cache: Path | None
) -> tuple[dict[str, list[float]], float]:
    texts = [doc_text(d) for d in corpus]
    key = hashlib.sha256(("\n".join(texts) + model.name).encode()).hexdigest()[:16]
    file = cache / f"kb-{key}.npy" if cache else None
    if file and file.exists():
        timing = file.with_suffix(".json")
        seconds = json.loads(timing.read_text())["seconds"] if timing.exists() else 0.0
        print(f"corpus vectors loaded from {file} (embedded in {seconds:.0f} s)", file=sys.stderr)
        return dict(zip(texts, np.load(file).tolist(), strict=True)), seconds
    started = time.perf_counter()
    matrix = np.asarray(model(texts), dtype=np.float32)
    seconds = time.perf_counter() - started
    if file:
        file.parent.mkdir(parents=True, exist_ok=True)
        np.save(file, matrix)
        file.with_suffix(".json").write_text(json.dumps({"seconds": seconds}))
    return dict(zip(texts, matrix.tolist(), strict=True)), seconds


# -- systems --------------------------------------------------------------------------------


class System:
    def __init__(
        self, name: str, index: Callable[[], Any], search: Callable[[Any, str], Ranked]
    ) -> None:
        self.name, self._index, self._search = name, index, search
        self.state: Any = None
        self.rest_s = 0.0

    def build(self) -> Any:
        if self.state is None:
            started = time.perf_counter()
            self.state = self._index()
            self.rest_s = time.perf_counter() - started
        return self.state


class Run:
    """One system on one split: the mean figures and every query's own."""

    def __init__(self, ndcg: dict[str, float], recall: dict[str, float], ms: list[float]) -> None:
        self.ndcg, self.recall, self.ms = ndcg, recall, ms

    def metrics(self, embed_s: float, rest_s: float) -> dict[str, float]:
        return {
            "ndcg@10": statistics.fmean(self.ndcg.values()),
            "recall@100": statistics.fmean(self.recall.values()),
            "index_s": embed_s + rest_s,
            "embed_s": embed_s,
            "rest_s": rest_s,
            "query_ms_p50": statistics.median(self.ms),
        }


def run_system(system: System, queries: dict[str, str], qrels: Qrels) -> Run:
    state = system.build()
    ndcgs, recalls, times = {}, {}, []
    for qid, text in sorted(queries.items()):
        t0 = time.perf_counter()
        ranked = system._search(state, text)
        times.append((time.perf_counter() - t0) * 1000)
        ndcgs[qid], recalls[qid] = ndcg(ranked, qrels[qid]), recall(ranked, qrels[qid])
    return Run(ndcgs, recalls, times)


def dedup(ids: Sequence[str]) -> Ranked:
    return list(dict.fromkeys(ids))


# Ours ----------------------------------------------------------------------------------------


class Ours:
    """One KB index shared by our pipelines that embed alike (they differ at query time)."""

    def __init__(
        self,
        corpus: list[dict[str, Any]],
        embed: CachedEmbedding,
        root: Path,
        embedding: dict[str, Any] | None = None,
    ) -> None:
        self.corpus, self.embed, self.root = corpus, embed, root
        self.embedding = embedding or {}
        self.handler: KBHandler | None = None
        self.loop = asyncio.new_event_loop()
        self.embed_s = self.rest_s = self.live_s = self.rest_cpu_s = 0.0
        """``embed_s``: the corpus embedding's seconds (measured, or recorded in the cache)."""

    def close(self) -> None:
        if self.handler is not None:
            self.loop.run_until_complete(self.handler.aclose())
        self.loop.close()

    def index(self) -> KBHandler:
        if self.handler is None:
            kb = {"data_dir": str(self.root / "ours"), "embedding": self.embedding}
            config = SearchConfig.load(profile={"kb": kb})
            self.handler = KBHandler.from_config(config, embedding=self.embed)
            docs = [
                {"id": d["_id"], "title": d.get("title") or "", "text": d["text"]}
                for d in self.corpus
            ]
            # Timed from here, as the plain add is timed once its client exists.
            started = time.perf_counter()
            live, live_cpu, cpu = self.embed.live_s, self.embed.live_cpu_s, time.process_time()
            self.loop.run_until_complete(self.handler.aadd_documents("bench", docs))
            self.live_s = self.embed.live_s - live
            self.rest_s = time.perf_counter() - started - self.live_s
            self.rest_cpu_s = time.process_time() - cpu - (self.embed.live_cpu_s - live_cpu)
        return self.handler

    def searcher(self, overrides: dict[str, Any]) -> Callable[[KBHandler, str], Ranked]:
        overrides = {k: v for k, v in overrides.items() if k != "embedding"}  # the index's

        def search(handler: KBHandler, text: str) -> Ranked:
            ctx = SearchContext(config=handler.config.merged({"kb": overrides}), request_id="bench")
            request = SearchRequest(query=text, type="kb", limit=K_RECALL, collections=["bench"])
            result = self.loop.run_until_complete(handler.asearch(request, ctx))
            return dedup([i.document_id or "" for i in result.items])

        return search


DEFAULT = "unified-search (default)"
E5_SMALL = "unified-search (e5-small)"
#: Our pipelines: ``kb`` settings over the defaults. Those with the same ``embedding`` share
#: one index; the e5-small embedding (``pip install -e ".[multilingual]"``) builds its own.
PIPELINES: dict[str, dict[str, Any]] = {
    DEFAULT: {},
    E5_SMALL: {"embedding": {"provider": "e5-small"}},
    "unified-search-no-feedback": {"hybrid": {"feedback_docs": 0}},
    "unified-search-prf": {"hybrid": {"prf_docs": 5}},
    "unified-search-rrf": {"hybrid": {"fusion": "rrf"}},
    "unified-search-dense": {"hybrid": {"fusion": "dense"}},
}


# Peers -------------------------------------------------------------------------------------


def pool(corpus: list[dict[str, Any]]) -> int:
    """How many documents a peer retrieves: ``K_RECALL``, or all of a smaller corpus (bm25s
    refuses a ``k`` beyond the corpus)."""
    return min(K_RECALL, len(corpus))


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
        docs, scores = retriever.retrieve(tokens, k=pool(corpus), show_progress=False, sorted=True)
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
        k: int = pool(corpus)

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
    return store.as_retriever(search_kwargs={"k": pool(corpus)})


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
        top = pool(corpus)
        bm25 = BM25Retriever.from_defaults(nodes=nodes, similarity_top_k=top, language="en")
        return QueryFusionRetriever(
            [vector.as_retriever(similarity_top_k=top), bm25],
            mode="reciprocal_rerank",
            num_queries=1,
            similarity_top_k=top,
            use_async=False,
            llm=None,
        )

    def search(retriever: Any, text: str) -> Ranked:
        found = retriever.retrieve(text)
        found = sorted(found, key=lambda n: (-(n.score or 0.0), n.node.node_id))
        return dedup([n.node.node_id for n in found])

    return System("llamaindex-fusion", index, search)


def plain_chroma_add(
    corpus: list[dict[str, Any]], embed: CachedEmbedding, root: Path
) -> tuple[float, float]:
    """Seconds and CPU seconds a plain ``collection.add`` of the corpus vectors takes."""
    import chromadb

    client = chromadb.PersistentClient(
        path=str(root / "plain"), settings=chromadb.config.Settings(anonymized_telemetry=False)
    )
    texts = [doc_text(d) for d in corpus]
    vectors = [embed.vectors[t] for t in texts]
    batch = client.get_max_batch_size()
    started, cpu = time.perf_counter(), time.process_time()
    collection = client.create_collection(
        "plain", embedding_function=None, configuration={"hnsw": {"space": "cosine"}}
    )
    for start in range(0, len(corpus), batch):
        end = start + batch
        collection.add(
            ids=[d["_id"] for d in corpus[start:end]],
            embeddings=vectors[start:end],
            documents=texts[start:end],
            metadatas=[{"id": d["_id"]} for d in corpus[start:end]],
        )
    return time.perf_counter() - started, time.process_time() - cpu


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


# -- one dataset ------------------------------------------------------------------------------

PEERS = ("bm25s", "langchain-chroma-dense", "langchain-ensemble", "llamaindex-fusion")
Table = dict[str, dict[str, Any]]


def peer_systems(corpus: list[dict[str, Any]], embed: CachedEmbedding, root: Path) -> list[Any]:
    """Each peer's System, or its name and why it is absent (its package missing)."""
    factories: list[tuple[str, Callable[[], System]]] = [
        ("bm25s", lambda: bm25_peer(corpus)),
        ("langchain-chroma-dense", lambda: langchain_dense(corpus, embed, root)),
        ("langchain-ensemble", lambda: langchain_ensemble(corpus, embed, root)),
        ("llamaindex-fusion", lambda: llamaindex_fusion(corpus, embed)),
    ]
    built: list[Any] = []
    for name, factory in factories:
        try:
            built.append(factory())
        except ImportError as exc:
            built.append((name, str(exc)))
    return built


def evaluate(
    path: Path,
    splits: Sequence[str],
    pipelines: dict[str, dict[str, Any]],
    *,
    cache: Path | None = None,
    peers: bool = True,
    queries_limit: int = 0,
    reuse_queries: bool = False,
) -> tuple[dict[str, Table], dict[str, dict[str, Run]], dict[str, float]]:
    """Index ``path`` once per system and run every split.

    Returns the tables, every query's figures, and our query overhead over raw Chroma.
    ``reuse_queries`` embeds each query once for all of our pipelines (their latencies
    then mean nothing).
    """
    corpus = load_corpus(path)
    tables: dict[str, Table] = {s: {} for s in splits}
    runs: dict[str, dict[str, Run]] = {s: {} for s in splits}
    with tempfile.TemporaryDirectory(prefix="kb-bench-") as tmp:
        root = Path(tmp)
        indexes: dict[str, Ours | str] = {}  # by embedding settings; a string says why absent
        systems: list[tuple[System | tuple[str, str], float]] = []
        owner: dict[str, Ours] = {}
        for name, overrides in pipelines.items():
            embedding = overrides.get("embedding", {})
            key = json.dumps(embedding, sort_keys=True)
            if key not in indexes:
                indexes[key] = our_index(corpus, embedding, cache, root / f"ours{len(indexes)}")
            index = indexes[key]
            if isinstance(index, str):
                systems.append(((name, index), 0.0))
                continue
            if reuse_queries and index.embed.queries is None:
                index.embed.queries = {}
            owner[name] = index
            systems.append((System(name, index.index, index.searcher(overrides)), index.embed_s))
        if peers:
            peer_model = MiniLMEmbedding(int8=False)
            peer_vectors, peer_embed_s = embed_corpus(peer_model, corpus, cache)
            peer_embed = CachedEmbedding(peer_model, peer_vectors)
            systems += [
                (p, 0.0 if getattr(p, "name", "") == "bm25s" else peer_embed_s)
                for p in peer_systems(corpus, peer_embed, root)
            ]
        for split in splits:
            queries, qrels = load_split(path, split)
            if queries_limit:
                queries = dict(sorted(queries.items())[:queries_limit])
            for system, embed_s in systems:
                if isinstance(system, tuple):
                    tables[split][system[0]] = absent(system[1])
                    continue
                try:
                    run = run_system(system, queries, qrels)
                except ImportError as exc:
                    tables[split][system.name] = absent(str(exc))
                    continue
                if system.name in owner:
                    ours = owner[system.name]
                    embed_s, rest_s = embed_s + ours.live_s, ours.rest_s
                else:
                    rest_s = system.rest_s
                runs[split][system.name] = run
                tables[split][system.name] = run.metrics(embed_s, rest_s)
                print(f"{path.name}/{split} {system.name}: done", file=sys.stderr)
        first = next(iter(owner.values()))  # the first pipeline's index: the default's
        first.embed.queries = None  # the overhead embeds every query, as a user's search does
        cost = overhead(first, list(queries.values())[:200])
        plain_s, plain_cpu_s = plain_chroma_add(corpus, first.embed, root)
        cost.update(
            rest_s=first.rest_s,
            plain_chroma_add_s=plain_s,
            rest_ratio=first.rest_s / plain_s,
            rest_cpu_s=first.rest_cpu_s,
            plain_chroma_add_cpu_s=plain_cpu_s,
            rest_cpu_ratio=first.rest_cpu_s / plain_cpu_s,
        )
        for built in set(owner.values()):
            built.close()
    return tables, runs, cost


def our_index(
    corpus: list[dict[str, Any]], embedding: dict[str, Any], cache: Path | None, root: Path
) -> Ours | str:
    """Our index for one ``kb.embedding`` setting, its corpus embedded (or why it is absent)."""
    try:
        model = embedding_from_config(EmbeddingConfig(**embedding))
    except ImportError as exc:
        return str(exc)
    vectors, embed_s = embed_corpus(model, corpus, cache)
    ours = Ours(corpus, CachedEmbedding(model, vectors), root, embedding)
    ours.embed_s = embed_s
    return ours


def best_peer(table: Table) -> str | None:
    present = [n for n in PEERS if n in table and ABSENT not in table[n]]
    return max(present, key=lambda n: table[n]["ndcg@10"], default=None)


def leads(tables: dict[str, Table], name: str) -> dict[str, float]:
    """Mean over tables of ``name``'s nDCG@10 and recall@100 minus the best peer's."""
    gaps: dict[str, list[float]] = {"ndcg@10": [], "recall@100": []}
    for table in tables.values():
        peer = best_peer(table)
        if peer is None or name not in table or ABSENT in table[name]:
            continue
        for metric, values in gaps.items():
            values.append(table[name][metric] - table[peer][metric])
    return {f"lead_{m}": statistics.fmean(v) for m, v in gaps.items() if v}


# -- main ---------------------------------------------------------------------------------------


def table(systems: Table, default: str) -> str:
    peer = best_peer(systems)
    lines = [
        f"{'system':30} {'ndcg@10':>8} {'recall@100':>10} {'embed_s':>8} {'rest_s':>7} "
        f"{'index_s':>8} {'query_ms':>8}"
    ]
    present = {n: m for n, m in systems.items() if ABSENT not in m}
    for name, m in sorted(present.items(), key=lambda kv: -kv[1]["ndcg@10"]):
        mark = " *" if name == default else " †" if name == peer else ""
        lines.append(
            f"{name + mark:30} {m['ndcg@10']:8.4f} {m['recall@100']:10.4f} {m['embed_s']:8.1f} "
            f"{m['rest_s']:7.1f} {m['index_s']:8.1f} {m['query_ms_p50']:8.1f}"
        )
    lines += [f"{name:30} absent: {m[ABSENT]}" for name, m in systems.items() if ABSENT in m]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, action="append", required=True, help="BEIR folder")
    parser.add_argument("--split", action="append", help="qrels split(s); default: every one")
    parser.add_argument("--json", type=Path, help="write {systems: {name: metrics}} here")
    parser.add_argument("--cache", type=Path, help="keep corpus vectors here between runs")
    parser.add_argument("--queries", type=int, default=0, help="use only the first N queries")
    parser.add_argument("--skip-peers", action="store_true", help="run our pipelines only")
    parser.add_argument(
        "--pipeline",
        action="append",
        choices=list(PIPELINES),
        help=f"ours to run; default: all but {E5_SMALL} (its corpus embedding takes ~50 min)",
    )
    args = parser.parse_args(argv)
    default = next(iter(PIPELINES))
    chosen = args.pipeline or [n for n in PIPELINES if n != E5_SMALL]
    pipelines = {n: o for n, o in PIPELINES.items() if n in chosen}
    tables: dict[str, Table] = {}
    costs: dict[str, dict[str, float]] = {}
    for path in args.data:
        splits = [s for s in (args.split or splits_of(path)) if s in splits_of(path)]
        found, _, costs[path.name] = evaluate(
            path,
            splits,
            pipelines,
            cache=args.cache,
            peers=not args.skip_peers,
            queries_limit=args.queries,
        )
        tables.update({f"{path.name}/{split}": t for split, t in found.items()})
    for key, systems in tables.items():
        print(f"\n{key} · * default · † best peer (by nDCG@10)")
        print(table(systems, default))
    print("\nmean lead over the best peer of each table (nDCG@10, recall@100):")
    summary = {name: leads(tables, name) for name in pipelines}
    for name, lead in summary.items():
        if lead:
            print(f"{name:30} {lead['lead_ndcg@10']:+8.4f} {lead['lead_recall@100']:+8.4f}")
    for name, cost in costs.items():
        print(
            f"{name}: our KB query vs raw Chroma collection.query, top-10, p50, query embedding "
            f"included: {cost['unified_search_ms_p50']:.1f} ms vs {cost['raw_chroma_ms_p50']:.1f} "
            f"ms = {cost['overhead']:+.1%}; every dense search sent to Chroma: "
            f"{cost['unified_search_via_chroma_ms_p50']:.1f} ms = {cost['overhead_via_chroma']:+.1%}"
        )
        print(
            f"{name}: indexing besides embedding {cost['rest_s']:.1f} s vs a plain Chroma add of "
            f"the same vectors {cost['plain_chroma_add_s']:.1f} s = {cost['rest_ratio']:.2f}x; "
            f"CPU {cost['rest_cpu_s']:.1f} s vs {cost['plain_chroma_add_cpu_s']:.1f} s = "
            f"{cost['rest_cpu_ratio']:.2f}x"
        )
    if args.json:
        rows: dict[str, dict[str, Any]] = {}
        for key, found in tables.items():
            for name, metrics in found.items():
                if ABSENT in metrics:
                    rows[name] = absent(metrics[ABSENT])
                elif ABSENT not in rows.get(name, {}):
                    row = rows.setdefault(name, {})
                    row.update({f"{key} {metric}": value for metric, value in metrics.items()})
        for name, lead in summary.items():
            if ABSENT not in rows.get(name, {}):
                rows.setdefault(name, {}).update(lead)
        write_json(args.json, rows, tables=tables, overhead=costs, default=default)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
