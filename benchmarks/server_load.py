"""The HTTP API under load, healthy and with each of its dependencies hung in turn.

The real application (``unified_search.server.app.create_app``, as ``unified-search
serve`` builds it) runs under uvicorn in its own process, one worker, on the
embedded defaults: the bundled help centre in embedded Chroma, the bundled shop
database, and a local stand-in for a SearXNG instance as the web provider (no
network). The same load is then sent to five servers in turn:

- ``unified-search (default)``: everything healthy, records in SQLite;
- ``unified-search (hung chroma)``: ``kb.chroma_url`` points at a port that
  accepts connections and never answers;
- ``unified-search (postgresql store)``: records in PostgreSQL through a relay;
- ``unified-search (hung postgresql store)``: the same, the relay frozen after
  warm-up (connections stay open, nothing moves: a hung server);
- ``unified-search (hung redis)``: the web cache is Redis at a port that never answers;
- ``unified-search (default, again)``: healthy once more, last (left out with ``--no-repeat``).

The load: ``--requests`` (1,000) measured searches of the database and the web
(``types: ["db", "web"]``) at ``--concurrency`` (50), while ``--background`` (10)
other clients keep searching the knowledge base alone. The measured clients
never need the hung Chroma; in the PostgreSQL and Redis runs every one of them
meets the hung dependency (each search is recorded; each web search asks the
cache first). Figures: completed requests, p50/p99/max latency, the ratio of
p99 to the healthy runs' (the lower of the two, so the ratio errs against us),
error codes in the answers, the background clients' answers, the store failures
the server logged, and its RSS and open descriptors before and after the load.

``--timeout`` sets every server's search timeout (``options.timeout``; the configured
default without it), which bounds how long a hung dependency holds a search.

Usage: python benchmarks/server_load.py [--requests N] [--concurrency C]
       [--background B] [--timeout S] [--no-repeat] [--postgres URL] [--json PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import psutil
from report import write_json
from throughput import free_port, prepare_home, wait_until_up

BENCHMARKS = Path(__file__).resolve().parent
#: Read by ``app`` in the server process: the record store's URL and table prefix.
STORE_ENV, PREFIX_ENV = "SERVER_LOAD_STORE", "SERVER_LOAD_PREFIX"
#: Questions the shop database answers (and the web, in the stand-in), and help-centre ones.
SHOP = [
    "wireless headphones under $100",
    "laptops by price",
    "delivered orders",
    "monitors in stock",
]
HELP = [
    "return policy for opened earbuds",
    "how do I reset my Aurora headphones",
    "warranty for smart home devices",
    "delivery times to Europe",
]
Figures = dict[str, float]
#: The healthy runs; the lower of their p99s is the one the others are compared with.
HEALTHY = ("unified-search (default)", "unified-search (default, again)")


def app() -> Any:
    """The server process's application: ``unified-search serve``'s, with a chosen store."""
    from unified_search.cli.settings import load_config
    from unified_search.engine.searcher import Searcher
    from unified_search.records.store import SearchStore
    from unified_search.server.app import create_app

    store = SearchStore(os.environ.get(STORE_ENV) or None, table_prefix=os.environ[PREFIX_ENV])
    searcher = Searcher(load_config(None), store=store)
    application = create_app(searcher, store)

    @contextlib.asynccontextmanager
    async def lifespan(_app: Any) -> Any:
        try:
            yield
        finally:
            await searcher.aclose()

    application.router.lifespan_context = lifespan
    return application


# -- stand-ins for the dependencies ---------------------------------------------------------


class _SearXNG(BaseHTTPRequestHandler):
    """Answers every search at once with five results, as a SearXNG instance's JSON API does."""

    def do_GET(self) -> None:
        results = [
            {
                "url": f"https://example.com/{n}/{self.path.__hash__() % 997}",
                "title": f"Result {n}",
                "content": "A page about headphones, returns and smart home devices.",
                "score": 5.0 - n,
                "engine": "stand-in",
            }
            for n in range(5)
        ]
        body = json.dumps({"query": "q", "results": results}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        """Quiet."""


@contextlib.contextmanager
def searxng() -> Iterator[str]:
    """A local SearXNG stand-in on a thread; yields its URL."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _SearXNG)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@contextlib.contextmanager
def hung_port() -> Iterator[int]:
    """A port that accepts connections and never answers; yields the port."""
    listener = socket.create_server(("127.0.0.1", 0), backlog=512)
    held: list[socket.socket] = []

    def accept() -> None:
        with contextlib.suppress(OSError):
            while True:
                held.append(listener.accept()[0])

    threading.Thread(target=accept, daemon=True).start()
    try:
        yield int(listener.getsockname()[1])
    finally:
        listener.close()
        for conn in held:
            conn.close()


class FreezingRelay:
    """A TCP relay to ``target`` that can freeze: then nothing moves and no one is answered.

    Frozen, it keeps every connection open without passing a byte either way, and
    accepts new connections without answering: what a hung database looks like
    from the client's side.
    """

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.port = free_port()
        self._frozen = threading.Event()
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        threading.Thread(target=self._run, daemon=True).start()
        self._ready.wait(10)

    def freeze(self) -> None:
        self._frozen.set()

    def close(self) -> None:
        """Stop relaying; the held connections close with the process."""
        self._loop.call_soon_threadsafe(self._loop.stop)

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        with contextlib.suppress(RuntimeError):  # stopped by ``close``
            self._loop.run_until_complete(self._serve())
        held = asyncio.all_tasks(self._loop)
        for task in held:
            task.cancel()
        self._loop.run_until_complete(asyncio.gather(*held, return_exceptions=True))
        self._loop.close()

    async def _serve(self) -> None:
        server = await asyncio.start_server(self._client, "127.0.0.1", self.port, backlog=512)
        self._ready.set()
        async with server:
            await server.serve_forever()

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self._frozen.is_set():
            await asyncio.Event().wait()  # hold the connection, say nothing
        up_reader, up_writer = await asyncio.open_connection(*self.target)
        await asyncio.gather(
            self._pipe(reader, up_writer), self._pipe(up_reader, writer), return_exceptions=True
        )
        for end in (writer, up_writer):
            end.close()

    async def _pipe(self, source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
        while data := await source.read(65536):
            if self._frozen.is_set():
                await asyncio.Event().wait()
            sink.write(data)
            await sink.drain()


# -- the server and the load ------------------------------------------------------------------


def write_config(
    home: Path, name: str, searxng_url: str, timeout: float | None, kb: str = "", web: str = ""
) -> Path:
    """The search.yml of one run: the bundled samples, the SearXNG stand-in, extra lines."""
    from unified_search.samples.knowledge import SAMPLE_COLLECTION

    lines = [
        *(["options:", f"  timeout: {timeout:g}"] if timeout else []),
        "kb:",
        f"  collections: [{SAMPLE_COLLECTION}]",
        *kb.splitlines(),
        "db:",
        f"  url: sqlite:///{home / 'demo' / 'shop.db'}",
        "web:",
        "  providers: [searxng]",
        "  searxng:",
        f"    base_url: {searxng_url}",
        *web.splitlines(),
    ]
    path = home / f"{name}.yml"
    path.write_text("\n".join(lines) + "\n")
    return path


@contextlib.contextmanager
def server(
    home: Path, config: Path, store: str | None, prefix: str, log: Path
) -> Iterator[tuple[str, int]]:
    """Run the API under uvicorn in its own process (its output to ``log``); yields URL and PID."""
    port = free_port()
    env = {
        **os.environ,
        "UNIFIED_SEARCH_HOME": str(home),
        "UNIFIED_SEARCH_CONFIG": str(config),
        STORE_ENV: store or "",
        PREFIX_ENV: prefix,
    }
    command = [sys.executable, "-m", "uvicorn", "server_load:app", "--factory"]
    command += ["--app-dir", str(BENCHMARKS), "--port", str(port), "--log-level", "warning"]
    output = log.open("w")
    process = subprocess.Popen(command, env=env, stdout=output, stderr=subprocess.STDOUT)
    try:
        yield f"http://127.0.0.1:{port}", process.pid
    finally:
        process.terminate()
        try:
            process.wait(60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        output.close()


def usage(pid: int) -> Figures:
    """The server process's resident memory (MiB) and open descriptors."""
    process = psutil.Process(pid)
    return {"rss_mib": round(process.memory_info().rss / 2**20, 1), "fds": process.num_fds()}


class Outcomes:
    """Latencies of every answer, HTTP statuses other than 200, error codes in the answers.

    ``completed`` counts 200 answers; a search whose every source failed is answered
    with a JSON error (``http_502``), timed like the others; ``no_answer_<error>``
    counts requests the server never answered, by the client's error.
    """

    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.outcomes: collections.Counter[str] = collections.Counter()

    async def send(self, client: httpx.AsyncClient, body: dict[str, Any]) -> None:
        started = time.perf_counter()
        try:
            answer = await client.post("/api/search", json=body)
        except httpx.HTTPError as exc:
            self.outcomes[f"no_answer_{type(exc).__name__}"] += 1
            return
        self.latencies.append((time.perf_counter() - started) * 1000)
        content = answer.json()
        if answer.status_code == 200:
            self.outcomes["completed"] += 1
            self.outcomes.update(error["code"] for error in content.get("errors", []))
        else:
            self.outcomes[f"http_{answer.status_code}"] += 1
            self.outcomes[str(content.get("code", "?"))] += 1

    def figures(self, prefix: str = "") -> Figures:
        ordered = sorted(self.latencies) or [float("nan")]
        figures = {
            f"{prefix}completed": 0,
            f"{prefix}answered": len(self.latencies),
            f"{prefix}p50_ms": round(statistics.median(ordered), 1),
            f"{prefix}p99_ms": round(ordered[max(0, int(len(ordered) * 0.99) - 1)], 1),
            f"{prefix}max_ms": round(ordered[-1], 1),
        }
        return figures | {f"{prefix}{key}": n for key, n in sorted(self.outcomes.items())}


def measured_body(n: int) -> dict[str, Any]:
    return {"query": SHOP[n % len(SHOP)], "types": ["db", "web"]}


def background_body(n: int) -> dict[str, Any]:
    return {"query": HELP[n % len(HELP)], "types": ["kb"]}


async def load(client: httpx.AsyncClient, args: argparse.Namespace) -> tuple[Outcomes, Outcomes]:
    """The measured requests at ``concurrency``, with ``background`` kb clients meanwhile."""
    measured, background = Outcomes(), Outcomes()
    numbers = iter(range(args.requests))
    done = asyncio.Event()

    async def client_loop() -> None:
        for n in numbers:
            await measured.send(client, measured_body(n))

    async def background_loop(k: int) -> None:
        n = k
        while not done.is_set():
            await background.send(client, background_body(n))
            n += args.background

    others = [asyncio.ensure_future(background_loop(k)) for k in range(args.background)]
    await asyncio.gather(*(client_loop() for _ in range(args.concurrency)))
    done.set()
    await asyncio.gather(*others)
    return measured, background


async def run(
    args: argparse.Namespace,
    home: Path,
    config: Path,
    *,
    store: str | None = None,
    after_warmup: Any = None,
) -> Figures:
    """Start a server, warm it up, call ``after_warmup``, then measure the load."""
    prefix = f"sl{uuid.uuid4().hex[:8]}_"
    log = home / f"{config.stem}-{prefix}.log"
    with server(home, config, store, prefix, log) as (url, pid):
        limits = httpx.Limits(max_connections=args.concurrency + args.background + 10)
        async with httpx.AsyncClient(base_url=url, timeout=300, limits=limits) as client:
            await wait_until_up(client)
            warm = Outcomes()
            await asyncio.gather(
                *(warm.send(client, measured_body(n)) for n in range(args.concurrency)),
                *(warm.send(client, background_body(n)) for n in range(args.background)),
            )
            if after_warmup is not None:
                after_warmup()
            before = usage(pid)
            started = time.perf_counter()
            measured, background = await load(client, args)
            seconds = time.perf_counter() - started
            after = usage(pid)
    if store:
        drop_tables(args.postgres, prefix)
    logged = log.read_text(errors="replace")
    return {
        **measured.figures(),
        "requests_per_s": round(len(measured.latencies) / seconds, 1),
        **background.figures("kb_clients_"),
        "rss_before_mib": before["rss_mib"],
        "rss_after_mib": after["rss_mib"],
        "fds_before": before["fds"],
        "fds_after": after["fds"],
        "store_failures_logged": logged.count("could not store the search record"),
    }


def drop_tables(url: str, prefix: str) -> None:
    from unified_search.records.store import SearchStore

    store = SearchStore(url, table_prefix=prefix)
    store.metadata.drop_all(store.engine)
    store.close()


async def main(args: argparse.Namespace) -> dict[str, Figures]:
    systems: dict[str, Figures] = {}
    with tempfile.TemporaryDirectory() as name, searxng() as stand_in:
        home = Path(name) / "home"
        prepare_home(home)  # the bundled help centre indexed, the shop database built
        default = write_config(home, "default", stand_in, args.timeout)
        systems["unified-search (default)"] = await run(args, home, default)
        with hung_port() as port:
            config = write_config(
                home, "chroma", stand_in, args.timeout, kb=f"  chroma_url: http://127.0.0.1:{port}"
            )
            systems["unified-search (hung chroma)"] = await run(args, home, config)
        if args.postgres:
            from sqlalchemy.engine import make_url

            target = make_url(args.postgres)
            systems["unified-search (postgresql store)"] = await run(
                args, home, default, store=args.postgres
            )
            relay = FreezingRelay((target.host or "127.0.0.1", target.port or 5432))
            relayed = target.set(host="127.0.0.1", port=relay.port)
            systems["unified-search (hung postgresql store)"] = await run(
                args,
                home,
                default,
                store=relayed.render_as_string(hide_password=False),
                after_warmup=relay.freeze,
            )
            relay.close()
        with hung_port() as port:
            cache = f"  cache:\n    backend: redis\n    url: redis://127.0.0.1:{port}/0"
            config = write_config(home, "redis", stand_in, args.timeout, web=cache)
            systems["unified-search (hung redis)"] = await run(args, home, config)
        if not args.no_repeat:
            # Healthy again: a shared machine's noise shows in the gap between the two runs.
            systems["unified-search (default, again)"] = await run(args, home, default)
    healthy = min(systems[name]["p99_ms"] for name in HEALTHY if name in systems)
    for figures in systems.values():
        figures["p99_vs_default"] = round(figures["p99_ms"] / healthy, 2)
    return systems


def table(systems: dict[str, Figures]) -> str:
    columns = [
        ("completed", "done"),
        ("answered", "answered"),
        ("p50_ms", "p50 ms"),
        ("p99_ms", "p99 ms"),
        ("p99_vs_default", "p99/dflt"),
        ("kb_clients_answered", "kb answrd"),
        ("kb_clients_p50_ms", "kb p50 ms"),
        ("rss_before_mib", "RSS before"),
        ("rss_after_mib", "RSS after"),
        ("fds_before", "fds before"),
        ("fds_after", "fds after"),
        ("store_failures_logged", "store errs"),
    ]
    lines = [f"{'system':<42}" + "".join(f"{label:>11}" for _, label in columns)]
    for name, figures in systems.items():
        cells = "".join(f"{figures.get(key, float('nan')):>11g}" for key, _ in columns)
        lines.append(f"{name:<42}{cells}")
    lines.append("outcomes other than a clean 200 (measured clients; kb clients):")
    kb = "kb_clients_"
    for name, figures in systems.items():
        codes = [f"{k}={v:g}" for k, v in figures.items() if _outcome(k)]
        kbs = [f"{k[len(kb) :]}={v:g}" for k, v in figures.items() if _outcome(k, kb)]
        lines.append(f"  {name}: {', '.join(codes) or 'none'}; {', '.join(kbs) or 'none'}")
    return "\n".join(lines)


def _outcome(key: str, prefix: str = "") -> bool:
    """An error code or an HTTP status among the figures (with ``prefix``)."""
    if not key.startswith(prefix):
        return False
    rest = key[len(prefix) :]
    return rest.isupper() or rest.startswith(("http_", "no_answer_"))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=1_000)
    parser.add_argument("--concurrency", type=int, default=50)
    parser.add_argument("--background", type=int, default=10, help="kb clients meanwhile")
    parser.add_argument("--timeout", type=float, help="every server's options.timeout (seconds)")
    parser.add_argument(
        "--no-repeat", action="store_true", help="leave out the last run (healthy, again)"
    )
    parser.add_argument("--postgres", help="PostgreSQL URL of the store runs (skipped without)")
    parser.add_argument("--json", type=Path)
    arguments = parser.parse_args()
    result = asyncio.run(main(arguments))
    print(
        f"{arguments.requests} requests (db + web) at concurrency {arguments.concurrency}, "
        f"{arguments.background} kb clients meanwhile"
    )
    print(table(result))
    if arguments.json:
        write_json(arguments.json, result)
