"""The HTTP attacks of ``benchmarks/hostile.py``: stalled connections beside searching clients.

The real application over the bundled shop database runs under uvicorn in a
process of its own, behind our protocol (``DeadlineProtocol``) or uvicorn's own.
200 connections stall (100 send nothing, 100 drip a header byte every 5 s) while 50
clients search: their p50/p99, and how many stalled connections the server closed.
The same server then answers Unicode digits in a reference index and an invisible
query (status codes). Each server runs twice, in the order A B B A.
"""

from __future__ import annotations

import asyncio
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

BENCHMARKS = Path(__file__).resolve().parent
OURS = "unified-search (default)"
UVICORN = "uvicorn (httptools, no deadlines)"
Figures = dict[str, float]


def app() -> Any:
    """The served application: the shop database, records in a store of the benchmark's home."""
    from unified_search.config.search import SearchConfig
    from unified_search.engine.searcher import Searcher
    from unified_search.records.store import SearchStore
    from unified_search.server.app import create_app

    home = Path(os.environ["UNIFIED_SEARCH_HOME"])
    config = SearchConfig.load(profile={"db": {"url": f"sqlite:///{home / 'shop.db'}"}})
    store = SearchStore(f"sqlite:///{home / 'records.sqlite3'}")
    return create_app(Searcher(config, store=store), store)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def serve(home: Path, protocol: str, port: int, config: Path) -> subprocess.Popen[bytes]:
    code = (
        f"import sys, uvicorn; sys.path.insert(0, {str(BENCHMARKS)!r});"
        f"uvicorn.run('hostile_http:app', factory=True, port={port}, http={protocol!r},"
        " log_level='critical')"
    )
    env = {**os.environ, "UNIFIED_SEARCH_HOME": str(home), "UNIFIED_SEARCH_CONFIG": str(config)}
    return subprocess.Popen([sys.executable, "-c", code], env=env)


async def stall(port: int, silent: bool, stop: float) -> bool:
    """Hold a connection without finishing its headers until ``stop``; tell whether it was cut."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    head = b"GET /api/store HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Drip: " + b"a" * 10_000
    try:
        for byte in head:
            if not silent:
                writer.write(bytes([byte]))
            wait = stop - time.monotonic()
            if wait <= 0:
                return False
            try:
                await asyncio.wait_for(reader.read(1 << 16), min(5.0, wait))
            except TimeoutError:
                continue
            return True  # the server answered (408) or closed
        return False
    except OSError:
        return True
    finally:
        writer.close()


async def search_for(client: httpx.AsyncClient, stop: float, times: list[float]) -> None:
    questions = ["wireless headphones under $100", "laptops by price", "monitors in stock"]
    n = 0
    while time.monotonic() < stop:
        started = time.perf_counter()
        body = {"query": questions[n % 3], "types": ["db"]}
        (await client.post("/api/search", json=body)).raise_for_status()
        times.append((time.perf_counter() - started) * 1000)
        n += 1


async def under_stall(port: int, stalled: int, clients: int, seconds: float) -> Figures:
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=120) as client:
        for _ in range(600):
            try:
                await client.get("/api/store")
                break
            except httpx.TransportError:
                await asyncio.sleep(0.1)
        stop = time.monotonic() + seconds
        holds = [stall(port, i % 2 == 0, stop) for i in range(stalled)]
        times: list[float] = []
        searches = [search_for(client, stop, times) for _ in range(clients)]
        cut, _ = await asyncio.gather(asyncio.gather(*holds), asyncio.gather(*searches))
        digits = [
            (await client.get(f"/api/chat/c/request/r/reference/{raw}")).status_code
            for raw in ("¹", "①", "١", "１")
        ]
        invisible = await client.post("/api/search", json={"query": "\u200b\ufeff"})
    return {
        "stall_searches": float(len(times)),
        "stall_p50_ms": round(statistics.median(times), 1),
        "stall_p99_ms": round(statistics.quantiles(times, n=100)[98], 1),
        "stalled_connections_closed": float(sum(cut)),
        "stalled_connections": float(stalled),
        # The same application behind both protocols: these are ours, whatever serves them.
        "unicode_digit_indices_answered_4xx": float(sum(400 <= s < 500 for s in digits)),
        "unicode_digit_indices_answered_500": float(sum(s >= 500 for s in digits)),
        "invisible_query_status": float(invisible.status_code),
    }


def http(folder: Path, smoke: bool, stall_seconds: float, systems: dict[str, Figures]) -> None:
    """Each server twice, in the order A B B A, so a machine busier in one half favours neither.

    Figures are the mean of the two runs.
    """
    from unified_search.samples.shop import build_shop_database

    stalled, clients = (20, 5) if smoke else (200, 50)
    config = folder / "server.yml"  # the default deadlines; shorter ones for a smoke run
    config.write_text("server:\n  header_timeout: 1\n" if smoke else "server: {}\n")
    protocols = {OURS: "unified_search.server.deadlines:DeadlineProtocol", UVICORN: "httptools"}
    runs: dict[str, list[Figures]] = {OURS: [], UVICORN: []}
    for label in (OURS, UVICORN, UVICORN, OURS):
        home = folder / f"{label.split()[0]}-{len(runs[label])}"
        home.mkdir()
        build_shop_database(home / "shop.db")
        port = free_port()
        server = serve(home, protocols[label], port, config)
        try:
            runs[label].append(asyncio.run(under_stall(port, stalled, clients, stall_seconds)))
        finally:
            server.terminate()
            server.wait(30)
    for label, figures in runs.items():
        mean = {key: round(statistics.mean(f[key] for f in figures), 1) for key in figures[0]}
        if label == UVICORN:  # the same application: the rest is ours whatever serves it
            mean = {key: value for key, value in mean.items() if key.startswith("stall")}
        systems.setdefault(label, {}).update(mean)
