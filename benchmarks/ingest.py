"""Folder ingestion: a generated mixed folder indexed by us and by the peers, same model.

Usage: python benchmarks/ingest.py [--files 240] [--runs 3] [--json OUT] [--work DIR]

The script writes a folder of at least 200 files (Markdown with front matter and
code blocks, reStructuredText, HTML, plain text, text without an extension,
PDF, Word, JSON Lines, CSV, plus binary, empty, non-UTF-8, a 200 MB sparse file
and a symbolic-link loop), then indexes it with each system in a fresh
process, all embedding with the same all-MiniLM-L6-v2 int8 model:

- unified-search (default): ``KBHandler.index_paths``;
- LangChain: ``DirectoryLoader`` per file type + ``RecursiveCharacterTextSplitter`` +
  ``langchain_chroma.Chroma``;
- LlamaIndex: ``SimpleDirectoryReader`` + ``SentenceSplitter`` + ``VectorStoreIndex``
  over ``ChromaVectorStore``.

It reports files/s, chunks/s and peak memory (max RSS of the process), the cold
start of one knowledge-base query from a new process (our ``unified-search
search`` command; the peers' shortest equivalent script), and the write side:
indexing with precomputed vectors against a plain Chroma ``add`` of the same
chunks (both medians of ``--runs``). A peer whose package is missing is marked absent.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import io
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from report import ABSENT, absent, write_json

QUERY = "how do I return opened headphones"
#: The peers read the folder without its ``bad/`` files: LangChain's TextLoader reads the
#: 200 MB file whole (some 100,000 chunks of NUL characters, hours of embedding), and
#: LlamaIndex's SimpleDirectoryReader stops at the symbolic-link loop (``OSError: Too many
#: levels of symbolic links``) even with ``raise_on_error=False``.
PEER_EXCLUDE = "bad/*"
SENTENCES: list[str] = []


def paragraph(rng: random.Random, count: int = 6) -> str:
    """Sentences of the bundled help centre, shuffled: prose statistics, not a word list."""
    if not SENTENCES:
        from unified_search.samples.knowledge import sample_documents

        text = re.sub(r"[#*`>|]", " ", " ".join(d["text"] for d in sample_documents()))
        SENTENCES.extend(s for s in re.split(r"(?<=[.!?])\s+", text) if len(s) > 40)
    return " ".join(rng.choice(SENTENCES) for _ in range(count))


def make_folder(root: Path, files: int) -> Path:
    """Write the mixed folder; every kind gets its share of ``files``."""
    rng = random.Random(7)
    folder = root / "mixed"
    kinds = ["md", "rst", "html", "txt", "plain", "pdf", "docx", "jsonl", "csv"]
    for i in range(files):
        kind = kinds[i % len(kinds)]
        sub = folder / f"section-{i % 7}"
        sub.mkdir(parents=True, exist_ok=True)
        body = "\n\n".join(paragraph(rng) for _ in range(rng.randint(2, 8)))
        name = f"doc-{i:04}"
        if kind == "md":
            text = (
                f"---\ntitle: Guide {i}\ntags: [bench, {kind}]\n---\n"
                f"```sh\n# not a title\nrun --fast\n```\n\n# Heading {i}\n\n{body}\n"
            )
            (sub / f"{name}.md").write_text(text)
        elif kind == "rst":
            (sub / f"{name}.rst").write_text(f"Topic {i}\n{'=' * 12}\n\n{body}\n")
        elif kind == "html":
            page = f"<html><head><title>Page {i}</title></head><body><nav>Home</nav><p>{body}</p></body></html>"
            (sub / f"{name}.html").write_text(page)
        elif kind == "txt":
            (sub / f"{name}.txt").write_text(body)
        elif kind == "plain":
            (sub / f"NOTES-{i}").write_text(body)
        elif kind == "pdf":
            (sub / f"{name}.pdf").write_bytes(pdf(f"Report {i}", body[:900]))
        elif kind == "docx":
            (sub / f"{name}.docx").write_bytes(docx(f"Memo {i}", body))
        elif kind == "jsonl":
            rows = [
                {"id": f"r{i}-{n}", "title": f"Record {n}", "text": paragraph(rng)}
                for n in range(10)
            ]
            (sub / f"{name}.jsonl").write_text("\n".join(json.dumps(r) for r in rows))
        else:
            table = io.StringIO()
            csv.writer(table).writerows(
                [["name", "description"], *([f"Item {n}", paragraph(rng, 1)] for n in range(10))]
            )
            (sub / f"{name}.csv").write_text(table.getvalue())
    bad = folder / "bad"
    bad.mkdir()
    (bad / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(200))
    (bad / "core").write_bytes(b"\x7fELF\x00\x00" + bytes(100))
    (bad / "empty.md").write_text("")
    (bad / "latin1.txt").write_bytes("caf\xe9".encode("latin-1"))
    with open(bad / "huge.txt", "wb") as big:
        big.truncate(200 * 1024 * 1024)
    (bad / "loop").symlink_to(bad / "loop")
    return folder


def pdf(title: str, text: str) -> bytes:
    import pypdf
    from pypdf.generic import DecodedStreamObject, DictionaryObject, NameObject

    writer = pypdf.PdfWriter()
    page = writer.add_blank_page(width=600, height=800)
    font = DictionaryObject(
        {
            NameObject("/Type"): NameObject("/Font"),
            NameObject("/Subtype"): NameObject("/Type1"),
            NameObject("/BaseFont"): NameObject("/Helvetica"),
        }
    )
    page[NameObject("/Resources")] = DictionaryObject(
        {NameObject("/Font"): DictionaryObject({NameObject("/F1"): font})}
    )
    lines = [
        text[i : i + 90].replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
        for i in range(0, len(text), 90)
    ]
    ops = " ".join(f"({line}) Tj T*" for line in lines)
    stream = DecodedStreamObject()
    stream.set_data(f"BT /F1 10 Tf 12 TL 20 780 Td {ops} ET".encode())
    page[NameObject("/Contents")] = writer._add_object(stream)
    writer.add_metadata({"/Title": title})
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def docx(title: str, text: str) -> bytes:
    import docx as python_docx

    document = python_docx.Document()
    document.core_properties.title = title
    document.add_heading(title, level=1)
    for part in text.split("\n\n"):
        document.add_paragraph(part)
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


# -- one system per process ---------------------------------------------------------------


def model() -> Any:
    from unified_search.kb.embeddings import default_embedding

    return default_embedding()


class HashVectors:
    """Precomputed-like vectors: a hash of the text, so no time goes to a model."""

    name = "hash-384"

    def __call__(self, texts: list[str]) -> list[list[float]]:
        return [self.one(t) for t in texts]

    @staticmethod
    def one(text: str) -> list[float]:
        seed = int(hashlib.sha256(text.encode()).hexdigest()[:8], 16)
        rng = random.Random(seed)
        return [rng.uniform(-1, 1) for _ in range(384)]


def run_ours(folder: Path, work: Path, embed: Any) -> dict[str, Any]:
    from unified_search.config import SearchConfig
    from unified_search.kb.handler import KBHandler

    config = SearchConfig.load(profile={"kb": {"data_dir": str(work / "kb")}})
    kb = KBHandler.from_config(config, embedding=embed)
    report = kb.index_paths("bench", [folder])
    return {"files": report.changed, "chunks": report.chunks_added, "skipped": len(report.skipped)}


def _lc_documents(folder: Path) -> tuple[list[Any], int]:
    from langchain_community.document_loaders import (
        CSVLoader,
        DirectoryLoader,
        PyPDFLoader,
        TextLoader,
    )

    loaders: dict[str, Any] = {
        "**/*.md": TextLoader, "**/*.rst": TextLoader, "**/*.txt": TextLoader,
        "**/*.html": TextLoader, "**/*.jsonl": TextLoader, "**/*.pdf": PyPDFLoader,
        "**/*.csv": CSVLoader,
    }  # fmt: skip
    try:
        import docx2txt  # noqa: F401
        from langchain_community.document_loaders import Docx2txtLoader

        loaders["**/*.docx"] = Docx2txtLoader
    except ImportError:
        pass  # DirectoryLoader has no .docx reader without docx2txt: those files are missed
    docs: list[Any] = []
    for glob, loader in loaders.items():
        docs += DirectoryLoader(
            str(folder), glob=glob, loader_cls=loader, silent_errors=True, exclude=[PEER_EXCLUDE]
        ).load()
    return docs, len({d.metadata.get("source") for d in docs})


def run_langchain(folder: Path, work: Path, embed: Any) -> dict[str, Any]:
    import chromadb
    from langchain_chroma import Chroma
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    docs, files = _lc_documents(folder)
    chunks = RecursiveCharacterTextSplitter(chunk_size=2000, chunk_overlap=250).split_documents(
        docs
    )
    client = chromadb.PersistentClient(path=str(work / "langchain"), settings=_settings())
    Chroma.from_documents(chunks, embedding=Adapter(embed), client=client, collection_name="bench")
    return {"files": files, "chunks": len(chunks), "skipped": None}


def run_llamaindex(folder: Path, work: Path, embed: Any) -> dict[str, Any]:
    import chromadb
    from llama_index.core import Settings, SimpleDirectoryReader, StorageContext, VectorStoreIndex
    from llama_index.core.node_parser import SentenceSplitter
    from llama_index.vector_stores.chroma import ChromaVectorStore

    Settings.llm = None
    docs = SimpleDirectoryReader(
        str(folder), recursive=True, raise_on_error=False, exclude=[PEER_EXCLUDE]
    ).load_data()
    nodes = SentenceSplitter(chunk_size=512, chunk_overlap=64).get_nodes_from_documents(docs)
    client = chromadb.PersistentClient(path=str(work / "llamaindex"), settings=_settings())
    store = ChromaVectorStore(chroma_collection=client.get_or_create_collection("bench"))
    VectorStoreIndex(
        nodes,
        storage_context=StorageContext.from_defaults(vector_store=store),
        embed_model=llama_embedding(embed),
    )
    files = len({d.metadata.get("file_path") for d in docs})
    return {"files": files, "chunks": len(nodes), "skipped": None}


def _settings() -> Any:
    import chromadb

    return chromadb.config.Settings(anonymized_telemetry=False)


class Adapter:
    """Our embedding function as LangChain ``Embeddings``."""

    def __init__(self, embed: Any) -> None:
        self.embed = embed

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [list(map(float, v)) for v in self.embed(texts)]

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]


def llama_embedding(embed: Any) -> Any:
    from llama_index.core.embeddings import BaseEmbedding

    class Embedding(BaseEmbedding):
        def _get_query_embedding(self, query: str) -> list[float]:
            return list(map(float, embed([query])[0]))

        async def _aget_query_embedding(self, query: str) -> list[float]:
            return self._get_query_embedding(query)

        def _get_text_embedding(self, text: str) -> list[float]:
            return self._get_query_embedding(text)

        def _get_text_embeddings(self, texts: list[str]) -> list[list[float]]:
            return [list(map(float, v)) for v in embed(texts)]

    return Embedding(model_name="minilm", embed_batch_size=64)


SYSTEMS = {
    "unified-search (default)": run_ours,
    "LangChain DirectoryLoader + splitter + Chroma": run_langchain,
    "LlamaIndex SimpleDirectoryReader + VectorStoreIndex (Chroma)": run_llamaindex,
}
PACKAGES = {
    "LangChain DirectoryLoader + splitter + Chroma": ["langchain_community", "langchain_chroma"],
    "LlamaIndex SimpleDirectoryReader + VectorStoreIndex (Chroma)": [
        "llama_index.core",
        "llama_index.vector_stores.chroma",
    ],
}


def child(name: str, folder: Path, work: Path) -> None:
    """Run one system in this process and print its figures as JSON."""
    import resource

    embed = model()
    started, cpu = time.perf_counter(), _cpu(resource.RUSAGE_SELF)
    figures = SYSTEMS[name](folder, work, embed)
    seconds, cpu = time.perf_counter() - started, _cpu(resource.RUSAGE_SELF) - cpu
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({**figures, "seconds": seconds, "cpu_s": cpu, "peak_mb": peak}))


def _cpu(who: int) -> float:
    """User + system CPU seconds: steadier than wall time on a shared machine."""
    import resource

    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def measure(name: str, folder: Path, work: Path) -> dict[str, Any]:
    missing = [p for p in PACKAGES.get(name, []) if not _installed(p)]
    if missing:
        return absent(f"not installed: {', '.join(missing)}")
    done = subprocess.run(
        [sys.executable, __file__, "--child", name, "--folder", str(folder), "--work", str(work)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        return absent(f"failed: {done.stderr.strip().splitlines()[-1:]}")
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    figures["files_per_s"] = figures["files"] / figures["seconds"]
    figures["chunks_per_s"] = figures["chunks"] / figures["seconds"]
    return figures


def _installed(module: str) -> bool:
    import importlib.util

    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:
        return False


# -- cold start of one query ----------------------------------------------------------------

PEER_QUERIES = {
    "LangChain DirectoryLoader + splitter + Chroma": (
        "import chromadb, sys; sys.path.insert(0, {bench!r}); from ingest import Adapter, model;"
        "from langchain_chroma import Chroma;"
        "c = chromadb.PersistentClient(path={path!r});"
        "print(Chroma(collection_name='bench', client=c, embedding_function=Adapter(model()))"
        ".similarity_search({query!r}, k=5)[0].page_content[:40])"
    ),
    "LlamaIndex SimpleDirectoryReader + VectorStoreIndex (Chroma)": (
        "import chromadb, sys; sys.path.insert(0, {bench!r}); from ingest import llama_embedding, model;"
        "from llama_index.core import VectorStoreIndex;"
        "from llama_index.vector_stores.chroma import ChromaVectorStore;"
        "c = chromadb.PersistentClient(path={path!r});"
        "s = ChromaVectorStore(chroma_collection=c.get_collection('bench'));"
        "i = VectorStoreIndex.from_vector_store(s, embed_model=llama_embedding(model()));"
        "print(i.as_retriever(similarity_top_k=5).retrieve({query!r})[0].text[:40])"
    ),
}


def cold_start(name: str, work: Path, runs: int = 3) -> tuple[float, float] | None:
    """Median wall and CPU seconds from a new process to one knowledge-base answer."""
    env = {**os.environ, "UNIFIED_SEARCH_HOME": str(work)}
    if name == "unified-search (default)":
        command = [sys.executable, "-m", "unified_search.cli", "search", QUERY, "--type", "kb",
                   "--collection", "bench", "--format", "json"]  # fmt: skip
    else:
        folder = "langchain" if name.startswith("LangChain") else "llamaindex"
        script = PEER_QUERIES[name].format(
            bench=str(Path(__file__).parent), path=str(work / folder), query=QUERY
        )
        command = [sys.executable, "-c", script]
    import resource

    walls, cpus = [], []
    for _ in range(runs):
        started, cpu = time.perf_counter(), _cpu(resource.RUSAGE_CHILDREN)
        done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
        if done.returncode != 0:
            return None
        walls.append(time.perf_counter() - started)
        cpus.append(_cpu(resource.RUSAGE_CHILDREN) - cpu)
    return statistics.median(walls), statistics.median(cpus)


# -- the write side: precomputed vectors against a plain Chroma add -------------------------


def write_side(folder: Path, work: Path, runs: int = 3) -> dict[str, float]:
    """Median CPU seconds to index the folder's documents with vectors ready (with and without
    the entity graph), and to add the same chunks and vectors to a plain Chroma collection."""
    import chromadb

    from unified_search.config import SearchConfig
    from unified_search.kb.chunking import chunk_document
    from unified_search.kb.files import DirectoryReader
    from unified_search.kb.handler import KBHandler
    from unified_search.kb.ingest import embed_text

    docs = DirectoryReader(folder).load()
    size, overlap = 512, 64
    chunks = [c for d in docs for c in chunk_document(d, size, overlap)]

    def chunking(run: int) -> float:
        started = time.process_time()
        for d in docs:
            chunk_document(d, size, overlap)
        return time.process_time() - started

    vectors = {
        embed_text(c.title, c.text): HashVectors.one(embed_text(c.title, c.text)) for c in chunks
    }

    class Ready:
        name = "hash-384"

        def __call__(self, texts: list[str]) -> list[list[float]]:
            return [vectors[t] for t in texts]

    def ours(run: int, graph: bool) -> float:
        profile = {
            "kb": {"data_dir": str(work / f"write-{graph}-{run}"), "graph": {"extract": graph}}
        }
        kb = KBHandler.from_config(SearchConfig.load(profile=profile), embedding=Ready())
        started = time.process_time()  # every thread's CPU: steadier than wall time when shared
        kb.add_documents("bench", docs)
        return time.process_time() - started

    def chroma(run: int) -> float:
        client = chromadb.PersistentClient(
            path=str(work / f"write-chroma-{run}"), settings=_settings()
        )
        collection = client.create_collection("bench", embedding_function=None)
        started = time.process_time()
        for start in range(0, len(chunks), 512):
            part = chunks[start : start + 512]
            collection.add(
                ids=[c.id for c in part],
                embeddings=[vectors[embed_text(c.title, c.text)] for c in part],
                documents=[c.text for c in part],
                metadatas=[c.chroma_metadata() for c in part],
            )
        return time.process_time() - started

    ours(-1, True), chroma(-1)  # warm up: tokenizer, stemmer, Chroma's first collection
    with_graph = statistics.median(ours(r, True) for r in range(runs))
    without = statistics.median(ours(r, False) for r in range(runs))
    plain = statistics.median(chroma(r) for r in range(runs))
    cut = statistics.median(chunking(r) for r in range(runs))
    return {
        "chunks": len(chunks),
        "ours_s": with_graph,
        "ours_no_graph_s": without,
        "chroma_add_s": plain,
        "chunking_s": cut,
        "ratio": with_graph / plain,
        "ratio_no_graph": without / plain,
        "ratio_with_chunking": with_graph / (plain + cut),
        "ratio_no_graph_with_chunking": without / (plain + cut),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=240)
    parser.add_argument("--runs", type=int, default=3, help="cold queries and write-side runs")
    parser.add_argument("--json", type=Path, help="write {systems: {name: metrics}} here")
    parser.add_argument("--work", type=Path, help="folder for the data (default: a temporary one)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--folder", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    work = args.work or Path(tempfile.mkdtemp(prefix="ingest-bench-"))
    if args.child:
        child(args.child, args.folder, work)
        return
    folder = make_folder(work, args.files)
    results: dict[str, dict[str, Any]] = {}
    for name in SYSTEMS:
        results[name] = measure(name, folder, work)
        if ABSENT not in results[name]:
            cold = cold_start(name, work, args.runs)
            results[name]["cold_query_s"], results[name]["cold_query_cpu_s"] = cold or (None, None)
        print(name, results[name], file=sys.stderr)
    writes = write_side(folder, work, args.runs)
    print_table(results, writes)
    if args.json:
        write_json(args.json, results, write_side=writes)


def print_table(results: dict[str, dict[str, Any]], writes: dict[str, float]) -> None:
    print(
        "| system | files read | chunks | s (CPU s) | files/s | chunks/s | chunks per CPU s "
        "| peak MB | cold query s (CPU s) |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for name, r in results.items():
        if ABSENT in r:
            print(f"| {name} | absent ({r[ABSENT]}) | | | | | | | |")
            continue
        cold = (
            f"{r['cold_query_s']:.2f} ({r['cold_query_cpu_s']:.2f})"
            if r.get("cold_query_s")
            else "–"
        )
        print(
            f"| {name} | {r['files']} | {r['chunks']} | {r['seconds']:.1f} ({r['cpu_s']:.1f}) "
            f"| {r['files_per_s']:.1f} | {r['chunks_per_s']:.1f} | {r['chunks'] / r['cpu_s']:.1f} "
            f"| {r['peak_mb']:.0f} | {cold} |"
        )
    w = writes
    print("\n| write side, vectors ready | CPU s | × Chroma add | × chunking + Chroma add |")
    print("|---|---|---|---|")
    print(f"| plain Chroma `add` ({w['chunks']:.0f} chunks) | {w['chroma_add_s']:.2f} | 1.00 | |")
    print(
        f"| the same chunking + Chroma `add` | {w['chroma_add_s'] + w['chunking_s']:.2f} | | 1.00 |"
    )
    print(
        f"| unified-search `add_documents` | {w['ours_s']:.2f} | {w['ratio']:.2f} "
        f"| {w['ratio_with_chunking']:.2f} |"
    )
    print(
        f"| unified-search, `kb.graph.extract: false` | {w['ours_no_graph_s']:.2f} "
        f"| {w['ratio_no_graph']:.2f} | {w['ratio_no_graph_with_chunking']:.2f} |"
    )


if __name__ == "__main__":
    main()
