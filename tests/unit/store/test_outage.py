"""A PostgreSQL store that goes away or hangs mid-run, behind a TCP proxy we control.

The shared server keeps running; the proxy between the store and it refuses
connections (the server is down) or stops passing bytes on (the server hangs).
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
import time
import uuid
from collections.abc import Callable, Iterator

import pytest
from sqlalchemy.engine import make_url

from unified_search.engine.searcher import Searcher
from unified_search.errors import ErrorCode
from unified_search.records.store import SearchStore

pytestmark = pytest.mark.postgres


class Proxy:
    """Forward 127.0.0.1:<port> to the server: ``up``, ``down`` (refuse, drop) or ``hang``."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.state = "up"
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.sockets: list[socket.socket] = []
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if self.state == "down":
                client.close()
                continue
            upstream = socket.create_connection(self.target)
            with self.lock:
                self.sockets += [client, upstream]
            for src, dst in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(src, dst), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := src.recv(65536):
                while self.state == "hang":
                    time.sleep(0.01)
                dst.sendall(data)
        for sock in (src, dst):
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()

    def down(self) -> None:
        self.state = "down"
        with self.lock:
            for sock in self.sockets:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
            self.sockets = []

    def close(self) -> None:
        self.down()
        self.listener.close()
        time.sleep(0.1)  # the pumps close their sockets


@pytest.fixture
def proxied(postgres_url: str) -> Iterator[tuple[Proxy, SearchStore]]:
    url = make_url(postgres_url)
    proxy = Proxy((url.host or "127.0.0.1", url.port or 5432))
    through = url.set(port=proxy.port).render_as_string(hide_password=False)
    store = SearchStore(through, table_prefix=f"o{uuid.uuid4().hex[:10]}_", timeout=2, wait=0.3)
    yield proxy, store
    proxy.state = "up"
    store.close()
    direct = SearchStore(
        postgres_url, table_prefix=store.records.name.removesuffix("search_records")
    )
    direct.metadata.drop_all(direct.engine)
    direct.close()
    proxy.close()


async def timed_search(
    searcher: Searcher, query: str, **options: str | None
) -> tuple[float, object]:
    started = time.monotonic()
    response = await searcher.asearch({"query": query, "type": "kb"}, **options)  # type: ignore[arg-type]
    return time.monotonic() - started, response


async def written(store: SearchStore, within: float = 20.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if await store.aflush() and store.writer.problem is None:
            return True
    return False


async def test_a_store_that_goes_down_keeps_answering_and_catches_up(
    proxied: tuple[Proxy, SearchStore],
    caplog: pytest.LogCaptureFixture,
    word_searcher: Callable[[SearchStore], Searcher],
) -> None:
    proxy, store = proxied
    searcher = word_searcher(store)
    _, first = await timed_search(searcher, "a b", request_id="chat")
    assert first.warnings == []  # type: ignore[attr-defined]
    proxy.down()
    answers = [await timed_search(searcher, f"d{n} x", request_id="chat") for n in range(4)]
    answers += [await timed_search(searcher, "fresh scope")]
    for seconds, response in answers:
        assert seconds < 3
        assert response.status == "partial" and response.items  # type: ignore[attr-defined]
        assert {w.provider for w in response.warnings} == {"store"}  # type: ignore[attr-defined]
        logs = " ".join(log.message for log in response.trace[0].logs)  # type: ignore[attr-defined]
        # Each search finds the store down as it numbers, or its record waiting to be retried.
        assert "not persisted" in logs or "could not store" in logs
    # The last one waited for its (new scope's) numbering, which the writer could not commit.
    logs = " ".join(log.message for log in answers[-1][1].trace[0].logs)  # type: ignore[attr-defined]
    assert "could not store the search record" in logs
    await asyncio.sleep(0.5)  # the writer meets the outage too, and says so in the log
    proxy.state = "up"
    assert await written(store)
    assert any("retrying" in r.getMessage() for r in caplog.records)
    assert len(store.get_searches("chat")) == 5  # every record made while down, written after
    assert len(store.get_searches(answers[-1][1].request_id)) == 1  # type: ignore[attr-defined]
    await searcher.aclose()


async def test_a_hung_store_never_holds_answers_longer_than_the_wait(
    proxied: tuple[Proxy, SearchStore], word_searcher: Callable[[SearchStore], Searcher]
) -> None:
    proxy, store = proxied
    searcher = word_searcher(store)
    await timed_search(searcher, "a b", request_id="chat")
    proxy.state = "hang"
    answers = await asyncio.gather(
        *(
            timed_search(searcher, f"h{n} y", request_id=None if n % 2 else "chat")
            for n in range(10)
        )
    )
    for seconds, response in answers:
        assert seconds < 3  # the wait (0.3 s) and slack for a busy machine, never minutes
        assert response.items and response.warnings  # type: ignore[attr-defined]
        assert {w.code for w in response.warnings} <= {  # type: ignore[attr-defined]
            ErrorCode.TIMEOUT,
            ErrorCode.NETWORK_ERROR,
        }
    later, _ = await timed_search(searcher, "after z", request_id="chat")
    assert later < 2
    proxy.state = "up"
    assert await written(store)
    assert len(store.get_searches("chat")) == 1 + 5 + 1
    await searcher.aclose()
