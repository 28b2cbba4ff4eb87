"""A Chroma server that hangs, trickles or refuses fails the knowledge-base source alone, coded."""

from __future__ import annotations

import asyncio
import importlib
import socket
import threading
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from unified_search.config import SearchConfig
from unified_search.contract.handler import SearchContext
from unified_search.engine.searcher import Searcher
from unified_search.errors import ErrorCode, SearchError
from unified_search.kb.handler import KBHandler
from unified_search.types import SearchRequest, SearchResult, SearchType

#: Far beyond every timeout below: a call still running then is unbounded.
BOUND = 8.0


class FakeChroma:
    """A TCP port that accepts connections and then never answers, or answers one byte a second.

    It counts the connections it accepted. Closing it ends every connection, so no
    worker thread stays blocked once the test is over.
    """

    def __init__(self, *, trickle: bool) -> None:
        self.trickle = trickle
        self.accepted = 0
        self._server = socket.create_server(("127.0.0.1", 0), backlog=64)
        self._open: list[socket.socket] = []
        self._closed = threading.Event()
        self._thread = threading.Thread(target=self._accept, daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.getsockname()[1]}"

    def _accept(self) -> None:
        while not self._closed.is_set():
            try:
                conn, _ = self._server.accept()
            except OSError:
                return
            self.accepted += 1
            self._open.append(conn)
            if self.trickle:
                threading.Thread(target=self._drip, args=(conn,), daemon=True).start()

    def _drip(self, conn: socket.socket) -> None:
        head = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n"
        try:
            conn.recv(65536)
            conn.sendall(head)
            while not self._closed.wait(1.0):
                conn.sendall(b" ")
        except OSError:
            return

    def close(self) -> None:
        self._closed.set()
        self._server.close()
        for conn in self._open:
            conn.close()


# Async fixtures: closed before the test's event loop waits for its worker threads.
@pytest.fixture(params=["hung", "one byte a second"])
async def chroma(request: pytest.FixtureRequest) -> AsyncIterator[FakeChroma]:
    fake = FakeChroma(trickle=request.param != "hung")
    yield fake
    fake.close()


@pytest.fixture
async def hung_chroma() -> AsyncIterator[FakeChroma]:
    fake = FakeChroma(trickle=False)
    yield fake
    fake.close()


def refused_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}"  # nothing listens there any more


class Web:
    """A web source that answers at once."""

    async def asearch(self, request: SearchRequest, ctx: SearchContext) -> SearchResult:
        return SearchResult(type=SearchType.WEB, query=request.query, items=[], total=0)


class LoopWatch:
    """Tick every 10 ms and remember the longest the event loop made a tick wait."""

    def __init__(self) -> None:
        self.longest = 0.0

    async def run(self) -> None:
        while True:
            started = time.perf_counter()
            await asyncio.sleep(0.01)
            self.longest = max(self.longest, time.perf_counter() - started - 0.01)


def server_config(tmp_path: Path, url: str, **kb: Any) -> SearchConfig:
    return SearchConfig.load(
        profile={
            "kb": {"chroma_url": url, "data_dir": str(tmp_path / "side"), **kb},
            "options": {"timeout": 1.5},
        }
    )


async def test_a_stalled_chroma_server_fails_only_the_kb_source_within_the_search_timeout(
    chroma: FakeChroma, tmp_path: Path
) -> None:
    """Before: the handler was built on the event loop with no timeout, freezing every search."""
    config = server_config(tmp_path, chroma.url, chroma_timeout=60)  # the search timeout decides
    watch = LoopWatch()
    ticking = asyncio.ensure_future(watch.run())
    async with Searcher(config, handlers={"web": Web()}) as searcher:
        started = time.perf_counter()
        responses = await asyncio.wait_for(
            asyncio.gather(
                *(
                    searcher.aall([{"query": f"q{i}", "type": "kb"}, {"query": "q", "type": "web"}])
                    for i in range(5)
                )
            ),
            BOUND,
        )
        elapsed = time.perf_counter() - started
    ticking.cancel()
    for response in responses:
        kb, web = response.results
        assert kb is not None and kb.error is not None and kb.error.code is ErrorCode.TIMEOUT
        assert web is not None and web.error is None
    assert elapsed < 1.5 + 1.0
    assert watch.longest < 0.5, f"the event loop stalled for {watch.longest:.2f} s"
    assert chroma.accepted == 1  # five searches shared one connection attempt (one thread)


async def test_a_hung_chroma_server_times_out_at_its_own_timeout(
    hung_chroma: FakeChroma, tmp_path: Path
) -> None:
    config = server_config(tmp_path, hung_chroma.url, chroma_timeout=0.5)
    importlib.import_module("unified_search.kb.remote")  # chromadb's import is not timed
    started = time.perf_counter()
    with pytest.raises(SearchError) as caught:
        await asyncio.wait_for(asyncio.to_thread(KBHandler.from_config, config), BOUND)
    assert time.perf_counter() - started < 0.5 + 1.0
    assert caught.value.code is ErrorCode.TIMEOUT
    assert "kb.chroma_timeout" in caught.value.message and caught.value.provider == "kb"
    async with Searcher(config, handlers={"web": Web()}) as searcher:
        response = await asyncio.wait_for(searcher.asearch({"query": "q", "type": "kb"}), BOUND)
    error = response.results[0].error
    assert error is not None and error.code is ErrorCode.TIMEOUT
    assert "kb.chroma_timeout" in error.message  # Chroma's own bound, before the search's


async def test_a_refused_chroma_server_is_a_network_error(tmp_path: Path) -> None:
    """Before: chromadb's ValueError("Could not connect ...") became INVALID_QUERY."""
    config = server_config(tmp_path, refused_url())
    with pytest.raises(SearchError) as caught:
        await asyncio.to_thread(KBHandler.from_config, config)
    assert caught.value.code is ErrorCode.NETWORK_ERROR
    assert "cannot reach the Chroma server" in caught.value.message
    async with Searcher(config) as searcher:
        response = await searcher.asearch({"query": "q", "type": "kb"})
    error = response.results[0].error
    assert error is not None and error.code is ErrorCode.NETWORK_ERROR


async def test_a_chroma_server_gone_after_connecting_is_a_network_error(
    chroma_process: tuple[str, Any], tmp_path: Path, make_embedding: Any
) -> None:
    """Opening or querying a collection on a server that went away: NETWORK_ERROR.

    Before: opening said "unknown collection" (INVALID_QUERY), querying UNKNOWN.
    """
    url, process = chroma_process
    config = server_config(tmp_path, url, collections=["remote"])
    opened = await asyncio.to_thread(KBHandler.from_config, config, embedding=make_embedding())
    unopened = await asyncio.to_thread(KBHandler.from_config, config, embedding=make_embedding())
    await opened.aadd_documents("remote", ["Remote Chroma servers hold vectors."])
    # A filter sends the query to Chroma (small collections are otherwise scanned locally).
    where = {"document_id": {"$ne": "none"}}
    request = SearchRequest(query="remote vectors", type="kb", options={"where": where})
    ctx = SearchContext(config=config, request_id="r")
    assert (await opened.asearch(request, ctx)).items
    process.terminate()
    process.wait(timeout=10)
    for kb in (opened, unopened):
        with pytest.raises(SearchError) as caught:
            await asyncio.wait_for(kb.asearch(request, ctx), BOUND)
        assert caught.value.code is ErrorCode.NETWORK_ERROR, caught.value.message
        assert "cannot reach the Chroma server" in caught.value.message
        await kb.aclose()


async def test_building_the_embedded_knowledge_base_never_blocks_the_event_loop(
    tmp_path: Path, make_embedding: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Opening embedded Chroma and loading the model (a slow one here) happen in threads."""
    config = SearchConfig.load(
        profile={"kb": {"data_dir": str(tmp_path), "collections": ["notes"]}}
    )
    indexer = await asyncio.to_thread(KBHandler.from_config, config, embedding=make_embedding())
    await indexer.aadd_documents("notes", ["Glaciers melt in summer."])
    await indexer.aclose()

    def slow_model(settings: Any) -> Any:
        time.sleep(1.0)  # what loading an ONNX model costs
        return make_embedding()

    monkeypatch.setattr("unified_search.kb.handler.embedding_from_config", slow_model)
    watch = LoopWatch()
    ticking = asyncio.ensure_future(watch.run())
    async with Searcher(config) as searcher:
        response = await searcher.asearch({"query": "glaciers", "type": "kb"})
    ticking.cancel()
    assert response.results[0].error is None and response.items
    assert watch.longest < 0.5, f"the event loop stalled for {watch.longest:.2f} s"


async def test_a_slow_build_is_kept_once_done_even_when_every_search_gave_up(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The searches time out; the handler they started is kept, not built again by the next."""
    built: list[SearchType] = []

    def slow_build(type_: SearchType, config: Any, http: Any) -> Web:
        time.sleep(1.0)  # connecting to a slow server
        built.append(type_)
        return Web()

    monkeypatch.setattr("unified_search.engine.searcher._builtin_handler", slow_build)
    config = SearchConfig.load(profile={"options": {"timeout": 0.3}})
    async with Searcher(config) as searcher:
        first = await searcher.asearch({"query": "q", "type": "web"})
        await asyncio.sleep(1.2)
        second = await searcher.asearch({"query": "q", "type": "web"})
    error = first.results[0].error
    assert error is not None and error.code is ErrorCode.TIMEOUT
    assert second.results[0].error is None
    assert built == [SearchType.WEB]
