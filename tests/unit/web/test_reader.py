"""URL retrieval: text extraction, Jina Reader, and the SSRF guard (nothing private is fetched)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from unified_search.errors import ErrorCode, SearchError
from unified_search.web.guard import is_public
from unified_search.web.handler import WebHandler
from unified_search.web.html_text import html_to_text

PUBLIC = "93.184.216.34"
DNS = {
    "example.com": [PUBLIC],
    "news.example.org": [PUBLIC],
    "intranet.example.com": ["10.1.2.3"],
    "metadata.example.com": ["169.254.169.254"],
    "sneaky.example.com": [PUBLIC, "127.0.0.1"],
    "v6.example.com": ["::1"],
}
ARTICLE = """<!doctype html><html><head><title>Raft, explained</title>
<style>body{color:red}</style><script>alert('x')</script></head>
<body><nav>Home</nav><article><h1>Understanding Raft</h1><p>Leader &amp; followers
elect   a leader.</p><p>Logs replicate.</p></article></body></html>"""


async def resolver(host: str, port: int) -> list[str]:
    if host not in DNS:
        raise OSError("Name or service not known")
    return DNS[host]


def build(api: Any, sleeps: Any, kit: Any, **reader: Any) -> tuple[WebHandler, Any]:
    config = kit.web_config([], reader=reader)
    handler = WebHandler(
        config, transport=api.transport, sleep=sleeps, resolver=resolver, cache=None
    )
    return handler, config


async def test_direct_fetch_extracts_readable_text(api: Any, sleeps: Any, kit: Any) -> None:
    api.on("example.com", httpx.Response(200, html=ARTICLE))
    handler, _ = build(api, sleeps, kit, extractor="builtin")
    item = await handler.aretrieve("https://example.com/raft?utm_source=x#part")
    await handler.aclose()
    assert item.title == "Raft, explained"
    assert item.url == "https://example.com/raft"
    assert (
        item.content
        == "Understanding Raft\n\nLeader & followers elect a leader.\n\nLogs replicate."
    )
    assert "alert" not in item.content and "color" not in item.content
    assert item.metadata["provider"] == "direct" and item.metadata["truncated"] is False


async def test_content_is_truncated_to_max_chars(api: Any, sleeps: Any, kit: Any) -> None:
    api.on("example.com", httpx.Response(200, text="word " * 5000))
    handler, _ = build(api, sleeps, kit, max_chars=100)
    item = await handler.aretrieve("https://example.com/long.txt")
    await handler.aclose()
    assert len(item.content) == 100 and item.metadata["truncated"] is True


async def test_body_size_is_capped(api: Any, sleeps: Any, kit: Any) -> None:
    api.on("example.com", httpx.Response(200, text="a" * 50_000))
    handler, _ = build(api, sleeps, kit, max_bytes=2048, max_chars=100_000)
    item = await handler.aretrieve("https://example.com/huge")
    await handler.aclose()
    assert len(item.content) == 2048 and item.metadata["bytes_truncated"] is True


async def test_default_max_chars_is_10000(api: Any, sleeps: Any, kit: Any) -> None:
    api.on("example.com", httpx.Response(200, text="b" * 20_000))
    handler, _ = build(api, sleeps, kit)
    item = await handler.aretrieve("https://example.com/")
    await handler.aclose()
    assert len(item.content) == 10_000


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1/admin",
        "http://localhost.:8080/",
        "http://10.0.0.8/",
        "http://169.254.169.254/latest/meta-data/",
        "http://[::1]/",
        "http://[::ffff:127.0.0.1]/",
        "https://intranet.example.com/",
        "https://metadata.example.com/",
        "https://sneaky.example.com/",
        "https://v6.example.com/",
        "http://192.168.1.1/",
        "http://0.0.0.0/",
    ],
)
async def test_private_hosts_are_refused_before_any_request(
    url: str, api: Any, sleeps: Any, kit: Any
) -> None:
    DNS.setdefault("localhost.", ["127.0.0.1"])
    handler, _ = build(api, sleeps, kit)
    with pytest.raises(SearchError) as caught:
        await handler.aretrieve(url)
    await handler.aclose()
    assert caught.value.code is ErrorCode.INVALID_QUERY and "non-public" in caught.value.message
    assert api.requests == []


async def test_redirect_to_a_private_address_is_refused(api: Any, sleeps: Any, kit: Any) -> None:
    api.on(
        "example.com", httpx.Response(302, headers={"Location": "http://169.254.169.254/latest/"})
    )
    handler, _ = build(api, sleeps, kit)
    with pytest.raises(SearchError, match=r"169\.254\.169\.254"):
        await handler.aretrieve("https://example.com/go")
    await handler.aclose()
    assert api.hosts() == ["example.com"]


async def test_public_redirects_are_followed_and_limited(api: Any, sleeps: Any, kit: Any) -> None:
    api.on(
        "example.com", httpx.Response(301, headers={"Location": "https://news.example.org/final"})
    )
    api.on("news.example.org", httpx.Response(200, html="<title>Final</title><p>ok</p>"))
    handler, _ = build(api, sleeps, kit)
    item = await handler.aretrieve("https://example.com/old")
    assert item.url == "https://news.example.org/final" and item.content == "ok"
    loop_api = kit.FakeAPI().on("example.com", httpx.Response(302, headers={"Location": "/again"}))
    looping = WebHandler(
        kit.web_config([]),
        transport=loop_api.transport,
        sleep=sleeps,
        resolver=resolver,
        cache=None,
    )
    with pytest.raises(SearchError, match="redirects"):
        await looping.aretrieve("https://example.com/again")
    await handler.aclose()
    await looping.aclose()
    assert len(loop_api.requests) == 6


async def test_private_hosts_can_be_allowed_explicitly(api: Any, sleeps: Any, kit: Any) -> None:
    api.on("127.0.0.1", httpx.Response(200, text="local"))
    handler, _ = build(api, sleeps, kit, allow_private_hosts=True)
    item = await handler.aretrieve("http://127.0.0.1:8080/status")
    await handler.aclose()
    assert item.content == "local"


@pytest.mark.parametrize(
    ("url", "needle"),
    [
        ("file:///etc/passwd", "only http and https"),
        ("ftp://example.com/x", "only http and https"),
        ("javascript:alert(1)", "only http and https"),
        ("not a url", "only http and https"),
        ("https:///nohost", "no host"),
        ("http://example.com:99999/", "invalid URL"),
    ],
)
async def test_invalid_urls_are_refused(
    url: str, needle: str, api: Any, sleeps: Any, kit: Any
) -> None:
    handler, _ = build(api, sleeps, kit)
    with pytest.raises(SearchError, match=needle) as caught:
        await handler.aretrieve(url)
    await handler.aclose()
    assert caught.value.code is ErrorCode.INVALID_QUERY and api.requests == []


async def test_unresolvable_host_is_a_network_error(api: Any, sleeps: Any, kit: Any) -> None:
    handler, _ = build(api, sleeps, kit)
    with pytest.raises(SearchError) as caught:
        await handler.aretrieve("https://nowhere.invalid/")
    await handler.aclose()
    assert caught.value.code is ErrorCode.NETWORK_ERROR


async def test_error_pages_and_binary_content(api: Any, sleeps: Any, kit: Any) -> None:
    api.on("example.com", httpx.Response(404, html="<h1>Not Found</h1>"))
    api.on(
        "news.example.org",
        httpx.Response(200, content=b"%PDF-1.7", headers={"Content-Type": "application/pdf"}),
    )
    handler, _ = build(api, sleeps, kit)
    with pytest.raises(SearchError, match="Not Found") as missing:
        await handler.aretrieve("https://example.com/gone")
    with pytest.raises(SearchError, match="application/pdf") as binary:
        await handler.aretrieve("https://news.example.org/paper.pdf")
    await handler.aclose()
    assert (
        missing.value.code is ErrorCode.PROVIDER_ERROR
        and binary.value.code is ErrorCode.UNSUPPORTED
    )


async def test_jina_reader_returns_its_markdown(
    api: Any, sleeps: Any, kit: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("JINA_API_KEY", "jina_secret_1")
    api.on("r.jina.ai", kit.replay("jina_reader_success"))
    handler, _ = build(api, sleeps, kit, jina={"enabled": True})
    item = await handler.aretrieve("https://www.distsys-notes.dev/posts/understanding-raft")
    await handler.aclose()
    (request,) = api.requests
    assert str(request.url) == kit.exchange("jina_reader_success")["request"]["url"]
    assert request.headers["Authorization"] == "Bearer jina_secret_1"
    assert request.headers["Accept"] == "application/json"
    assert item.title.startswith("Understanding Raft") and "leader election" in item.content
    assert item.metadata["published_date"] == "2025-12-02T10:00:00+00:00"


async def test_jina_without_key_and_with_a_query_string_posts_the_url(
    api: Any, sleeps: Any, kit: Any
) -> None:
    api.on("r.jina.ai", kit.replay("jina_reader_success"))
    handler, _ = build(api, sleeps, kit, jina={"enabled": True})
    await handler.aretrieve("https://example.com/a?id=3")
    await handler.aclose()
    (request,) = api.requests
    assert request.method == "POST" and "Authorization" not in request.headers
    assert request.content == b'{"url":"https://example.com/a?id=3"}'


@pytest.mark.parametrize(
    ("fixture", "code"),
    [
        ("jina_reader_invalid_key", ErrorCode.INVALID_API_KEY),
        ("jina_reader_rate_limited", ErrorCode.RATE_LIMITED),
    ],
)
async def test_jina_errors(
    fixture: str, code: ErrorCode, api: Any, sleeps: Any, kit: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("JINA_API_KEY", "jina_secret_1")
    api.on("r.jina.ai", kit.replay(fixture))
    handler, _ = build(api, sleeps, kit, jina={"enabled": True})
    with pytest.raises(SearchError) as caught:
        await handler.aretrieve("https://example.com/")
    await handler.aclose()
    assert caught.value.code is code and "jina_secret_1" not in str(caught.value)
    if code is ErrorCode.RATE_LIMITED:
        assert sleeps.waits == [7.0, 7.0]


async def test_page_refusals_are_not_reported_as_key_problems(
    api: Any, sleeps: Any, kit: Any
) -> None:
    api.on("example.com", httpx.Response(403, html="<h1>Forbidden</h1>"))
    handler, _ = build(api, sleeps, kit)
    with pytest.raises(SearchError, match="refused access") as caught:
        await handler.aretrieve("https://example.com/private")
    await handler.aclose()
    assert caught.value.code is ErrorCode.PROVIDER_ERROR and not caught.value.retryable


async def test_jina_error_envelope_with_status_200(api: Any, sleeps: Any, kit: Any) -> None:
    body = {
        "data": None,
        "code": 403,
        "name": "AbuseAlleviationError",
        "status": 40305,
        "message": "Domain blocked",
        "readableMessage": "AbuseAlleviationError: Domain blocked",
    }
    api.on("r.jina.ai", httpx.Response(200, json=body))
    handler, _ = build(api, sleeps, kit, jina={"enabled": True})
    with pytest.raises(SearchError, match="Domain blocked") as caught:
        await handler.aretrieve("https://example.com/")
    await handler.aclose()
    assert caught.value.code is ErrorCode.PROVIDER_ERROR and caught.value.provider == "jina"


async def test_jina_quota_is_not_retried(api: Any, sleeps: Any, kit: Any) -> None:
    body = {
        "data": None,
        "code": 402,
        "name": "InsufficientBalanceError",
        "status": 40203,
        "message": "Account balance not enough",
    }
    api.on("r.jina.ai", httpx.Response(402, json=body))
    handler, _ = build(api, sleeps, kit, jina={"enabled": True})
    with pytest.raises(SearchError) as caught:
        await handler.aretrieve("https://example.com/")
    await handler.aclose()
    assert caught.value.code is ErrorCode.QUOTA_EXCEEDED and len(api.requests) == 1


def test_retrieve_sync_twin(api: Any, sleeps: Any, kit: Any) -> None:
    api.on("example.com", httpx.Response(200, html="<p>sync</p>"))
    handler, _ = build(api, sleeps, kit)
    assert handler.retrieve("https://example.com/").content == "sync"


def test_public_address_classification() -> None:
    assert is_public("8.8.8.8") and is_public("2606:4700:4700::1111")
    for private in ("172.16.0.1", "100.64.0.1", "fe80::1%eth0", "fd00::1", "224.0.0.1", "::"):
        assert not is_public(private)


def test_html_to_text_handles_unclosed_and_nested_markup() -> None:
    title, text = html_to_text("<title>T</title><div>a<div>b<script>x</script></div>c<br>d")
    assert title == "T" and text == "a\nb\nc\nd"
