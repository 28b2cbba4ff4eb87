"""A Chroma server that hangs, trickles or refuses fails the knowledge-base source alone, coded."""

from __future__ import annotations

import asyncio
import importlib
import socket
import threading
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


class LoopProbe:
    """Tells, from a thread held by slow work, whether the event loop runs meanwhile.

    It asks the loop to run a callback and waits for it: had the slow work held the
    loop, the callback could not run before the hang guard's seconds were out.
    """

    def __init__(self, seconds: float) -> None:
        self.loop = asyncio.get_running_loop()
        self.seconds = seconds
        self.answers: list[bool] = []

    def __call__(self) -> bool:
        ran = threading.Event()
        self.loop.call_soon_threadsafe(ran.set)
        self.answers.append(ran.wait(self.seconds))
        return self.answers[-1]


class FakeChroma:
    """A TCP port that accepts connections and then never answers, or answers one byte a second.

    It counts the connections it accepted and, while the first is held, probes the
    event loop (``probe``). Closing it ends every connection, so no worker thread
    stays blocked once the test is over.
    """

    def __init__(self, *, trickle: bool, probe: LoopProbe) -> None:
        self.trickle = trickle
        self.probe = probe
        self.probed = threading.Event()
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
            if self.accepted == 1:
                if not self.probe():  # the client now waits for an answer
                    conn.close()  # a stalled loop: free the client so that the test can fail
                self.probed.set()
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
async def chroma(request: pytest.FixtureRequest, hang_guard: Any) -> AsyncIterator[FakeChroma]:
    fake = FakeChroma(trickle=request.param != "hung", probe=LoopProbe(hang_guard.seconds))
    yield fake
    fake.close()


@pytest.fixture
async def hung_chroma(hang_guard: Any) -> AsyncIterator[FakeChroma]:
    fake = FakeChroma(trickle=False, probe=LoopProbe(hang_guard.seconds))
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


def server_config(tmp_path: Path, url: str, **kb: Any) -> SearchConfig:
    return SearchConfig.load(
        profile={
            "kb": {"chroma_url": url, "data_dir": str(tmp_path / "side"), **kb},
            "options": {"timeout": 1.5},
        }
    )


async def test_a_stalled_chroma_server_fails_only_the_kb_source_within_the_search_timeout(
    chroma: FakeChroma, tmp_path: Path, hang_guard: Any
) -> None:
    """Before: the handler was built on the event loop with no timeout, freezing every search."""
    config = server_config(tmp_path, chroma.url, chroma_timeout=60)  # the search timeout decides
    importlib.import_module("unified_search.kb.remote")  # chromadb loaded: the build connects
    async with Searcher(config, handlers={"web": Web()}) as searcher:
        responses = await hang_guard(
            asyncio.gather(
                *(
                    searcher.aall([{"query": f"q{i}", "type": "kb"}, {"query": "q", "type": "web"}])
                    for i in range(5)
                )
            ),
            "five searches with Chroma stalled",
        )
    for response in responses:
        kb, web = response.results
        assert kb is not None and kb.error is not None and kb.error.code is ErrorCode.TIMEOUT
        assert kb.error.message == "no answer within 1.5 s"  # the search's timeout, not Chroma's
        assert web is not None and web.error is None
    # On a busy machine the build may reach Chroma only after the searches gave up.
    connected = await asyncio.to_thread(chroma.probed.wait, hang_guard.seconds)
    assert connected, hang_guard.message("the connection to Chroma")
    assert chroma.probe.answers == [True], "the event loop stalled while Chroma held a connection"
    assert chroma.accepted == 1  # five searches shared one connection attempt (one thread)


async def test_a_hung_chroma_server_times_out_at_its_own_timeout(
    hung_chroma: FakeChroma, tmp_path: Path, hang_guard: Any
) -> None:
    config = server_config(tmp_path, hung_chroma.url, chroma_timeout=0.5)
    with pytest.raises(SearchError) as caught:
        await hang_guard(
            asyncio.to_thread(KBHandler.from_config, config), "connecting to a hung Chroma"
        )
    assert caught.value.code is ErrorCode.TIMEOUT
    assert "kb.chroma_timeout" in caught.value.message and caught.value.provider == "kb"
    async with Searcher(config, handlers={"web": Web()}) as searcher:
        response = await hang_guard(searcher.asearch({"query": "q", "type": "kb"}), "the search")
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
    chroma_process: tuple[str, Any], tmp_path: Path, make_embedding: Any, hang_guard: Any
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
            await hang_guard(kb.asearch(request, ctx), "a search of the server gone")
        assert caught.value.code is ErrorCode.NETWORK_ERROR, caught.value.message
        assert "cannot reach the Chroma server" in caught.value.message
        await kb.aclose()


async def test_building_the_embedded_knowledge_base_never_blocks_the_event_loop(
    tmp_path: Path, make_embedding: Any, monkeypatch: pytest.MonkeyPatch, hang_guard: Any
) -> None:
    """Opening embedded Chroma and loading the model (a slow one here) happen in threads."""
    config = SearchConfig.load(
        profile={"kb": {"data_dir": str(tmp_path), "collections": ["notes"]}}
    )
    indexer = await asyncio.to_thread(KBHandler.from_config, config, embedding=make_embedding())
    await indexer.aadd_documents("notes", ["Glaciers melt in summer."])
    await indexer.aclose()
    probe = LoopProbe(hang_guard.seconds)

    def slow_model(settings: Any) -> Any:
        probe()  # loading an ONNX model takes a while: the loop must run meanwhile
        return make_embedding()

    monkeypatch.setattr("unified_search.kb.handler.embedding_from_config", slow_model)
    async with Searcher(config) as searcher:
        response = await searcher.asearch({"query": "glaciers", "type": "kb"})
    assert response.results[0].error is None and response.items
    assert probe.answers == [True], "the event loop stalled while the model loaded"


async def test_a_slow_build_is_kept_once_done_even_when_every_search_gave_up(
    monkeypatch: pytest.MonkeyPatch, hang_guard: Any
) -> None:
    """The searches time out; the handler they started is kept, not built again by the next."""
    built: list[SearchType] = []
    connected, done = threading.Event(), threading.Event()

    def slow_build(type_: SearchType, config: Any, http: Any) -> Web:
        connected.wait(hang_guard.seconds)  # connecting to a slow server, until the test says
        built.append(type_)
        done.set()
        return Web()

    monkeypatch.setattr("unified_search.engine.searcher._builtin_handler", slow_build)
    config = SearchConfig.load(profile={"options": {"timeout": 1.0}})
    async with Searcher(config) as searcher:
        first = await searcher.asearch({"query": "q", "type": "web"})
        connected.set()
        assert await asyncio.to_thread(done.wait, hang_guard.seconds), "the build never ended"
        second = await searcher.asearch({"query": "q", "type": "web"})
    error = first.results[0].error
    assert error is not None and error.code is ErrorCode.TIMEOUT
    assert second.results[0].error is None
    assert built == [SearchType.WEB]
