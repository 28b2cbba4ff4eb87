"""Retrieval bounded in bytes and time, special addresses refused, Jina text answers read, many URLs at once."""

from __future__ import annotations

import asyncio
import contextlib
import tracemalloc
import zlib
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from unified_search.errors import ErrorCode, SearchError
from unified_search.web.extract import extract, has_trafilatura
from unified_search.web.guard import is_public
from unified_search.web.handler import WebHandler
from unified_search.web.reader import text_page

MiB = 1024 * 1024


async def public(host: str, port: int) -> list[str]:
    return ["93.184.216.34"]


def handler_for(
    kit: Any, transport: httpx.AsyncBaseTransport | None = None, **reader: Any
) -> WebHandler:
    config = kit.web_config([], reader=reader)
    return WebHandler(config, transport=transport, resolver=public, cache=None)


def _bomb(expanded: int) -> bytes:
    """A gzip stream of ``expanded`` zero bytes (about a thousandth of that on the wire)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    block = bytes(MiB)
    parts = [packer.compress(block) for _ in range(expanded // MiB)]
    return b"".join(parts) + packer.flush()


BOMB = _bomb(200 * MiB)


async def _chunks(data: bytes, size: int = 64 * 1024) -> AsyncIterator[bytes]:
    for start in range(0, len(data), size):
        yield data[start : start + size]


async def test_a_gzip_bomb_never_expands_beyond_max_bytes(kit: Any) -> None:
    """200 MiB of zeros in ~200 KiB of gzip: the page is cut at 1 MiB, memory stays near that."""

    def serve(request: httpx.Request) -> httpx.Response:
        headers = {"Content-Encoding": "gzip", "Content-Type": "text/plain"}
        return httpx.Response(200, headers=headers, content=_chunks(BOMB))

    handler = handler_for(kit, httpx.MockTransport(serve), max_bytes=MiB, max_chars=2 * MiB)
    item, peak = await _retrieve_traced(handler, "https://example.com/bomb")
    assert item.metadata["bytes_truncated"] is True
    assert len(item.content) <= MiB
    assert peak < 12 * MiB, f"peak {peak / MiB:.1f} MiB"


async def test_an_endless_page_is_cut_at_max_bytes_as_it_arrives(kit: Any) -> None:
    sent = 0

    async def endless() -> AsyncIterator[bytes]:
        nonlocal sent
        for _ in range(50 * 16):  # 50 MiB if nobody stops reading
            sent += 64 * 1024
            yield b"x" * (64 * 1024)

    def serve(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"Content-Type": "text/plain"}, content=endless())

    handler = handler_for(kit, httpx.MockTransport(serve), max_bytes=MiB, max_chars=2 * MiB)
    item = await handler.aretrieve("https://example.com/endless")
    await handler.aclose()
    assert item.metadata["bytes_truncated"] is True and len(item.content) == MiB
    assert sent <= MiB + 64 * 1024


async def test_an_unknown_content_encoding_is_unsupported(kit: Any) -> None:
    def serve(request: httpx.Request) -> httpx.Response:
        assert request.headers["Accept-Encoding"] == "gzip, deflate"
        headers = {"Content-Encoding": "zstd", "Content-Type": "text/html"}
        return httpx.Response(200, headers=headers, content=_chunks(b"\x28\xb5\x2f\xfd"))

    handler = handler_for(kit, httpx.MockTransport(serve))
    with pytest.raises(SearchError) as caught:
        await handler.aretrieve("https://example.com/")
    await handler.aclose()
    assert caught.value.code is ErrorCode.UNSUPPORTED and "zstd" in caught.value.message


class Trickle:
    """A local HTTP server that sends its headers, then one byte per second.

    ``hung_up`` is set when the client closes the connection, the body unread.
    """

    def __init__(self) -> None:
        self.url = ""
        self.hung_up = asyncio.Event()
        self.writers: list[asyncio.StreamWriter] = []

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.writers.append(writer)
        await reader.readuntil(b"\r\n\r\n")
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 1000\r\n\r\n")
        dripping = asyncio.ensure_future(self._drip(writer))
        await reader.read()  # b"" once the client hangs up
        self.hung_up.set()
        dripping.cancel()

    @staticmethod
    async def _drip(writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(ConnectionError):
            for _ in range(1000):
                writer.write(b"a")
                await writer.drain()
                await asyncio.sleep(1)


@pytest.fixture
async def trickle() -> AsyncIterator[Trickle]:
    server_side = Trickle()
    server = await asyncio.start_server(server_side.serve, "127.0.0.1", 0)
    server_side.url = f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}/slow"
    yield server_side
    for writer in server_side.writers:
        writer.close()
    server.close()
    await server.wait_closed()


async def test_a_server_sending_one_byte_a_second_times_out_within_the_deadline(
    kit: Any, trickle: Trickle, hang_guard: Any
) -> None:
    handler = handler_for(kit, deadline=1.5, allow_private_hosts=True)
    with pytest.raises(SearchError) as caught:
        await hang_guard(handler.aretrieve(trickle.url), "reading the trickling page")
    await handler.aclose()
    # The reader's own deadline ended it (not web.timeout, 10 s per read) ...
    assert caught.value.code is ErrorCode.TIMEOUT and "1.5 s" in caught.value.message
    # ... and the connection was dropped with the body unread, not read to its end.
    await hang_guard(trickle.hung_up.wait(), "the reader hanging up")


@pytest.mark.parametrize(
    "address",
    [
        "::127.0.0.1",  # IPv4-compatible
        "::ffff:127.0.0.1",  # IPv4-mapped
        "::ffff:0:7f00:1",  # IPv4-translated
        "64:ff9b::7f00:1",  # NAT64 of loopback
        "64:ff9b::a00:1",  # NAT64 of 10.0.0.1
        "64:ff9b:1::808:808",  # local-use NAT64
        "2002:7f00:1::",  # 6to4 of loopback
        "2002:a9fe:a9fe::",  # 6to4 of the metadata service
        "2001:0:4136:e378:8000:63bf:3fff:fdd2",  # Teredo
        "192.0.0.8",
        "192.0.0.170",
        "198.18.0.1",  # benchmarking
        "2001:2::1",
        "192.0.2.1",  # documentation
        "198.51.100.7",
        "203.0.113.9",
        "2001:db8::1",
        "3fff::1",
        "100.64.0.1",  # shared address space
        "240.0.0.1",
        "224.0.0.1",
        "ff02::1",
        "fec0::1",
        "fe80::1%eth0",
        "0.0.0.0",
        "::",
    ],
)
async def test_special_purpose_addresses_are_refused(address: str, kit: Any) -> None:
    assert not is_public(address)
    handler = handler_for(kit, httpx.MockTransport(lambda r: httpx.Response(200, text="x")))
    host = f"[{address.split('%')[0]}]" if ":" in address else address
    with pytest.raises(SearchError) as caught:
        await handler.aretrieve(f"http://{host}/")
    await handler.aclose()
    assert caught.value.code is ErrorCode.INVALID_QUERY


@pytest.mark.parametrize(
    "address", ["93.184.216.34", "2606:4700::1111", "64:ff9b::808:808", "::ffff:8.8.8.8"]
)
def test_public_addresses_pass(address: str) -> None:
    assert is_public(address)


@pytest.mark.usefixtures("keys")
async def test_jina_plain_text_and_markdown_answers_are_content(kit: Any, api: Any) -> None:
    api.on(
        "r.jina.ai",
        kit.replay("jina_reader_text_success"),
        httpx.Response(
            200,
            text="# Just Markdown\n\nNo header lines.",
            headers={"Content-Type": "text/markdown"},
        ),
    )
    config = kit.web_config([], reader={"jina": {"enabled": True}})
    handler = WebHandler(config, transport=api.transport, cache=None)
    text = await handler.aretrieve("https://www.distsys-notes.dev/posts/understanding-raft")
    markdown = await handler.aretrieve("https://example.com/md")
    await handler.aclose()
    assert text.title == "Understanding Raft"
    assert text.content.startswith("# Understanding Raft\n\nRaft elects a **leader**")
    assert text.metadata["published_date"] == "2025-11-03T09:00:00Z"
    assert (
        markdown.content == "# Just Markdown\n\nNo header lines."
        and markdown.title == "https://example.com/md"
    )


def test_jina_text_warnings_are_kept() -> None:
    page = text_page(
        "Title: Gone\n\nURL Source: https://x.io/\n\nWarning: Target URL returned error 404: Not Found\n\nMarkdown Content:\nnothing"
    )
    assert (
        page["warning"].startswith("Target URL returned error 404") and page["content"] == "nothing"
    )


async def test_retrieve_many_reads_concurrently_with_one_coded_error_per_url(kit: Any) -> None:
    live = 0
    most = 0

    async def serve(request: httpx.Request) -> httpx.Response:
        nonlocal live, most
        live += 1
        most = max(most, live)
        await asyncio.sleep(0.05)
        live -= 1
        if request.url.path == "/missing":
            return httpx.Response(404, text="Not Found")
        return httpx.Response(200, text=f"page {request.url.path}")

    handler = handler_for(kit, httpx.MockTransport(serve), concurrency=3)
    urls = [f"https://example.com/{n}" for n in range(5)] + [
        "https://example.com/missing",
        "ftp://x/",
    ]
    found = await handler.aretrieve_many(urls)
    await handler.aclose()
    assert [r.url for r in found] == urls
    assert [r.ok for r in found] == [True] * 5 + [False, False]
    assert found[0].item is not None and found[0].item.content == "page /0"
    assert found[5].error is not None and found[5].error.code is ErrorCode.PROVIDER_ERROR
    assert found[6].error is not None and found[6].error.code is ErrorCode.INVALID_QUERY
    assert most == 3


def test_retrieve_many_sync_twin(kit: Any) -> None:
    handler = handler_for(kit, httpx.MockTransport(lambda r: httpx.Response(200, text="ok")))
    (one,) = handler.retrieve_many(["https://example.com/"])
    assert one.ok and one.item is not None and one.item.content == "ok"


PAGE = """<html><head><title>Site | Story</title></head><body>
<div id="cookie-consent">We use cookies to improve your experience. <button>Accept all</button></div>
<header><nav><a href="/">Home</a> <a href="/news">News</a> <a href="/sport">Sport</a></nav></header>
<main><article><h1>Council approves the new tram line</h1>
<p>The city council approved the eastern tram extension on Tuesday after a debate that lasted most of the evening.</p>
<p>Construction is expected to start next spring and to take about three years, the transport department said.</p>
<p>Residents along the route will be consulted on the location of the four new stops before the plans are final.</p>
<div class="share-buttons">Share on Facebook Share on X</div></article>
<aside class="related"><h2>Related stories</h2><a href="/a">Bus fares rise</a></aside></main>
<footer>© 2026 City Herald · Privacy · Terms · Contact us</footer></body></html>"""


@pytest.mark.parametrize("extractor", ["builtin", "trafilatura"])
def test_main_text_leaves_navigation_banners_and_footers_out(extractor: Any) -> None:
    if extractor == "trafilatura" and not has_trafilatura():
        pytest.skip("trafilatura is not installed (the extract extra)")
    title, text = extract(PAGE, extractor)
    assert "Council approves the new tram line" in text or "Council approves" in title
    assert "consulted on the location of the four new stops" in text
    for furniture in (
        "cookies",
        "Accept all",
        "Sport",
        "Share on Facebook",
        "Bus fares",
        "Privacy",
    ):
        assert furniture not in text


def test_the_trafilatura_extractor_without_the_package_names_the_extra(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import unified_search.web.extract as module

    monkeypatch.setattr(module, "has_trafilatura", lambda: False)
    with pytest.raises(SearchError, match=r"unified-search\[extract\]"):
        module.extract(PAGE, "trafilatura")
    assert "four new stops" in module.extract(PAGE, "auto")[1]  # auto falls back to builtin


async def test_a_50_mb_html_page_is_cut_at_max_bytes_in_bounded_memory(kit: Any) -> None:
    """Paragraph after paragraph of news, 50 MB of it: read to 2 MiB, extracted, the rest unsent."""
    sent = 0

    async def page() -> AsyncIterator[bytes]:
        nonlocal sent
        yield b"<html><head><title>Endless</title></head><body><main>"
        first = 0
        while sent < 50 * MiB:
            chunk = "".join(
                f"<p>The council met again, session {n}, on the tram line.</p>"
                for n in range(first, first + 200)
            ).encode()
            first += 200
            sent += len(chunk)
            yield chunk

    def serve(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"Content-Type": "text/html"}, content=page())

    handler = handler_for(kit, httpx.MockTransport(serve), max_bytes=2 * MiB)
    tracemalloc.start()
    try:
        item = await handler.aretrieve("https://example.com/endless")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
        await handler.aclose()
    assert item.metadata["bytes_truncated"] is True and item.metadata["truncated"] is True
    assert item.content.startswith("The council met again, session 0,")
    assert len(item.content) == 10_000
    assert sent <= 3 * MiB
    assert peak < 40 * MiB  # a few times the 2 MiB read, never the 50 MB page


async def test_html_is_extracted_off_the_event_loop(
    kit: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Extraction of a large page takes seconds; it must not stop every other search meanwhile."""
    import threading

    from unified_search.web import reader

    threads: list[threading.Thread] = []

    def recording(markup: str, extractor: Any, url: Any) -> tuple[str, str]:
        threads.append(threading.current_thread())
        return extract(markup, extractor, url)

    monkeypatch.setattr(reader, "extract", recording)
    page = "<title>T</title><main><p>" + "Some text. " * 40 + "</p></main>"
    handler = handler_for(kit, httpx.MockTransport(lambda r: httpx.Response(200, html=page)))
    item = await handler.aretrieve("https://example.com/")
    await handler.aclose()
    assert item.content.startswith("Some text.")
    assert threads and threads[0] is not threading.main_thread()


@pytest.mark.parametrize(
    ("kind", "body", "content"),
    [
        ("text/plain; charset=utf-8", '{"status": "ok", "items": [1, 2]}', '"items": [1, 2]'),
        ("text/markdown", "# Release notes\n\n- faster startup", "- faster startup"),
        ("text/plain", "Markdown Content:\nonly the body", "only the body"),
    ],
)
async def test_jina_text_answers_are_content_even_when_the_page_is_json(
    kind: str, body: str, content: str, kit: Any
) -> None:
    """Jina's text and Markdown formats return the page as is, a JSON page included."""
    transport = httpx.MockTransport(
        lambda r: httpx.Response(200, headers={"Content-Type": kind}, text=body)
    )
    handler = handler_for(kit, transport, jina={"enabled": True})
    item = await handler.aretrieve("https://api.example.com/status")
    await handler.aclose()
    assert content in item.content and item.metadata["provider"] == "jina"


async def test_jina_failing_to_reach_a_page_is_a_coded_error_with_its_message(kit: Any) -> None:
    envelope = {
        "data": None,
        "code": 422,
        "name": "AssertionFailureError",
        "status": 42206,
        "message": "Failed to goto https://gone.example/: net::ERR_NAME_NOT_RESOLVED",
        "readableMessage": "AssertionFailureError: Failed to goto https://gone.example/: "
        "net::ERR_NAME_NOT_RESOLVED",
    }
    transport = httpx.MockTransport(lambda r: httpx.Response(422, json=envelope))
    handler = handler_for(kit, transport, jina={"enabled": True})
    found = await handler.aretrieve_many(["https://gone.example/", "not a url"])
    await handler.aclose()
    gone, bad = found
    assert gone.error is not None and "ERR_NAME_NOT_RESOLVED" in gone.error.message
    assert gone.error.provider == "jina" and len(gone.error.message) <= 220
    assert bad.error is not None and bad.error.code is ErrorCode.INVALID_QUERY


def test_a_content_wrapper_named_like_furniture_never_hides_the_page() -> None:
    """WordPress themes wrap the article in ``content-sidebar-wrap``: the builtin keeps it."""
    story = "<p>" + "Rinse and dry the chickpeas well before roasting them. " * 8 + "</p>"
    page = (
        '<div class="site-container"><div class="content-sidebar-wrap"><div class="content">'
        f"<h1>Crispy chickpeas</h1>{story}</div>"
        '<div class="sidebar widget-area">Popular recipes</div></div></div>'
    )
    _, text = extract(page, "builtin")
    assert text.startswith("Crispy chickpeas") and "Rinse and dry" in text
    plain = '<div class="sidebar">Popular recipes</div><div class="post">' + story + "</div>"
    assert "Popular recipes" not in extract(plain, "builtin")[1]  # a real sidebar still goes


def _wire_bomb(size: int) -> bytes:
    """``size`` bytes of gzip that expand about a thousandfold (1 MiB: ~1 GiB of zeros).

    One flushed, self-contained deflate segment of 1 MiB of zeros is repeated, so the
    bomb is built in milliseconds; its trailer is never reached by a bounded reader.
    """
    packer = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    head = packer.compress(bytes(MiB)) + packer.flush(zlib.Z_FULL_FLUSH)
    segment = packer.compress(bytes(MiB)) + packer.flush(zlib.Z_FULL_FLUSH)
    return head + segment * ((size - len(head)) // len(segment))


@pytest.mark.parametrize("max_bytes", [64 * 1024, MiB, 5_000_000])
async def test_a_1_mib_gzip_bomb_stops_the_download_at_the_cap(kit: Any, max_bytes: int) -> None:
    """Bytes are counted as they come off the wire, so reading stops with the cap reached.

    The wire is the transport's stream: every byte the reader pulled from it is
    counted. Zeros compress about 1000:1, so ``max_bytes`` of text needs about a
    thousandth of that on the wire; one 16 KiB read more is all that may follow.
    """
    bomb = _wire_bomb(MiB)
    pulled = 0

    async def wire() -> AsyncIterator[bytes]:
        nonlocal pulled
        for start in range(0, len(bomb), 16 * 1024):
            piece = bomb[start : start + 16 * 1024]
            pulled += len(piece)
            yield piece

    def serve(request: httpx.Request) -> httpx.Response:
        headers = {"Content-Encoding": "gzip", "Content-Type": "text/plain"}
        return httpx.Response(200, headers=headers, content=wire())

    handler = handler_for(kit, httpx.MockTransport(serve), max_bytes=max_bytes)
    item, peak = await _retrieve_traced(handler, "https://example.com/bomb")
    assert item.metadata["bytes_truncated"] is True
    assert len(item.content) <= max_bytes
    assert pulled <= max_bytes // 500 + 2 * 16 * 1024, f"{pulled} bytes pulled off the wire"
    assert peak < 6 * max_bytes + 4 * MiB, f"peak {peak / MiB:.1f} MiB"


async def _retrieve_traced(handler: Any, url: str) -> tuple[Any, int]:
    """Retrieve ``url`` and close the handler; return the item and the peak traced memory."""
    tracemalloc.start()
    try:
        item = await handler.aretrieve(url)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
        await handler.aclose()
    return item, peak
