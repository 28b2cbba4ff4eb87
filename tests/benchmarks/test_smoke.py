"""Every benchmark runs here on a tiny input, so that none can break unnoticed.

Each script runs as a user runs it (a process of its own, from the repository's root)
with options that make it finish in seconds, and writes ``--json``. The figures mean
nothing at this size; what is checked is that the script ran and that its JSON has the
benchmarks' one shape (``benchmarks/report.py``): ``{"systems": {name: {metric: number}}}``
with our default named ``unified-search (default)…``, our other systems ``…unified-search…``,
and each peer among the systems when its packages are installed (under ``absent``, with
why, otherwise). The scripts mostly wait (on sleeps, subprocesses, disks), so a few run
at a time.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import pytest

from unified_search.config import ENVIRONMENT_PREFIXES

ROOT = Path(__file__).resolve().parents[2]
BENCHMARKS = ROOT / "benchmarks"
BEIR = str(ROOT / "tests" / "fixtures" / "beir-tiny")
#: A guard against a hung script: far beyond a tiny run's time on the busiest machine.
HANG = 600.0
#: Scripts running at once.
AT_ONCE = 3
FANOUT_PROFILES = ("50/100/200 ms", "100/150/200 ms")
#: The web benchmark's scenarios of identical concurrent searches: two, so that the second
#: shows whether each starts cold.
IDENTICAL = (3, 4)
EXTRACTION_PEERS = {
    "jusText (boilerplate removal)": ("justext",),
    "readability-lxml": ("readability",),
    "html2text (LangChain Html2TextTransformer)": ("html2text",),
    "BeautifulSoup get_text": ("bs4",),
}
KB_PEERS = {
    "bm25s": ("bm25s",),
    "langchain-chroma-dense": ("langchain_chroma",),
    "langchain-ensemble": ("langchain_classic", "langchain_chroma"),
    "llamaindex-fusion": ("llama_index.retrievers.bm25",),
}


@dataclass(frozen=True)
class Smoke:
    """One benchmark's tiny run: its options, and every system not ours it must report.

    ``others`` maps each peer or baseline to the modules it needs: present among the
    systems when they are installed, under ``absent`` otherwise. Ours always run, but
    for those in ``on_redis`` and ``on_postgres``, given the local server only when it is up. ``{pages}`` and
    ``{work}`` in ``args`` become a tiny extraction dataset and a scratch folder.
    """

    script: str
    args: tuple[str, ...]
    others: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    on_redis: frozenset[str] = frozenset()
    on_postgres: frozenset[str] = frozenset()


#: The longest runs first: the others fit around them.
SMOKES = [
    Smoke(
        "server_load.py",
        (
            *("--requests", "4", "--concurrency", "2", "--background", "1"),
            *("--timeout", "2", "--no-repeat"),
        ),
    ),
    Smoke(
        "ingest.py",
        ("--files", "9", "--runs", "1", "--work", "{work}"),
        {
            "LangChain DirectoryLoader + splitter + Chroma": (
                "langchain_community",
                "langchain_chroma",
            ),
            "LlamaIndex SimpleDirectoryReader + VectorStoreIndex (Chroma)": (
                "llama_index.core",
                "llama_index.vector_stores.chroma",
            ),
        },
    ),
    Smoke(
        "kb_select.py",
        ("--scifact", BEIR, "--nfcorpus", BEIR, "--cache", "{work}"),  # one corpus, embedded once
        KB_PEERS,
    ),
    Smoke("kb.py", ("--data", BEIR, "--split", "test", "--cache", "{work}"), KB_PEERS),
    Smoke(
        "kb_scale.py",
        ("--chunks", "300", "--queries", "10", "--work", "{work}"),
        {
            "chroma-dense [300 chunks]": ("chromadb",),
            "chroma-server-dense [300 chunks]": ("chromadb",),
            "bm25s [300 chunks]": ("bm25s",),
            "langchain-ensemble [300 chunks]": ("langchain_community", "rank_bm25"),
        },
        on_postgres=frozenset(
            f"unified-search ({mode}) [300 chunks]" for mode in ("server", "server, feedback off")
        ),
    ),
    Smoke(
        "throughput.py",
        (
            *("--searches", "20", "--rounds", "1", "--concurrency", "4"),
            *("--http-requests", "0", "--memory-searches", "40"),
        ),
        {"raw asyncio.gather": ()},
    ),
    Smoke(
        "langchain_fanout.py",
        ("--runs", "1"),
        {
            f"EnsembleRetriever ({call}) [{profile}]": ("langchain_classic",)
            for call in ("sync invoke", "async ainvoke")
            for profile in FANOUT_PROFILES
        },
    ),
    Smoke(
        "llamaindex_fanout.py",
        ("--runs", "1", "--scifact", BEIR),
        {
            "llamaindex QueryFusion use_async=True retrieve": (),
            "llamaindex QueryFusion use_async=True aretrieve": (),
            "llamaindex QueryFusion use_async=False retrieve": (),
            "reference: bm25 title alone": (),
            "reference: bm25 abstract alone": (),
            "reference: bm25 title+abstract alone": (),
        },
    ),
    Smoke(
        "web.py",
        ("--runs", "1", "--identical", "3", "4", "--retry-after", "0.1", "--pages", "{pages}"),
        {
            "sequential calls (3 providers, one by one)": (),
            **{
                f"{peer} [{count} searches]": modules
                for count in IDENTICAL
                for peer, modules in (
                    ("aiocache @cached (plain cached client)", ("aiocache",)),
                    ("aiocache @cached_stampede (its lock)", ("aiocache",)),
                    ("plain client, no cache", ()),
                )
            },
            "plain gather, retries honouring Retry-After": (),
            "extraction: visible text (the reader before)": (),
            **{f"extraction: {name}": modules for name, modules in EXTRACTION_PEERS.items()},
        },
        frozenset(
            f"unified-search (two processes, Redis cache) [{count} searches]" for count in IDENTICAL
        ),
    ),
    Smoke(
        "extraction.py",
        ("--data", "{pages}"),
        {"visible text (the reader before)": (), **EXTRACTION_PEERS},
    ),
    Smoke(
        "citations.py",
        ("--runs", "2", "--corpus", BEIR),
        {"llama-index CitationQueryEngine style [N]": ()},
    ),
    Smoke(
        "core.py",
        ("--runs", "1", "--sizes", "100"),
        {"sequential calls (one after another)": ()},
    ),
]


def installed(modules: tuple[str, ...]) -> bool:
    try:
        return all(find_spec(module) is not None for module in modules)
    except ModuleNotFoundError:  # a parent package missing
        return False


class Runs:
    """The smoke runs, started ``AT_ONCE`` at a time in order, each awaited by its test."""

    def __init__(
        self, root: Path, env: dict[str, str], redis_url: str | None, postgres_url: str | None
    ) -> None:
        self.root = root
        self.env = env
        self.redis_url = redis_url
        self.postgres_url = postgres_url
        self.waiting = list(SMOKES)
        self.running: dict[str, subprocess.Popen[bytes]] = {}
        self.ended: dict[str, int] = {}

    def folder(self, smoke: Smoke) -> Path:
        return self.root / smoke.script.removesuffix(".py")

    def result(self, smoke: Smoke) -> tuple[int, str, Path]:
        """Exit status, standard error and JSON file of ``smoke``'s run, once it has ended."""
        give_up = time.monotonic() + HANG
        while smoke.script not in self.ended:
            assert time.monotonic() < give_up, f"{smoke.script} never returned ({HANG:g} s)"
            self._step()
            time.sleep(0.05)
        folder = self.folder(smoke)
        errors = (folder / "stderr.txt").read_text(errors="replace")
        return self.ended[smoke.script], errors, folder / "figures.json"

    def close(self) -> None:
        for process in self.running.values():
            process.kill()
            process.wait()

    def _step(self) -> None:
        for script, process in list(self.running.items()):
            if process.poll() is not None:
                self.ended[script] = process.returncode
                del self.running[script]
        while self.waiting and len(self.running) < AT_ONCE:
            self._start(self.waiting.pop(0))

    def _start(self, smoke: Smoke) -> None:
        folder = self.folder(smoke)
        (folder / "work").mkdir(parents=True)
        places = {"pages": str(self.root / "pages"), "work": str(folder / "work")}
        args = [arg.format(**places) for arg in smoke.args]
        if smoke.on_redis and self.redis_url:
            args += ["--redis", self.redis_url]
        if smoke.on_postgres and self.postgres_url:
            args += ["--store-url", self.postgres_url]
        command = [sys.executable, str(BENCHMARKS / smoke.script), *args]
        with (folder / "stdout.txt").open("wb") as out, (folder / "stderr.txt").open("wb") as err:
            self.running[smoke.script] = subprocess.Popen(
                [*command, "--json", str(folder / "figures.json")],
                cwd=ROOT,
                env=self.env,
                stdout=out,
                stderr=err,
            )


def tiny_pages(folder: Path) -> Path:
    """Three pages of the extraction dataset: two shapes and one held-out page."""
    source = BENCHMARKS / "data" / "extraction"
    pages = json.loads((source / "pages.json").read_text(encoding="utf-8"))
    held_out = next(page for page in pages if page.get("set") == "held-out")
    tuned = [page for page in pages if page.get("set") != "held-out"]
    chosen = [tuned[0], next(p for p in tuned if p["shape"] != tuned[0]["shape"]), held_out]
    folder.mkdir()
    for page in chosen:
        shutil.copy(source / page["file"], folder / page["file"])
    (folder / "pages.json").write_text(json.dumps(chosen), encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def runs(
    tmp_path_factory: pytest.TempPathFactory,
    redis_url_if_up: str | None,
    postgres_url_if_up: str | None,
) -> Iterator[Runs]:
    root = tmp_path_factory.mktemp("benchmarks")
    tiny_pages(root / "pages")
    env = {k: v for k, v in os.environ.items() if not k.startswith(ENVIRONMENT_PREFIXES)}
    env["UNIFIED_SEARCH_HOME"] = str(root / "home")  # never the user's data folder
    made = Runs(root, env, redis_url_if_up, postgres_url_if_up)
    yield made
    made.close()


def is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


@pytest.mark.parametrize("smoke", SMOKES, ids=[smoke.script for smoke in SMOKES])
def test_the_benchmark_runs_on_a_tiny_input_and_writes_its_figures(
    runs: Runs, smoke: Smoke
) -> None:
    status, errors, written = runs.result(smoke)
    assert status == 0, errors[-3000:]
    document = json.loads(written.read_text(encoding="utf-8"))
    systems, absent = document["systems"], document["absent"]
    assert isinstance(systems, dict) and isinstance(absent, dict)
    for name, metrics in systems.items():
        assert isinstance(metrics, dict) and metrics, name
        assert all(is_number(value) for value in metrics.values()), (name, metrics)
    assert all(isinstance(why, str) and why for why in absent.values()), absent
    assert any(name.startswith("unified-search (default)") for name in systems), list(systems)
    ours = [name for name in list(systems) + list(absent) if "unified-search" in name]
    assert smoke.on_redis | smoke.on_postgres <= set(ours)
    not_run = {name for name in ours if name in absent}
    missing = (set() if runs.redis_url else smoke.on_redis) | (
        set() if runs.postgres_url else smoke.on_postgres
    )
    assert not_run == missing, absent
    others = {name for name in list(systems) + list(absent) if name not in ours}
    assert others == set(smoke.others)
    for name, modules in smoke.others.items():
        assert (name in systems) == installed(modules), (name, absent.get(name))


def test_every_scenario_of_identical_searches_starts_cold(runs: Runs) -> None:
    """Each scenario's identical searches reach the provider once: never 0 (a cache left warm
    by the scenario before) and never more (no single flight)."""
    smoke = next(smoke for smoke in SMOKES if smoke.script == "web.py")
    status, errors, written = runs.result(smoke)
    assert status == 0, errors[-3000:]
    systems = json.loads(written.read_text(encoding="utf-8"))["systems"]
    calls = {
        count: systems[f"unified-search (single flight, memory cache) [{count} searches]"]
        for count in IDENTICAL
    }
    assert {count: row["provider_calls"] for count, row in calls.items()} == dict.fromkeys(
        IDENTICAL, 1
    )
