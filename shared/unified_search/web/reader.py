"""URL retrieval: the readable text of a page, through Jina Reader or fetched directly.

Direct fetching follows redirects by hand so that every hop passes the SSRF
guard (``unified_search.web.guard``). The body is counted as it arrives on the
wire and decompressed step by step, never beyond ``reader.max_bytes``, so a
gzip bomb cannot blow up memory; each read has ``web.timeout`` and the whole
retrieval ``reader.deadline``, so a server trickling one byte a second fails
with TIMEOUT. HTML is reduced to its main text (``unified_search.web.extract``).
Jina Reader's JSON, plain-text and Markdown answers are all content.
"""

from __future__ import annotations

import asyncio
import zlib
from collections.abc import Sequence
from typing import Any
from urllib.parse import urljoin

import httpx
from pydantic import BaseModel, ConfigDict

from unified_search.config.web import ReaderConfig
from unified_search.errors import ErrorCode, ErrorInfo, SearchError, as_search_error
from unified_search.html_text import tidy
from unified_search.http import (
    Deadline,
    HttpClient,
    Rule,
    bad_payload,
    error_from_exception,
    error_from_response,
    excerpt,
    with_retries,
)
from unified_search.types import ResultItem, SearchType
from unified_search.urls import clean_url
from unified_search.web.extract import extract
from unified_search.web.guard import Resolver, check_url, split_target, system_resolver

REDIRECTS = frozenset({301, 302, 303, 307, 308})
ACCEPT = "text/html,application/xhtml+xml,text/plain;q=0.9,application/json;q=0.8,*/*;q=0.1"
#: Only encodings this module can decompress step by step are accepted.
ACCEPT_ENCODING = "gzip, deflate"
TEXT_TYPES = ("text/", "application/json", "application/xml", "application/xhtml+xml")
JINA_RULES = (Rule(409, ErrorCode.QUOTA_EXCEEDED, hint="budget exceeded"),)
#: A page's own 4xx says nothing about our API keys or quotas: it is the page's failure.
PAGE_RULES = tuple(
    Rule(status, ErrorCode.PROVIDER_ERROR, hint=hint)
    for status, hint in [
        (400, ""),
        (401, "the page needs a login"),
        (402, "the page is paywalled"),
        (403, "the site refused access"),
        (422, ""),
    ]
)
#: Header lines of Jina Reader's plain-text answer, before ``Markdown Content:``.
JINA_HEADERS = {"Title": "title", "URL Source": "url", "Published Time": "publishedTime"}
JINA_CONTENT = "Markdown Content:"


class Retrieved(BaseModel):
    """One URL of ``retrieve_many``: its item, or the coded error that stopped it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    url: str
    item: ResultItem | None = None
    error: ErrorInfo | None = None

    @property
    def ok(self) -> bool:
        """True when the page was read."""
        return self.error is None


class Reader:
    """Fetch URLs as ``ResultItem``s whose content is the page's text.

    Example:
        Not run here: it fetches a page from the network.

        >>> reader = Reader(ReaderConfig(), HttpClient())  # doctest: +SKIP
        >>> item = await reader.read("https://example.com/")  # doctest: +SKIP
    """

    def __init__(
        self, config: ReaderConfig, http: HttpClient, *, resolver: Resolver = system_resolver
    ) -> None:
        self.config = config
        self.http = http
        self.resolver = resolver

    async def read(self, url: str) -> ResultItem:
        """Return the text of ``url`` within ``reader.deadline``; unsafe URLs are refused first.

        Through Jina the page is fetched on Jina's side, so only the URL's form is
        checked here; a direct fetch resolves the host and checks every address.
        """
        deadline = self.http.deadline(self.config.deadline)
        try:
            async with asyncio.timeout(self.config.deadline):
                if self.config.jina.enabled:
                    split_target(url)
                    return await self._jina(url, deadline)
                await self._check(url)
                return await with_retries(
                    lambda: self._direct(url),
                    self.http.policy,
                    sleep=self.http.sleep,
                    deadline=deadline,
                )
        except TimeoutError:
            raise SearchError(
                ErrorCode.TIMEOUT,
                f"page not read within {self.config.deadline:g} s",
                provider="reader",
                retryable=False,
            ) from None

    async def read_many(self, urls: Sequence[str]) -> list[Retrieved]:
        """Read ``urls`` concurrently (``reader.concurrency`` at a time), one result per URL."""
        slots = asyncio.Semaphore(self.config.concurrency)

        async def one(url: str) -> Retrieved:
            async with slots:
                try:
                    return Retrieved(url=url, item=await self.read(url))
                except Exception as exc:  # each URL fails alone, with its own code
                    return Retrieved(url=url, error=as_search_error(exc, provider="reader").info())

        return list(await asyncio.gather(*(one(url) for url in urls)))

    async def _check(self, url: str) -> None:
        await check_url(url, resolver=self.resolver, allow_private=self.config.allow_private_hosts)

    async def _direct(self, url: str) -> ResultItem:
        current = url
        for _ in range(self.config.max_redirects + 1):
            request = httpx.Request(
                "GET", current, headers={"Accept": ACCEPT, "Accept-Encoding": ACCEPT_ENCODING}
            )
            response = await self.http.open(request, provider="reader")
            try:
                location = response.headers.get("location")
                if response.status_code in REDIRECTS and location:
                    current = urljoin(current, location)
                    await self._check(current)
                    continue
                return await self._page(current, response)
            except httpx.HTTPError as exc:  # a read timing out or breaking mid-body
                raise error_from_exception(exc, provider="reader") from None
            finally:
                await response.aclose()
        raise SearchError(
            ErrorCode.PROVIDER_ERROR,
            f"more than {self.config.max_redirects} redirects",
            provider="reader",
            retryable=False,
        )

    async def _page(self, url: str, response: httpx.Response) -> ResultItem:
        body, cut = await read_capped(response, self.config.max_bytes)
        if not response.is_success:
            error_page = httpx.Response(
                response.status_code, headers=_plain_headers(response), content=body
            )
            raise error_from_response(error_page, provider="reader", rules=PAGE_RULES)
        kind = response.headers.get("content-type", "").split(";")[0].strip().lower()
        if kind and not kind.startswith(TEXT_TYPES):
            raise SearchError(
                ErrorCode.UNSUPPORTED,
                f"cannot read {kind} content",
                provider="reader",
                retryable=False,
            )
        text = body.decode(response.encoding or "utf-8", errors="replace")
        if "html" in kind or not kind:
            # Parsing megabytes of HTML takes seconds: off the event loop, so searches go on.
            title, content = await asyncio.to_thread(extract, text, self.config.extractor, url)
        else:
            title, content = "", tidy(text)
        metadata = {"provider": "direct", "content_type": kind or None, "bytes_truncated": cut}
        return self._item(url, title, content, metadata)

    async def _jina(self, url: str, deadline: Deadline) -> ResultItem:
        jina = self.config.jina
        key = jina.api_key_env.resolve(provider="jina") if jina.api_key_env.is_set() else None
        headers = {"Accept": "application/json"}
        if key:
            headers["Authorization"] = f"Bearer {key}"
        if "?" in url or "#" in url:  # the GET form cannot carry a query string or a fragment
            request = httpx.Request("POST", jina.base_url, json={"url": url}, headers=headers)
        else:
            request = httpx.Request("GET", jina.base_url + url, headers=headers)
        data = await self.http.call(
            request, jina_data, provider="jina", rules=JINA_RULES, deadline=deadline
        )
        metadata = {
            "provider": "jina",
            "published_date": data.get("publishedTime"),
            "warning": data.get("warning"),
        }
        found = data.get("url") if isinstance(data.get("url"), str) else url
        return self._item(
            str(found), str(data.get("title") or ""), str(data.get("content") or ""), metadata
        )

    def _item(self, url: str, title: str, content: str, metadata: dict[str, Any]) -> ResultItem:
        limit = self.config.max_chars
        metadata = {k: v for k, v in metadata.items() if v is not None}
        metadata["truncated"] = len(content) > limit
        return ResultItem(
            type=SearchType.WEB,
            title=title or clean_url(url),
            url=clean_url(url),
            content=content[:limit],
            score=1.0,
            metadata=metadata,
        )


async def read_capped(response: httpx.Response, max_bytes: int) -> tuple[bytes, bool]:
    """Read at most ``max_bytes`` of the body, on the wire and decoded; tell whether it was cut.

    The raw bytes are counted as they arrive and decompressed with an output
    limit, so neither the download nor the decoded text passes ``max_bytes``.
    """
    if response.is_stream_consumed:  # built in memory, already decoded: nothing left to bound
        body = response.content
        return body[:max_bytes], len(body) > max_bytes
    decoder = _Decoder(response.headers.get("content-encoding", ""))
    received = 0
    chunks: list[bytes] = []
    size = 0
    async for raw in response.aiter_raw():
        received += len(raw)
        piece, full = decoder.feed(raw, max_bytes - size)
        chunks.append(piece)
        size += len(piece)
        if full or size >= max_bytes or received > max_bytes:
            return b"".join(chunks)[:max_bytes], True
    return b"".join(chunks), False


class _Decoder:
    """Undo ``gzip``/``deflate`` step by step, never producing more than asked."""

    def __init__(self, encoding: str) -> None:
        name = encoding.strip().lower()
        self._zlib = None
        if name in ("gzip", "x-gzip", "deflate"):
            self._zlib = zlib.decompressobj(zlib.MAX_WBITS | 32)  # 32: gzip or zlib header
        elif name not in ("", "identity"):
            raise SearchError(
                ErrorCode.UNSUPPORTED,
                f"cannot decode content encoding {name!r}",
                provider="reader",
                retryable=False,
            )

    def feed(self, data: bytes, room: int) -> tuple[bytes, bool]:
        """Decode ``data`` into at most ``room`` bytes; True when more output was left over."""
        if self._zlib is None:
            return data[:room], len(data) > room
        if room <= 0:
            return b"", True
        try:
            out = self._zlib.decompress(data, room)
        except zlib.error:
            raise bad_payload("reader", "corrupt compressed body", "") from None
        return out, bool(self._zlib.unconsumed_tail)


def jina_data(response: httpx.Response) -> dict[str, Any]:
    """The page of a Jina Reader answer: its JSON envelope's ``data``, or its text form parsed."""
    text = response.text
    kind = response.headers.get("content-type", "")
    if "json" in kind or text.lstrip().startswith("{"):
        try:
            envelope = response.json()
        except ValueError:
            envelope = None
        # A text answer may itself be a JSON page; only Jina's envelope has ``code``/``data``.
        if isinstance(envelope, dict) and ("json" in kind or {"code", "data"} & set(envelope)):
            return _envelope_data(envelope)
    return text_page(text)


def text_page(text: str) -> dict[str, Any]:
    r"""Parse Jina Reader's plain-text answer (``Title:`` … ``Markdown Content:``); bare text is content.

    Example:
        >>> text_page("Title: Home\n\nURL Source: https://x.io/\n\nMarkdown Content:\n# Hi")["title"]
        'Home'
    """
    head, marker, content = text.partition(JINA_CONTENT)
    if not marker:
        return {"content": text.strip()}
    data: dict[str, Any] = {"content": content.strip()}
    for line in head.splitlines():
        name, _, value = line.partition(":")
        if name.strip() in JINA_HEADERS and value.strip():
            data[JINA_HEADERS[name.strip()]] = value.strip()
        elif name.strip() == "Warning" and value.strip():
            data["warning"] = value.strip()
    return data


def _envelope_data(envelope: dict[str, Any]) -> dict[str, Any]:
    data = envelope.get("data")
    if isinstance(data, dict):
        return data
    message = envelope.get("readableMessage") or envelope.get("message") or "no data in the answer"
    raise SearchError(
        ErrorCode.PROVIDER_ERROR, excerpt(str(message)), provider="jina", retryable=False
    )


def _plain_headers(response: httpx.Response) -> dict[str, str]:
    """Headers of an already decoded body (no content encoding left to undo)."""
    skip = {"content-encoding", "content-length", "transfer-encoding"}
    return {k: v for k, v in response.headers.items() if k.lower() not in skip}
