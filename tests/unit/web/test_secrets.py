"""A server that echoes the request back never gets a key into an error, an event, a log or a record."""

from __future__ import annotations

import base64
import html
import json
import logging
import re
from pathlib import Path
from typing import Any
from urllib.parse import quote, quote_plus

import httpx
import pytest

from unified_search.auth import RedactingFilter, Secret, redact
from unified_search.config import SearchConfig
from unified_search.engine.searcher import Searcher
from unified_search.errors import SearchError
from unified_search.http import HttpClient, RetryPolicy, excerpt
from unified_search.kb.openai_embedding import OpenAIEmbedding
from unified_search.records.store import SearchStore
from unified_search.rerank.remote import RemoteReranker
from unified_search.types import ResultItem
from unified_search.web.handler import WebHandler

SECRETS = {
    "TAVILY_API_KEY": "tvly-echo-secret-0001",
    "SERPER_API_KEY": "serper-echo-secret-0002",
    "SERPAPI_API_KEY": "serpapi/echo secret+0003",  # characters that URL-encoding changes
    "BRAVE_API_KEY": "brave-echo-secret-0004",
    "EXA_API_KEY": "exa-echo-secret-0005",
    "JINA_API_KEY": "jina-echo-secret-0006",
    "COHERE_API_KEY": "cohere-echo-secret-0007",
    "OPENAI_API_KEY": "sk-echo-secret-0008",
}


def echo(status: int) -> httpx.MockTransport:
    """Answer with every header and the full URL, as a JSON error message or as plain text."""

    def handler(request: httpx.Request) -> httpx.Response:
        seen = f"{request.method} {request.url} " + " ".join(
            f"{k}: {v}" for k, v in request.headers.items()
        )
        seen += " body: " + request.content.decode(errors="replace")
        if status == 200:
            return httpx.Response(200, text="<html><body>" + seen + "</body></html>")
        return httpx.Response(status, json={"message": seen, "detail": seen})

    return httpx.MockTransport(handler)


@pytest.fixture
def secrets(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    for name, value in SECRETS.items():
        monkeypatch.setenv(name, value)
    return SECRETS


def leaked(text: str) -> list[str]:
    """The secrets (or their first half) found in ``text``."""
    return [v for v in SECRETS.values() if v in text or v[: len(v) // 2 + 2] in text]


@pytest.mark.parametrize("status", [401, 500, 200])
@pytest.mark.parametrize("provider", ["tavily", "serper", "serpapi", "brave", "exa", "searxng"])
async def test_no_web_provider_error_event_log_or_record_holds_a_key(
    provider: str,
    status: int,
    secrets: dict[str, str],
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    kit: Any,
) -> None:
    caplog.set_level(logging.DEBUG)
    config = kit.web_config([provider], retries=0)
    events: list[Any] = []
    store = SearchStore(f"sqlite:///{tmp_path / 'records.sqlite3'}")
    handler = WebHandler(config, transport=echo(status), cache=None)
    async with Searcher(config, handlers={"web": handler}, store=store, sinks=[events.append]) as s:
        response = await s.asearch({"query": "what is my key"})
    failure = response.results[0].error
    assert failure is not None, "the echo must fail the search"
    records = [r.model_dump_json() for r in store.get_searches(response.request_id)]
    texts = [
        failure.message,
        response.model_dump_json(),
        json.dumps([e.model_dump(mode="json") for e in events], default=str),
        caplog.text,
        *records,
    ]
    assert records
    for text in texts:
        assert leaked(text) == []
    store.close()


@pytest.mark.parametrize("status", [401, 500, 200])
async def test_the_reader_through_jina_never_shows_its_key(
    status: int, secrets: dict[str, str], kit: Any
) -> None:
    config = kit.web_config([], reader={"jina": {"enabled": True}}, retries=0)
    handler = WebHandler(config, transport=echo(status), cache=None)
    try:
        item = await handler.aretrieve("https://example.com/page")
        text = item.model_dump_json()  # a 200 echo is "content": still no key in it
    except SearchError as error:
        text = str(error) + repr(error)
    await handler.aclose()
    assert leaked(text) == []


@pytest.mark.parametrize("status", [401, 429, 500, 200])
@pytest.mark.parametrize("provider", ["cohere", "jina"])
async def test_rerank_errors_never_show_the_key(
    provider: Any, status: int, secrets: dict[str, str]
) -> None:
    config = SearchConfig()
    section = config.rerank.cohere if provider == "cohere" else config.rerank.jina
    http = HttpClient(transport=echo(status), sleep=_no_wait)
    reranker = RemoteReranker(provider, section, http=http)
    with pytest.raises(SearchError) as caught:
        await reranker.arerank("q", [ResultItem(type="kb", content="a")])
    await http.aclose()
    assert leaked(str(caught.value)) == [] and "<html>" not in caught.value.message
    assert len(caught.value.message) <= 240  # an excerpt of at most 200 characters, and its label


@pytest.mark.parametrize("status", [401, 500, 200])
def test_embedding_errors_never_show_the_key(status: int, secrets: dict[str, str]) -> None:
    embed = OpenAIEmbedding("m", api_key=Secret.from_env("OPENAI_API_KEY"), transport=echo(status))
    embed._http.policy = embed._http.policy.__class__(retries=0)
    with pytest.raises(SearchError) as caught:
        embed(["x"])
    embed.close()
    assert leaked(str(caught.value)) == []


def test_redaction_covers_url_encoded_forms_and_log_records() -> None:
    key = Secret.from_token("a key/with+odd chars").resolve()
    assert redact(f"?api_key=a%20key%2Fwith%2Bodd%20chars and {key}") == "?api_key=*** and ***"
    record = logging.LogRecord(
        "httpx", logging.INFO, __file__, 1, "GET %s", ("x?k=a+key%2Fwith%2Bodd+chars",), None
    )
    RedactingFilter().filter(record)
    assert record.getMessage() == "GET x?k=***"
    assert RedactingFilter() in logging.getLogger("httpx").filters or any(
        isinstance(f, RedactingFilter) for f in logging.getLogger("httpx").filters
    )


def test_error_excerpts_are_short_plain_text() -> None:
    page = (
        "<html><head><style>p{}</style><script>x()</script></head><body><h1>Bad&amp;Gateway</h1>"
        + "z" * 900
    )
    text = excerpt(page)
    assert text.startswith("Bad&Gateway") and "<" not in text and len(text) == 200


async def _no_wait(seconds: float) -> None:
    return None


#: Keys with the characters that escaping changes, for every remote API at once.
ODD_KEYS = {
    "TAVILY_API_KEY": "tvly/odd+key 0101",
    "SERPER_API_KEY": "serper/odd+key 0102",
    "SERPAPI_API_KEY": "serpapi/odd+key 0103",
    "BRAVE_API_KEY": "brave/odd+key 0104",
    "EXA_API_KEY": "exa/odd+key 0105",
    "JINA_API_KEY": "jina/odd+key 0106",
    "COHERE_API_KEY": "cohere/odd+key 0107",
    "OPENAI_API_KEY": "sk-odd/key+0108",
}
SEARX_PASSWORD = "searx-basic-pass-0109"
FORMS = ["raw", "html", "json", "lower-url", "basic"]


def echo_in(form: str, status: int) -> httpx.MockTransport:
    """Echo the request (URL, every header, body) back, escaped the way ``form`` says."""

    def handler(request: httpx.Request) -> httpx.Response:
        seen = f"{request.url} " + " ".join(f"{k}: {v}" for k, v in request.headers.items())
        seen += " " + request.content.decode(errors="replace")
        if form == "html":
            text = html.escape(seen).replace("/", "&#x2F;").replace("+", "&#43;")
            return httpx.Response(status, html=f"<html><body><pre>{text}</pre></body></html>")
        if form == "json":
            escaped = json.dumps({"message": seen}).replace("/", "\\/")
            return httpx.Response(
                status, text=escaped, headers={"Content-Type": "application/json"}
            )
        if form == "lower-url":
            return httpx.Response(status, text=re.sub("%[0-9A-F]{2}", lambda m: m[0].lower(), seen))
        return httpx.Response(status, text=seen)

    return httpx.MockTransport(handler)


def odd_leaks(text: str) -> list[str]:
    basic = base64.b64encode(f"user:{SEARX_PASSWORD}".encode()).decode()
    values = [*ODD_KEYS.values(), SEARX_PASSWORD, basic]
    forms = [
        f
        for v in values
        for f in {v, quote(v, safe=""), quote(v, safe="").lower(), quote_plus(v), v.split("/")[0]}
        if len(f) >= 8
    ]
    return [f for f in forms if f in text]


@pytest.mark.parametrize("status", [401, 503])
@pytest.mark.parametrize("form", FORMS)
async def test_echoed_keys_in_any_escaping_reach_no_error_event_log_or_record(
    form: str,
    status: int,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Every provider at once, and a SearXNG behind basic auth (its password is a key too)."""
    for name, value in ODD_KEYS.items():
        monkeypatch.setenv(name, value)
    caplog.set_level(logging.DEBUG)
    providers = ["tavily", "serper", "serpapi", "brave", "exa", "searxng"]
    searx = f"https://user:{SEARX_PASSWORD}@searx.example"
    config = SearchConfig.load(
        profile={"web": {"providers": providers, "retries": 0, "searxng": {"base_url": searx}}}
    )
    events: list[Any] = []
    store = SearchStore(f"sqlite:///{tmp_path / 'records.sqlite3'}")
    handler = WebHandler(config, transport=echo_in(form, status), cache=None)
    async with Searcher(config, handlers={"web": handler}, store=store, sinks=[events.append]) as s:
        response = await s.asearch({"query": "what is my key"})
        records = [r.model_dump_json() for r in store.get_searches(response.request_id)]
    failure = response.results[0].error
    assert failure is not None and all(p in failure.message for p in providers)
    texts = [
        failure.message,
        repr(handler.http),
        response.model_dump_json(),
        json.dumps([e.model_dump(mode="json") for e in events], default=str),
        caplog.text,
        *records,
    ]
    assert records
    for text in texts:
        assert odd_leaks(text) == []
    store.close()


@pytest.mark.parametrize("form", FORMS)
async def test_rerank_embedding_and_reader_echoes_in_any_escaping_hide_the_key(
    form: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in ODD_KEYS.items():
        monkeypatch.setenv(name, value)
    config = SearchConfig.load(
        profile={"web": {"retries": 0, "reader": {"jina": {"enabled": True}}}}
    )
    messages: list[str] = []
    http = HttpClient(transport=echo_in(form, 401), policy=RetryPolicy(retries=0))
    for provider in ("cohere", "jina"):
        section = config.rerank.cohere if provider == "cohere" else config.rerank.jina
        with pytest.raises(SearchError) as caught:
            await RemoteReranker(provider, section, http=http).arerank("q", [ResultItem(type="kb")])
        messages.append(str(caught.value))
    embed = OpenAIEmbedding("m", api_key=Secret.from_env("OPENAI_API_KEY"), http=http)
    with pytest.raises(SearchError) as embedded:
        await embed.aembed(["x"])
    messages.append(str(embedded.value))
    reader = WebHandler(config, http=http, cache=None)
    with pytest.raises(SearchError) as read:
        await reader.aretrieve("https://example.com/page")
    messages.append(str(read.value))
    await http.aclose()
    for message in messages:
        assert odd_leaks(message) == [] and "<" not in message and len(message) < 300
