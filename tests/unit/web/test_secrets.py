"""A server that echoes the request back never gets a key into an error, an event, a log or a record."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import httpx
import pytest

from unified_search.auth import RedactingFilter, Secret, redact
from unified_search.config import SearchConfig
from unified_search.errors import SearchError
from unified_search.http import HttpClient, excerpt
from unified_search.kb.openai_embedding import OpenAIEmbedding
from unified_search.rerank.remote import RemoteReranker
from unified_search.searcher import Searcher
from unified_search.store import SearchStore
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
