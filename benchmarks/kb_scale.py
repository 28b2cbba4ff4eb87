"""What a knowledge base costs as it grows: ours embedded and on shared servers, beside peers.

Usage: python benchmarks/kb_scale.py [--chunks N ...] [--queries N] [--modes embedded,server]
       [--store-url URL] [--work DIR] [--json OUT] [--beir PATH ... [--cache DIR]]

A synthetic corpus of ``N`` chunks (one chunk a document: a title and about 60 words
drawn from a Zipf-distributed vocabulary, seeded) is indexed with a fast deterministic
embedding (384 dimensions: the sum of a fixed random vector per word), so every figure is
everything but the model. For each size and system:

- ``index_chunks_per_s``: chunks indexed per second, the whole corpus in one call (as a
  folder's index run), its vectors made before the clock starts;
- ``cold_first_search_s``: the first search of a fresh process (opening the collection
  and its index included, the interpreter's start not);
- ``p50_ms`` / ``p99_ms`` at concurrency 1 and 10 (``c1_``, ``c10_``), query embedding
  included, in that same process after the first search;
- ``rss_mb``: that process's resident memory after its searches (mapped index pages count
  while they are resident, though every process mapping them shares them); ``uss_mb``: the
  pages no other process maps (a lone search process's mapped index pages included: a second
  worker mapping the same index would share them);
- ``disk_kb_per_chunk``: what the collection takes on disk (the Chroma server's folder and
  the database's tables in server mode).

Systems: ``unified-search (default)`` (embedded: Chroma and SQLite files),
``unified-search (server)`` (a Chroma server this script starts, and PostgreSQL at
``--store-url``, in a database of its own it drops afterwards), and that collection searched
with dense feedback off (``unified-search (server, feedback off)``: what the feedback's second
Chroma query costs); peers doing the same work:
``chroma-dense`` (plain Chroma dense query, embedded), ``chroma-server-dense`` (the same
query of a Chroma server this script starts, beside server mode), ``bm25s`` (BM25 alone, its index
saved and memory-mapped), ``langchain-ensemble`` (``EnsembleRetriever`` of LangChain's
``BM25Retriever`` and ``langchain_chroma.Chroma``, built in memory as its users do; run up to
100,000 chunks: its BM25 scores every chunk in Python). A peer whose package is missing, or
server mode without PostgreSQL, is listed as absent.

``--beir PATH`` (repeatable; a BEIR folder) also ranks that dataset's judged queries with the
default model, embedded and in server mode in the same run, and reports ``ndcg@10`` and
``recall@100`` of each (their first split: ``test`` for SciFact, ``dev`` for nfcorpus-dev):
where a collection's state lives must not change its ranking. ``--cache DIR`` reuses the
corpus vectors ``benchmarks/kb.py --cache`` keeps.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import psutil

sys.path.insert(0, str(Path(__file__).resolve().parent))
from report import absent, write_json

DIM = 384
VOCABULARY = 30_000
WORDS = 60
LANGCHAIN_LIMIT = 100_000
_WORD = re.compile(r"[a-z]+")


def word(i: int) -> str:
    """A pronounceable pseudo-word per index (letters only, so every analyser keeps it)."""
    letters = "bcdfghjklmnprstvz"
    vowels = "aeiou"
    out = ""
    i += 1
    while i:
        out += letters[i % 17] + vowels[(i // 17) % 5]
        i //= 85
    return out


class Corpus:
    """Seeded synthetic chunks and queries drawn from them."""

    def __init__(self, size: int, queries: int, seed: int = 7) -> None:
        rng = np.random.default_rng(seed)
        self.words = [word(i) for i in range(VOCABULARY)]
        ranks = np.minimum(rng.zipf(1.3, size=(size, WORDS + 3)) - 1, VOCABULARY - 1)
        self.ids = [f"c{i:07d}" for i in range(size)]
        self.titles = [" ".join(self.words[w] for w in row[:3]) for row in ranks]
        self.texts = [" ".join(self.words[w] for w in row[3:]) + "." for row in ranks]
        picks = rng.choice(size, size=queries, replace=queries > size)
        self.queries = [" ".join(self.words[w] for w in rng.choice(ranks[p][3:], 3)) for p in picks]


class FastEmbedding:
    """The sum of a fixed random unit vector per word, normalised; counts its own time.

    ``table`` is a file holding the word vectors (made on first use): a search process maps
    it, so its cold start pays nothing a real model's loading would not. An indexing run
    embeds the corpus before its clock starts (``prepare``), so while it runs the model is a
    look-up; ``seconds`` is the CPU time of the calls (the wall time would count the waits
    for other threads holding the interpreter, which writes overlapping the model cause).
    """

    name = "fast-hash-384"

    def __init__(self, table: Path | None = None) -> None:
        if table is not None and table.exists():
            self.table = np.load(table, mmap_mode="r")
        else:
            rng = np.random.default_rng(11)
            made = rng.standard_normal((VOCABULARY + 1, DIM), dtype=np.float32)
            self.table = made / np.linalg.norm(made, axis=1, keepdims=True)
            if table is not None:
                np.save(table, self.table)
        self.index = {word(i): i for i in range(VOCABULARY)}
        self.known: dict[str, np.ndarray] = {}
        self.seconds = 0.0

    def __call__(self, texts: list[str]) -> list[list[float]]:
        return self.vectors(texts).tolist()

    def prepare(self, texts: Sequence[str]) -> FastEmbedding:
        """Embed ``texts`` now, so that later calls for them only look their vectors up."""
        self.known.update(zip(texts, self.embed(texts), strict=True))
        return self

    def vectors(self, texts: Sequence[str]) -> np.ndarray:
        started = time.thread_time()
        missing = [t for t in texts if t not in self.known]
        if missing:
            self.known.update(zip(missing, self.embed(missing), strict=True))
        rows = np.stack([self.known[t] for t in texts]) if texts else np.zeros((0, DIM))
        self.seconds += time.thread_time() - started
        return rows

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        rows = np.zeros((len(texts), DIM), np.float32)
        for n, text in enumerate(texts):
            ids = [self.index.get(w, VOCABULARY) for w in _WORD.findall(text.lower())]
            rows[n] = self.table[ids].sum(axis=0)
        rows /= np.clip(np.linalg.norm(rows, axis=1, keepdims=True), 1e-12, None)
        return rows

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return self(texts)

    def embed_query(self, text: str) -> list[float]:
        return self([text])[0]


# -- the search process: one per system and size ------------------------------------------


def probe(spec: dict[str, Any]) -> dict[str, float]:
    """Open a built system in this fresh process, search, and measure (``--probe``)."""
    queries: list[str] = spec["queries"]
    started = time.perf_counter()
    search = OPENERS[spec["system"]](spec)
    search(queries[0])
    cold = time.perf_counter() - started
    figures = {"cold_first_search_s": cold}
    for concurrency in (1, 10):
        times = timed(search, queries, concurrency)
        figures[f"c{concurrency}_p50_ms"] = statistics.median(times) * 1000
        figures[f"c{concurrency}_p99_ms"] = float(np.percentile(times, 99)) * 1000
    # The resident set now (the peak would be the parent's: Linux keeps it across exec), and
    # the part of it no other process maps.
    memory = psutil.Process().memory_full_info()
    figures["rss_mb"] = memory.rss / 1024 / 1024
    figures["uss_mb"] = memory.uss / 1024 / 1024
    return figures


def timed(search: Callable[[str], Any], queries: list[str], concurrency: int) -> list[float]:
    def one(query: str) -> float:
        started = time.perf_counter()
        search(query)
        return time.perf_counter() - started

    with ThreadPoolExecutor(concurrency) as pool:
        return list(pool.map(one, queries))


def embedding(spec: dict[str, Any]) -> FastEmbedding:
    """The benchmark's embedding, its table mapped from the file the spec names."""
    return FastEmbedding(Path(spec["table"]) if spec.get("table") else None)


def open_ours(spec: dict[str, Any]) -> Callable[[str], Any]:
    from unified_search.config import SearchConfig
    from unified_search.contract.handler import SearchContext
    from unified_search.kb.handler import KBHandler
    from unified_search.types import SearchRequest

    config = SearchConfig.load(profile=spec["profile"])
    handler = KBHandler.from_config(config, embedding=embedding(spec))
    ctx = SearchContext(config=config, request_id="bench")
    loop = asyncio.new_event_loop()
    threading.Thread(target=loop.run_forever, daemon=True).start()

    def search(query: str) -> Any:
        request = SearchRequest(query=query, type="kb", collections=["scale"], limit=10)
        return asyncio.run_coroutine_threadsafe(handler.asearch(request, ctx), loop).result()

    return search


def chroma_client(where: str) -> Any:
    """A Chroma client of the server at URL ``where``, or of the embedded files in folder ``where``."""
    import chromadb
    from chromadb.config import Settings

    settings = Settings(anonymized_telemetry=False)
    if where.startswith("http://"):
        host, port = where.removeprefix("http://").split(":")
        return chromadb.HttpClient(host=host, port=int(port), settings=settings)
    return chromadb.PersistentClient(path=where, settings=settings)


def open_chroma(spec: dict[str, Any]) -> Callable[[str], Any]:
    collection = chroma_client(spec["path"]).get_collection("scale", embedding_function=None)
    embed = embedding(spec)
    return lambda q: collection.query(query_embeddings=embed.vectors([q]), n_results=10)


def open_bm25s(spec: dict[str, Any]) -> Callable[[str], Any]:
    import bm25s
    import Stemmer

    retriever = bm25s.BM25.load(spec["path"], mmap=True)
    stemmer = Stemmer.Stemmer("english")

    def search(query: str) -> Any:
        tokens = bm25s.tokenize([query], stopwords="en", stemmer=stemmer, show_progress=False)
        return retriever.retrieve(tokens, k=10, show_progress=False, n_threads=1)

    return search


def open_langchain(spec: dict[str, Any]) -> Callable[[str], Any]:
    corpus = Corpus(spec["chunks"], 1)
    retriever = langchain_ensemble(corpus, spec["path"], embedding(spec), build=False)
    return retriever.invoke


OPENERS: dict[str, Callable[[dict[str, Any]], Callable[[str], Any]]] = {
    "ours": open_ours,
    "chroma": open_chroma,
    "bm25s": open_bm25s,
    "langchain": open_langchain,
}


def run_probe(spec: dict[str, Any]) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, __file__, "--probe", json.dumps(spec)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode:
        raise RuntimeError(done.stderr.strip().splitlines()[-1] if done.stderr else "failed")
    figures: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


# -- building each system -----------------------------------------------------------------


def index_ours(corpus: Corpus, profile: dict[str, Any]) -> float:
    """Index the corpus in one call, as a folder's index run does; seconds besides the embedding.

    Chroma is imported before the clock starts, as for the peers.
    """
    import chromadb  # noqa: F401

    from unified_search.config import SearchConfig
    from unified_search.kb.handler import KBHandler
    from unified_search.kb.ingest import embed_text

    embed = FastEmbedding().prepare(
        [embed_text(t, x) for t, x in zip(corpus.titles, corpus.texts, strict=True)]
    )
    docs = [
        {"id": i, "title": t, "text": x}
        for i, t, x in zip(corpus.ids, corpus.titles, corpus.texts, strict=True)
    ]

    async def run() -> float:
        handler = KBHandler.from_config(SearchConfig.load(profile=profile), embedding=embed)
        started = time.perf_counter()
        await handler.aadd_documents("scale", docs)
        elapsed = time.perf_counter() - started
        await handler.aclose()
        return elapsed - embed.seconds

    return asyncio.run(run())


def index_chroma(corpus: Corpus, where: str) -> float:
    client = chroma_client(where)
    collection = client.create_collection(
        "scale", embedding_function=None, configuration={"hnsw": {"space": "cosine"}}
    )
    texts = texts_of(corpus)
    embed = FastEmbedding().prepare(texts)
    started = time.perf_counter()
    limit = client.get_max_batch_size()
    for start in range(0, len(corpus.ids), limit):
        end = start + limit
        collection.add(
            ids=corpus.ids[start:end],
            embeddings=embed.vectors(texts[start:end]),
            documents=texts[start:end],
        )
    return time.perf_counter() - started - embed.seconds


def index_bm25s(corpus: Corpus, path: str) -> float:
    import bm25s
    import Stemmer

    started = time.perf_counter()
    texts = texts_of(corpus)
    stemmer = Stemmer.Stemmer("english")
    tokens = bm25s.tokenize(texts, stopwords="en", stemmer=stemmer, show_progress=False)
    retriever = bm25s.BM25(method="lucene", k1=0.9, b=0.4)
    retriever.index(tokens, show_progress=False)
    retriever.save(path, show_progress=False)
    return time.perf_counter() - started


def langchain_ensemble(corpus: Corpus, path: str, embed: FastEmbedding, *, build: bool) -> Any:
    from langchain_chroma import Chroma
    from langchain_classic.retrievers import EnsembleRetriever
    from langchain_community.retrievers import BM25Retriever
    from langchain_core.documents import Document

    docs = [
        Document(page_content=text, metadata={"id": i})
        for i, text in zip(corpus.ids, texts_of(corpus), strict=True)
    ]
    bm25 = BM25Retriever.from_documents(docs, k=10)
    store = Chroma("scale", embedding_function=embed, persist_directory=path)  # type: ignore[arg-type]
    if build:
        for start in range(0, len(docs), 5000):
            store.add_documents(docs[start : start + 5000], ids=corpus.ids[start : start + 5000])
    dense = store.as_retriever(search_kwargs={"k": 10})
    return EnsembleRetriever(retrievers=[bm25, dense], weights=[0.5, 0.5])


def index_langchain(corpus: Corpus, path: str) -> float:
    embed = FastEmbedding().prepare(texts_of(corpus))
    started = time.perf_counter()
    langchain_ensemble(corpus, path, embed, build=True)
    return time.perf_counter() - started - embed.seconds


def texts_of(corpus: Corpus) -> list[str]:
    """The chunks' texts as the peers embed and index them: title, then text."""
    return [f"{t} {x}" for t, x in zip(corpus.titles, corpus.texts, strict=True)]


# -- servers ------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_chroma(folder: Path) -> tuple[str, subprocess.Popen[bytes]]:
    import httpx

    chroma = shutil.which("chroma") or str(Path(sys.executable).with_name("chroma"))
    port = free_port()
    process = subprocess.Popen(
        [chroma, "run", "--path", str(folder), "--port", str(port), "--host", "127.0.0.1"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{url}/api/v2/heartbeat", timeout=1).status_code == 200:
                return url, process
        except httpx.HTTPError:
            time.sleep(0.2)
    process.kill()
    raise RuntimeError("chroma run did not start")


def scratch_database(url: str) -> str | None:
    """A new database on the server at ``url`` (``None`` when it cannot be reached)."""
    from sqlalchemy import create_engine
    from sqlalchemy.engine import make_url

    name = f"kbscale_{uuid.uuid4().hex[:10]}"
    try:
        admin = create_engine(url, isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
        admin.dispose()
    except Exception:  # no server: server mode is reported absent
        return None
    return make_url(url).set(database=name).render_as_string(hide_password=False)


def drop_database(admin_url: str, url: str) -> None:
    from sqlalchemy import create_engine
    from sqlalchemy.engine import make_url

    admin = create_engine(admin_url, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{make_url(url).database}" WITH (FORCE)')
    admin.dispose()


def database_bytes(url: str) -> int:
    from sqlalchemy import create_engine

    engine = create_engine(url)
    with engine.connect() as conn:
        total = conn.exec_driver_sql(
            "SELECT COALESCE(SUM(pg_total_relation_size(c.oid)), 0) FROM pg_class c "
            "JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = 'public' AND c.relkind = 'r'"
        ).scalar()
    engine.dispose()
    return int(total or 0)


def folder_bytes(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


# -- one size -----------------------------------------------------------------------------


def measure(size: int, args: argparse.Namespace, work: Path) -> dict[str, dict[str, Any]]:
    corpus = Corpus(size, args.queries)
    rows: dict[str, dict[str, Any]] = {}
    suffix = f" [{size:,} chunks]"
    modes = args.modes.split(",")

    def record(name: str, index_s: float, spec: dict[str, Any], disk: Callable[[], int]) -> None:
        table = str(work / "embedding.npy")
        FastEmbedding(Path(table))  # made once, mapped by every search process
        figures = run_probe({**spec, "queries": corpus.queries, "chunks": size, "table": table})
        rows[name + suffix] = {
            "index_chunks_per_s": size / max(index_s, 1e-9),
            **figures,
            "disk_kb_per_chunk": disk() / 1024 / size,
        }
        print(f"{name}{suffix}: {json.dumps(rows[name + suffix])}", file=sys.stderr)

    if "embedded" in modes:
        home = work / f"ours-{size}"
        profile = {"kb": {"data_dir": str(home)}}
        record(
            "unified-search (default)",
            index_ours(corpus, profile),
            {"system": "ours", "profile": profile},
            lambda: folder_bytes(home),
        )
    if "server" in modes:
        database = scratch_database(args.store_url)
        if database is None:
            for name in ("unified-search (server)", "unified-search (server, feedback off)"):
                rows[name + suffix] = absent(f"no PostgreSQL at {args.store_url}")
        else:
            url, chroma = start_chroma(work / f"chroma-server-{size}")
            try:
                profile = {
                    "kb": {
                        "data_dir": str(work / f"server-cache-{size}"),
                        "chroma_url": url,
                        "store_url": database,
                        "store_timeout": 120,
                    }
                }
                index_s = index_ours(corpus, profile)

                def disk(at: Path = work / f"chroma-server-{size}", url: str = database) -> int:
                    return folder_bytes(at) + database_bytes(url)

                record(
                    "unified-search (server)", index_s, {"system": "ours", "profile": profile}, disk
                )
                # The same collection searched without dense feedback: one Chroma query less.
                plain = {"kb": {**profile["kb"], "hybrid": {"feedback_docs": 0}}}
                record(
                    "unified-search (server, feedback off)",
                    index_s,
                    {"system": "ours", "profile": plain},
                    disk,
                )
            finally:
                chroma.terminate()
                chroma.wait()
                drop_database(args.store_url, database)
    peers: list[tuple[str, str, Callable[[Corpus, str], float], int]] = [
        ("chroma-dense", "chroma", index_chroma, sys.maxsize),
        ("bm25s", "bm25s", index_bm25s, sys.maxsize),
        ("langchain-ensemble", "langchain", index_langchain, LANGCHAIN_LIMIT),
    ]
    for name, system, build, limit in peers:
        if size > limit:
            rows[name + suffix] = absent(f"not run past {limit:,} chunks (BM25 in Python)")
            continue
        path = work / f"{system}-{size}"
        try:
            index_s = build(corpus, str(path))
            spec = {"system": system, "path": str(path)}
            record(name, index_s, spec, lambda at=path: folder_bytes(at))  # type: ignore[misc]
        except ImportError as exc:
            rows[name + suffix] = absent(f"not installed: {exc.name or exc}")
    if "server" in modes:  # the floor of server mode: one plain query of a Chroma server
        folder = work / f"chroma-server-dense-{size}"
        try:
            url, chroma = start_chroma(folder)
        except (ImportError, OSError) as exc:  # chromadb, or its server command, missing
            rows["chroma-server-dense" + suffix] = absent(f"no Chroma server: {exc}")
            return rows
        try:
            spec = {"system": "chroma", "path": url}
            record(
                "chroma-server-dense", index_chroma(corpus, url), spec, lambda: folder_bytes(folder)
            )
        finally:
            chroma.terminate()
            chroma.wait()
    return rows


def quality(
    path: Path, args: argparse.Namespace, work: Path, server: dict[str, Any] | None
) -> dict[str, dict[str, Any]]:
    """nDCG@10 and recall@100 of one BEIR dataset, embedded and (given ``server``) shared."""
    import kb as beir

    from unified_search.config import SearchConfig
    from unified_search.config.kb import EmbeddingConfig
    from unified_search.contract.handler import SearchContext
    from unified_search.kb.embeddings import embedding_from_config
    from unified_search.kb.handler import KBHandler
    from unified_search.types import SearchRequest

    corpus = beir.load_corpus(path)
    split = "test" if "test" in beir.splits_of(path) else beir.splits_of(path)[0]
    queries, qrels = beir.load_split(path, split)
    model = embedding_from_config(EmbeddingConfig())
    embed = beir.CachedEmbedding(model, beir.embed_corpus(model, corpus, args.cache)[0])
    docs = [{"id": d["_id"], "title": d.get("title") or "", "text": d["text"]} for d in corpus]
    deployments = {"unified-search (default)": {"data_dir": str(work / f"q-{path.name}")}}
    if server is not None:
        deployments["unified-search (server)"] = {
            **server,
            "data_dir": str(work / f"q-server-{path.name}"),
        }

    async def rank(kb: dict[str, Any]) -> dict[str, float]:
        config = SearchConfig.load(profile={"kb": kb})
        handler = KBHandler.from_config(config, embedding=embed)
        await handler.aadd_documents(f"q-{path.name}", docs)
        ctx = SearchContext(config=config, request_id="bench")
        ndcgs, recalls = [], []
        for qid, text in sorted(queries.items()):
            request = SearchRequest(
                query=text, type="kb", limit=beir.K_RECALL, collections=[f"q-{path.name}"]
            )
            found = await handler.asearch(request, ctx)
            ranked = beir.dedup([i.document_id or "" for i in found.items])
            ndcgs.append(beir.ndcg(ranked, qrels[qid]))
            recalls.append(beir.recall(ranked, qrels[qid]))
        await handler.aclose()
        return {"ndcg@10": statistics.fmean(ndcgs), "recall@100": statistics.fmean(recalls)}

    rows = {
        f"{name} [{path.name}/{split}]": asyncio.run(rank(kb)) for name, kb in deployments.items()
    }
    for name, metrics in rows.items():
        print(f"{name}: {json.dumps(metrics)}", file=sys.stderr)
    return rows


def servers(args: argparse.Namespace, work: Path) -> Iterator[dict[str, Any] | None]:
    """A Chroma server and a scratch PostgreSQL database (``None`` without PostgreSQL)."""
    database = scratch_database(args.store_url)
    if database is None:
        yield None
        return
    url, chroma = start_chroma(work / f"chroma-{uuid.uuid4().hex[:6]}")
    try:
        yield {"chroma_url": url, "store_url": database, "store_timeout": 120}
    finally:
        chroma.terminate()
        chroma.wait()
        drop_database(args.store_url, database)


def table(rows: dict[str, dict[str, Any]]) -> str:
    columns = [
        ("index_chunks_per_s", "index/s", "{:,.0f}"),
        ("cold_first_search_s", "cold s", "{:.2f}"),
        ("c1_p50_ms", "p50 c1", "{:.1f}"),
        ("c1_p99_ms", "p99 c1", "{:.1f}"),
        ("c10_p50_ms", "p50 c10", "{:.1f}"),
        ("c10_p99_ms", "p99 c10", "{:.1f}"),
        ("rss_mb", "RSS MB", "{:,.0f}"),
        ("uss_mb", "USS MB", "{:,.0f}"),
        ("disk_kb_per_chunk", "KB/chunk", "{:.2f}"),
    ]
    lines = [
        "| system | " + " | ".join(c[1] for c in columns) + " |",
        "|---" * (len(columns) + 1) + "|",
    ]
    for name, metrics in rows.items():
        if "absent" in metrics:
            lines.append(f"| {name} | absent: {metrics['absent']} |")
            continue
        if "ndcg@10" in metrics:
            lines.append(
                f"| {name} | nDCG@10 {metrics['ndcg@10']:.4f}, recall@100 "
                f"{metrics['recall@100']:.4f} |"
            )
            continue
        cells = [fmt.format(metrics[key]) for key, _, fmt in columns]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--chunks", type=int, action="append", help="corpus size (repeatable; default 10000)"
    )
    parser.add_argument("--queries", type=int, default=200, help="queries per concurrency")
    parser.add_argument("--modes", default="embedded,server", help="ours: embedded,server")
    parser.add_argument(
        "--store-url",
        default=os.environ.get(
            "TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
        ),
        help="PostgreSQL server for server mode (a scratch database is made on it)",
    )
    parser.add_argument("--work", type=Path, help="scratch folder (default: a temporary one)")
    parser.add_argument("--json", type=Path, help="write {systems: {name: metrics}} here")
    parser.add_argument("--beir", type=Path, action="append", help="BEIR folder to rank")
    parser.add_argument("--cache", type=Path, help="corpus vectors kept by benchmarks/kb.py")
    parser.add_argument("--probe", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.probe:
        print(json.dumps(probe(json.loads(args.probe))))
        return 0
    rows: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory(dir=args.work) as folder:
        sizes = args.chunks or ([] if args.beir else [10_000])
        for size in sizes:
            rows.update(measure(size, args, Path(folder)))
        if args.beir:
            shared = contextlib.contextmanager(servers)(args, Path(folder))
            with shared as server:
                for path in args.beir:
                    rows.update(quality(path, args, Path(folder), server))
                if server is None:
                    rows["unified-search (server) [beir]"] = absent(
                        f"no PostgreSQL at {args.store_url}"
                    )
    print(table(rows))
    if args.json:
        write_json(args.json, rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
