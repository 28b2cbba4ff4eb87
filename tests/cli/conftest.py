"""Run the real command line in a subprocess, with its data folder in a temporary directory."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest


@dataclass(frozen=True)
class Run:
    code: int
    out: str
    err: str


Cli = Callable[..., Run]


#: Variables that would let a developer's own setup (keys, config file) into a run.
_PRIVATE = ("UNIFIED_SEARCH_", "TAVILY_", "SERPER_", "SERPAPI_", "BRAVE_", "EXA_", "SEARXNG_")


def run_cli(home: Path, *args: str, env: Mapping[str, str] | None = None) -> Run:
    """``python -m unified_search.cli ARGS`` with ``UNIFIED_SEARCH_HOME=home`` and no API keys."""
    inherited = {k: v for k, v in os.environ.items() if not k.startswith(_PRIVATE)}
    environ = {**inherited, "UNIFIED_SEARCH_HOME": str(home), "COLUMNS": "200", **(env or {})}
    done = subprocess.run(
        [sys.executable, "-m", "unified_search.cli", *args],
        capture_output=True,
        text=True,
        env=environ,
        timeout=300,
        check=False,
    )
    return Run(done.returncode, done.stdout, done.stderr)


@pytest.fixture
def cli(tmp_path: Path) -> Cli:
    """A runner whose data folder is this test's own temporary directory."""
    home = tmp_path / "home"

    def run(*args: str, env: Mapping[str, str] | None = None) -> Run:
        return run_cli(home, *args, env=env)

    return run


@dataclass(frozen=True)
class DemoRuns:
    first: Run
    second: Run
    home: Path

    def run(self, *args: str) -> Run:
        """Run another command in the demo's data folder."""
        return run_cli(self.home, *args)


@pytest.fixture(scope="module")
def demo_runs(tmp_path_factory: pytest.TempPathFactory) -> DemoRuns:
    """``unified-search demo`` run twice in one fresh data folder (embeds the samples once)."""
    home = tmp_path_factory.mktemp("demo-home")
    first = run_cli(home, "demo")
    second = run_cli(home, "demo")
    return DemoRuns(first, second, home)


@pytest.fixture
def shop_db(tmp_path: Path) -> str:
    """The sample shop database as a SQLite URL."""
    from unified_search.samples.shop import build_shop_database

    return f"sqlite:///{build_shop_database(tmp_path / 'shop.db')}"


@dataclass
class SearxStub:
    """A local SearXNG stand-in: three pages for every query; it remembers what it was asked."""

    url: str
    asked: list[dict[str, str]]


@pytest.fixture
def searx() -> Iterator[SearxStub]:
    import json
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
    from urllib.parse import parse_qsl, urlsplit

    asked: list[dict[str, str]] = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            params = dict(parse_qsl(urlsplit(self.path).query))
            asked.append(params)
            words = params.get("q", "")
            pages = [
                ("https://plain.example.com/a", 9.0),
                ("https://boosted.example.org/b", 5.0),
                ("https://other.example.net/c", 3.0),
            ]
            results = [
                {"url": url, "title": f"{words} {n}", "content": f"All about {words}.",
                 "engines": ["duckduckgo"], "score": score}
                for n, (url, score) in enumerate(pages)
            ]  # fmt: skip
            body = json.dumps({"query": words, "results": results}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield SearxStub(f"http://127.0.0.1:{server.server_address[1]}", asked)
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
