"""URL retrieval: the readable text of one page, through Jina Reader or fetched directly.

Direct fetching follows redirects by hand so that every hop passes the SSRF
guard (``unified_search.web.guard``), stops reading at ``reader.max_bytes`` and
turns HTML into text with the standard library parser.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urljoin

import httpx

from unified_search.auth import Secret
from unified_search.errors import ErrorCode, SearchError
from unified_search.types import ResultItem, SearchType
from unified_search.urls import clean_url
from unified_search.web.config import ReaderConfig
from unified_search.web.errors import Rule, error_from_exception, error_from_response, json_body
from unified_search.web.guard import Resolver, check_url, split_target, system_resolver
from unified_search.web.html_text import html_to_text, tidy
from unified_search.web.http import HttpClient, with_retries

REDIRECTS = frozenset({301, 302, 303, 307, 308})
ACCEPT = "text/html,application/xhtml+xml,text/plain;q=0.9,application/json;q=0.8,*/*;q=0.1"
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


class Reader:
    """Fetch one URL as a ``ResultItem`` whose content is the page's text.

    Example:
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
        """Return the text of ``url``; refuses unsafe URLs before sending anything.

        Through Jina the page is fetched on Jina's side, so only the URL's form is
        checked here; a direct fetch resolves the host and checks every address.
        """
        if self.config.jina.enabled:
            split_target(url)
            return await self._jina(url)
        await self._check(url)
        return await with_retries(lambda: self._direct(url), self.http.policy, self.http.sleep)

    async def _check(self, url: str) -> None:
        await check_url(url, resolver=self.resolver, allow_private=self.config.allow_private_hosts)

    async def _direct(self, url: str) -> ResultItem:
        current = url
        for _ in range(self.config.max_redirects + 1):
            response = await self._open(current)
            try:
                location = response.headers.get("location")
                if response.status_code in REDIRECTS and location:
                    current = urljoin(current, location)
                    await self._check(current)
                    continue
                return await self._page(current, response)
            finally:
                await response.aclose()
        raise SearchError(
            ErrorCode.PROVIDER_ERROR,
            f"more than {self.config.max_redirects} redirects",
            provider="reader",
            retryable=False,
        )

    async def _open(self, url: str) -> httpx.Response:
        request = httpx.Request("GET", url, headers={"Accept": ACCEPT})
        try:
            return await self.http.client().send(request, stream=True)
        except httpx.HTTPError as exc:
            raise error_from_exception(exc, provider="reader") from None

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
        title, content = html_to_text(text) if "html" in kind or not kind else ("", tidy(text))
        metadata = {"provider": "direct", "content_type": kind or None, "bytes_truncated": cut}
        return self._item(url, title, content, metadata)

    async def _jina(self, url: str) -> ResultItem:
        jina = self.config.jina
        secret = Secret.from_env(jina.api_key_env)
        key = secret.resolve(provider="jina") if secret.is_set() else None
        headers = {"Accept": "application/json"}
        if key:
            headers["Authorization"] = f"Bearer {key}"
        if "?" in url or "#" in url:  # the GET form cannot carry a query string or a fragment
            request = httpx.Request("POST", jina.base_url, json={"url": url}, headers=headers)
        else:
            request = httpx.Request("GET", jina.base_url + url, headers=headers)
        response = await self.http.send(
            request, provider="jina", rules=JINA_RULES, secrets=[key or ""]
        )
        data = _jina_data(json_body(response, provider="jina"))
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
    """Read at most ``max_bytes`` of the body; tell whether more was left unread."""
    chunks: list[bytes] = []
    size = 0
    async for chunk in response.aiter_bytes():
        chunks.append(chunk)
        size += len(chunk)
        if size > max_bytes:
            return b"".join(chunks)[:max_bytes], True
    return b"".join(chunks), False


def _plain_headers(response: httpx.Response) -> dict[str, str]:
    """Headers of an already decoded body (no content encoding left to undo)."""
    skip = {"content-encoding", "content-length", "transfer-encoding"}
    return {k: v for k, v in response.headers.items() if k.lower() not in skip}


def _jina_data(envelope: dict[str, Any]) -> dict[str, Any]:
    data = envelope.get("data")
    if isinstance(data, dict):
        return data
    message = envelope.get("readableMessage") or envelope.get("message") or "no data in the answer"
    raise SearchError(ErrorCode.PROVIDER_ERROR, str(message), provider="jina", retryable=False)
