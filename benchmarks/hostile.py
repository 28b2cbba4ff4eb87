"""Hostile files and hostile clients: per attack, what happened and what it cost.

Attacks on indexing (each file read in a fresh process, so its peak memory is its own):
a JSON Lines line nested 100,000 brackets deep, a CSV field of 200 KB, a 20 MB
single-line JSON Lines file, a ``.docx`` zip bomb (1 GiB unzipped), YAML "billion
laughs" front matter, HTML nested 100,000 elements deep, a truncated PDF. Each is
read by us (``unified_search.kb.files.parse_file`` under the default ``kb.limits``)
and by the peers' loaders for its type: LlamaIndex's ``SimpleDirectoryReader`` and
LangChain's loader of that type. Figures: what happened (read, skipped with a
reason, raised), seconds, and peak RSS above the process's RSS before reading. Then a
whole ``unified-search index`` run of the reported case: 41 documents beside the deep
``.jsonl`` and the wide ``.csv`` (exit code, documents indexed, seconds), against
LlamaIndex's ``SimpleDirectoryReader`` over the same folder; and a whole run of a
20 MB single-line ``.jsonl`` beside one document, against the same run without it
(seconds, peak RSS of the ``index`` process).

Attacks on the HTTP API: 200 stalled connections beside 50 searching clients, for
our server and uvicorn's own (``hostile_http``). Then the operator's view of a planted
record (``unified-search records``), a full disk under the record store (a size-capped
tmpfs when this process may mount one, else SQLite's ``max_page_count``) and ``kb
drop`` during an index run: the error codes seen.

Usage: python benchmarks/hostile.py [--smoke] [--stall-seconds S] [--parts files,http,...]
       [--json PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import logging
import os
import resource
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path
from typing import Any

from hostile_http import OURS, UVICORN, Figures, http
from report import write_json

BENCHMARKS = Path(__file__).resolve().parent
LLAMA = "llama-index SimpleDirectoryReader"
LANGCHAIN = "langchain loader of the type"


# -- hostile files ----------------------------------------------------------------------------


def zip_bomb(unpacked: int) -> bytes:
    out = io.BytesIO()
    with (
        zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive,
        archive.open("word/document.xml", "w", force_zip64=True) as member,
    ):
        block = b"\0" * (1 << 20)
        for _ in range(unpacked >> 20):
            member.write(block)
    return out.getvalue()


def hostile_files(smoke: bool) -> dict[str, bytes]:
    """The attacks, by file name; ``smoke`` makes the large ones small."""
    line = 2_000_000 if smoke else 20_000_000
    laughs = "---\na: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join([f'*{chr(97 + i)}'] * 9)}]\n" for i in range(8)
    )
    pdf = (BENCHMARKS.parent / "tests" / "fixtures" / "kb" / "report.pdf").read_bytes()
    return {
        "deep.jsonl": b"[" * 100_000 + b"\n",
        "wide.csv": b"title,text\nbig," + b"x" * 200_000 + b"\nok,fine\n",
        "line.jsonl": b'{"text": "' + b"x" * line + b'"}\n',
        "bomb.docx": zip_bomb((4 if smoke else 1024) << 20),
        "laughs.md": (laughs + "---\n# Laughs\n\nBody.\n").encode(),
        "deep.html": b"<div>" * 100_000 + b"deep text",
        "truncated.pdf": pdf[: len(pdf) // 2],
    }


def rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def read_ours(path: Path, limits: dict[str, int]) -> int:
    from unified_search.config.kb import LimitsConfig
    from unified_search.kb.files import SourceFile, parse_file
    from unified_search.kb.readers import Unreadable

    try:
        read = parse_file(SourceFile(path, path.name), path.read_bytes(), LimitsConfig(**limits))
    except Unreadable:
        return -1  # skipped with its reason
    return len(read.documents()[0])


def read_llama(path: Path) -> int:
    from llama_index.core import SimpleDirectoryReader

    return len(SimpleDirectoryReader(input_files=[path], raise_on_error=True).load_data())


def read_langchain(path: Path) -> int:
    from langchain_community import document_loaders as loaders

    by_suffix: dict[str, Any] = {
        ".jsonl": lambda p: loaders.JSONLoader(p, ".", json_lines=True, text_content=False),
        ".csv": loaders.CSVLoader,
        ".docx": loaders.Docx2txtLoader,
        ".md": loaders.TextLoader,
        ".html": loaders.BSHTMLLoader,
        ".pdf": loaders.PyPDFLoader,
    }
    return len(by_suffix[path.suffix](str(path)).load())


def child(system: str, path: Path, limits: dict[str, int]) -> dict[str, float]:
    """Read one file with ``system`` in this process: outcome, seconds, peak RSS above the start."""
    import warnings

    warnings.simplefilter("ignore")
    reader = {"ours": lambda p: read_ours(p, limits), "llama": read_llama}.get(
        system, read_langchain
    )
    reader(BENCHMARKS.parent / "README.md")  # import everything the reader needs first
    before = rss_mib()
    started = time.perf_counter()
    try:
        documents, raised = reader(path), 0.0
    except Exception:
        documents, raised = 0, 1.0
    return {
        "seconds": round(time.perf_counter() - started, 3),
        "peak_mib": round(rss_mib() - before, 1),
        "raised": raised,
        "skipped": 1.0 if documents == -1 else 0.0,
        "documents": float(max(documents, 0)),
    }


def read_in_child(system: str, path: Path, limits: dict[str, int]) -> dict[str, float]:
    code = (
        f"import json, sys; sys.path.insert(0, {str(BENCHMARKS)!r}); import hostile;"
        f"print(json.dumps(hostile.child({system!r}, hostile.Path({str(path)!r}), {limits!r})))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=900, check=False
    )
    if done.returncode != 0:  # killed, or out of memory: the peak is the whole machine's
        return {"seconds": float("nan"), "peak_mib": float("nan"), "raised": 1.0, "crashed": 1.0}
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def files(folder: Path, smoke: bool, systems: dict[str, Figures]) -> None:
    limits = {"max_unpacked_bytes": 1 << 20} if smoke else {}
    for name, content in hostile_files(smoke).items():
        path = folder / "attacks" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)
        for system, label in (("ours", OURS), ("llama", LLAMA), ("langchain", LANGCHAIN)):
            # A smoke run reads in this process: quicker, its memory figures not its own.
            found = child(system, path, limits) if smoke else read_in_child(system, path, limits)
            stem = name.replace(".", "_")
            figures = systems.setdefault(label, {})
            for key in ("seconds", "peak_mib", "raised", "skipped"):
                figures[f"{stem}_{key}"] = found.get(key, float("nan"))
            figures["files_raised"] = figures.get("files_raised", 0.0) + found["raised"]


# -- a whole index run ------------------------------------------------------------------------


def cli(home: Path, *args: str, config: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "UNIFIED_SEARCH_HOME": str(home)}
    if config is not None:
        env["UNIFIED_SEARCH_CONFIG"] = str(config)
    return subprocess.run(
        [sys.executable, "-m", "unified_search.cli", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )


def peak_run(home: Path, *args: str) -> tuple[int, float, float]:
    """Run the command line; its exit code, seconds and peak RSS (MiB, polled every 20 ms)."""
    import psutil

    env = {**os.environ, "UNIFIED_SEARCH_HOME": str(home)}
    command = [sys.executable, "-m", "unified_search.cli", *args]
    started = time.perf_counter()
    process = subprocess.Popen(
        command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    watched = psutil.Process(process.pid)
    peak = 0
    while process.poll() is None:
        try:
            peak = max(peak, watched.memory_info().rss)
        except psutil.NoSuchProcess:
            break
        time.sleep(0.02)
    return process.wait(), time.perf_counter() - started, peak / (1 << 20)


def one_long_line(folder: Path, smoke: bool, systems: dict[str, Figures]) -> None:
    """A whole index run of a single-line JSON Lines file, beside one document, and without it."""
    figures: Figures = {}
    for label, line in (("index_without_line", 0), ("index_with_line", 2 if smoke else 20)):
        docs = folder / label
        docs.mkdir()
        (docs / "note.md").write_text("# Note\n\nBatteries last thirty hours.\n")
        if line:
            (docs / "line.jsonl").write_bytes(b'{"text": "' + b"x" * (line * 10**6) + b'"}')
        code, seconds, peak = peak_run(
            folder / f"{label}-home", "index", str(docs), "-q", "--collection", "line"
        )
        figures |= {
            f"{label}_exit_code": float(code),
            f"{label}_seconds": round(seconds, 2),
            f"{label}_peak_rss_mib": round(peak, 1),
        }
    systems[OURS] |= figures


def index_run(folder: Path, smoke: bool, systems: dict[str, Figures]) -> None:
    docs = folder / "mixed"
    docs.mkdir()
    count = 5 if smoke else 41
    for i in range(count):
        (docs / f"doc{i:02}.md").write_text(f"# Doc {i}\n\nPassage {i} about batteries.\n")
    (docs / "deep.jsonl").write_bytes(b"[" * 100_000 + b"\n")
    (docs / "wide.csv").write_bytes(b"title,text\nbig," + b"x" * 200_000 + b"\n")
    started = time.perf_counter()
    run = cli(folder / "home", "index", str(docs), "--collection", "mixed", "-q")
    seconds = time.perf_counter() - started
    listed = cli(folder / "home", "kb", "list", "mixed").stdout
    systems[OURS] |= {
        "index_exit_code": float(run.returncode),
        "index_documents": float(sum(f"doc{i:02}.md" in listed for i in range(count))),
        "index_of_documents": float(count),
        "index_seconds": round(seconds, 2),
    }
    try:
        from llama_index.core import SimpleDirectoryReader

        started = time.perf_counter()
        loaded = SimpleDirectoryReader(str(docs)).load_data()
        systems[LLAMA] |= {
            "index_documents": float(len({d.metadata.get("file_name") for d in loaded})),
            "index_seconds": round(time.perf_counter() - started, 2),
            "index_raised": 0.0,
        }
    except Exception:
        systems[LLAMA]["index_raised"] = 1.0


# -- the operator's view, the store, the collection -------------------------------------------


def operator_view(folder: Path, systems: dict[str, Figures]) -> None:
    from unified_search.records.store import SearchRecord, SearchStore

    home = folder / "view"
    home.mkdir()
    planted = "keys [/bold] \x1b[2J\x1b]8;;http://evil.example\x07x\x1b]8;;\x07 \u202eevil"
    with SearchStore(f"sqlite:///{home / 'search.sqlite3'}") as store:
        store.save([SearchRecord(request_id="planted", query=planted, type="kb")])
        store.save([SearchRecord(request_id="plain", query="battery", type="kb")])
    shown = cli(home, "records", "--source", "kb")
    systems[OURS] |= {
        "planted_record_view_exit_code": float(shown.returncode),
        "planted_record_raw_controls_printed": float(sum(c in shown.stdout for c in "\x1b\u202e")),
        "planted_record_others_shown": float("battery" in shown.stdout),
    }


def full_disk(folder: Path, systems: dict[str, Figures]) -> None:
    from sqlalchemy import event

    from unified_search.engine.searcher import Searcher
    from unified_search.records.store import SearchStore

    logging.getLogger("unified_search").setLevel(logging.CRITICAL)  # each drop is logged
    tiny = folder / "tiny"
    tiny.mkdir()
    mounted = (
        subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=512k", "tmpfs", str(tiny)], capture_output=True
        ).returncode
        == 0
    )
    try:
        store = SearchStore(f"sqlite:///{tiny / 'search.sqlite3'}", timeout=1.0, wait=0.5)
        store._process = None  # the child would not see an emulated cap
        if not mounted:
            event.listen(
                store.engine,
                "connect",
                lambda dbapi, _: dbapi.execute("PRAGMA max_page_count = 30"),
            )
            store.engine.dispose()
        searcher = Searcher(store=store)

        async def fill() -> set[str]:
            codes: set[str] = set()
            for n in range(200):
                answer = await searcher.asearch({"query": f"q{n} " + "x " * 990, "type": "web"})
                codes |= {w.code.value for w in answer.warnings if w.provider == "store"}
            await searcher.aclose()
            return codes

        codes = asyncio.run(fill())
        store.close()  # what is still queued is given up on: logged, counted
        systems[OURS] |= {
            "full_disk_on_tmpfs": float(mounted),
            "full_disk_storage_full_reported": float("STORAGE_FULL" in codes),
            "full_disk_network_error_reported": float("NETWORK_ERROR" in codes),
            "full_disk_records_dropped_and_logged": float(store.writer.dropped),
        }
    finally:
        if mounted:
            subprocess.run(["umount", str(tiny)], check=False)


def dropped_collection(folder: Path, smoke: bool, systems: dict[str, Figures]) -> None:
    from unified_search.config.search import SearchConfig
    from unified_search.errors import SearchError
    from unified_search.kb.handler import KBHandler

    config = SearchConfig.load(profile={"kb": {"data_dir": str(folder / "dropkb")}})
    docs = folder / "dropdocs"
    docs.mkdir()
    for n in range(20 if smoke else 300):
        (docs / f"d{n}.md").write_text(f"# D{n}\n\nPassage {n} about batteries.\n")
    armed: list[bool] = []

    def dropping(texts: list[str]) -> list[list[float]]:
        if armed and armed.pop():
            other.drop_collection("doomed")  # as `kb drop` from another terminal would
        return [[1.0] * 8 for _ in texts]

    dropping.name = "constant-8"  # type: ignore[attr-defined]
    kb = KBHandler.from_config(config, embedding=dropping)
    other = KBHandler.from_config(config, embedding=dropping)
    code = "none"
    try:
        kb.add_documents("doomed", ["seed"])
        armed.append(True)
        kb.index_paths("doomed", [docs])
    except SearchError as exc:
        code = exc.code.value
    systems[OURS]["dropped_collection_not_found"] = float(code == "NOT_FOUND")


def main(args: argparse.Namespace) -> dict[str, Figures]:
    systems: dict[str, Figures] = {OURS: {}, LLAMA: {}, LANGCHAIN: {}, UVICORN: {}}
    parts = {
        "files": lambda folder: files(folder, args.smoke, systems),
        "index": lambda folder: index_run(folder, args.smoke, systems),
        "line": lambda folder: one_long_line(folder, args.smoke, systems),
        "http": lambda folder: http(folder, args.smoke, args.stall_seconds, systems),
        "view": lambda folder: operator_view(folder, systems),
        "disk": lambda folder: full_disk(folder, systems),
        "collection": lambda folder: dropped_collection(folder, args.smoke, systems),
    }
    with tempfile.TemporaryDirectory() as name:
        for part in args.parts.split(","):
            parts[part](Path(name))
    return {name: figures for name, figures in systems.items() if figures}


def table(systems: dict[str, Figures]) -> str:
    keys = sorted({key for figures in systems.values() for key in figures})
    width = max(len(k) for k in keys)
    names = list(systems)
    lines = [f"{'':<{width}}" + "".join(f"{n[:26]:>28}" for n in names)]
    for key in keys:
        cells = "".join(
            f"{systems[n][key]:>28g}" if key in systems[n] else f"{'-':>28}" for n in names
        )
        lines.append(f"{key:<{width}}{cells}")
    return "\n".join(lines)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="small attacks, a few seconds each")
    parser.add_argument("--stall-seconds", type=float, default=30.0)
    parser.add_argument(
        "--parts", default="files,index,line,http,view,disk,collection", help="comma-separated"
    )
    parser.add_argument("--json", type=Path)
    arguments = parser.parse_args()
    result = main(arguments)
    print(table(result))
    if arguments.json:
        write_json(arguments.json, result)
