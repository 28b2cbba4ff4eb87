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
from typing import Any

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


async def search(searcher: Searcher, guard: Any, query: str, **options: str | None) -> Any:
    return await guard(
        searcher.asearch({"query": query, "type": "kb"}, **options),  # type: ignore[arg-type]
        f"the search {query!r}",
    )


async def written(store: SearchStore, guard: Any) -> None:
    """Wait until every queued record is committed and the store is known to be up."""

    async def flushed() -> None:
        while not (await store.aflush() and store.writer.problem is None):
            await asyncio.sleep(0.05)

    await guard(flushed(), "writing the queued records")


def bounded_by_the_wait(response: Any) -> None:
    """Every store warning says it waited ``wait`` (0.3 s), or failed at once: the store known down."""
    for warning in response.warnings:
        assert warning.code in {ErrorCode.TIMEOUT, ErrorCode.NETWORK_ERROR}, warning
        if warning.code is ErrorCode.TIMEOUT:
            assert "within 0.3 s" in warning.message, warning.message


async def test_a_store_that_goes_down_keeps_answering_and_catches_up(
    proxied: tuple[Proxy, SearchStore],
    caplog: pytest.LogCaptureFixture,
    word_searcher: Callable[[SearchStore], Searcher],
    hang_guard: Any,
) -> None:
    proxy, store = proxied
    searcher = word_searcher(store)
    first = await search(searcher, hang_guard, "a b", request_id="chat")
    assert first.warnings == []
    proxy.down()
    answers = [await search(searcher, hang_guard, f"d{n} x", request_id="chat") for n in range(4)]
    answers += [await search(searcher, hang_guard, "fresh scope")]
    for response in answers:
        assert response.status == "partial" and response.items
        assert {w.provider for w in response.warnings} == {"store"}
        bounded_by_the_wait(response)
        logs = " ".join(log.message for log in response.trace[0].logs)
        # Each search finds the store down as it numbers, or its record waiting to be retried.
        assert "not persisted" in logs or "could not store" in logs
    # The last one waited for its (new scope's) numbering, which the writer could not commit.
    logs = " ".join(log.message for log in answers[-1].trace[0].logs)
    assert "could not store the search record" in logs

    async def retrying() -> None:  # the writer meets the outage too, and says so in the log
        while not any("retrying" in r.getMessage() for r in caplog.records):
            await asyncio.sleep(0.05)

    await hang_guard(retrying(), "the writer's retry")
    proxy.state = "up"
    await written(store, hang_guard)
    assert len(store.get_searches("chat")) == 5  # every record made while down, written after
    assert len(store.get_searches(answers[-1].request_id)) == 1
    await searcher.aclose()


async def test_a_hung_store_never_holds_answers_longer_than_the_wait(
    proxied: tuple[Proxy, SearchStore],
    word_searcher: Callable[[SearchStore], Searcher],
    hang_guard: Any,
) -> None:
    proxy, store = proxied
    searcher = word_searcher(store)
    await search(searcher, hang_guard, "a b", request_id="chat")
    proxy.state = "hang"
    answers = await asyncio.gather(
        *(
            search(searcher, hang_guard, f"h{n} y", request_id=None if n % 2 else "chat")
            for n in range(10)
        )
    )
    for response in answers:
        assert response.items and response.warnings
        bounded_by_the_wait(response)  # the wait (0.3 s), never the store's timeout (2 s)
    later = await search(searcher, hang_guard, "after z", request_id="chat")
    assert later.items and later.warnings
    bounded_by_the_wait(later)
    proxy.state = "up"
    await written(store, hang_guard)
    assert len(store.get_searches("chat")) == 1 + 5 + 1
    await searcher.aclose()
