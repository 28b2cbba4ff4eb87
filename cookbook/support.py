"""What the cookbook notebooks share: the live web when keys are set, recorded answers when not.

Offline, the web handler gets an ``httpx.MockTransport`` that replays recorded
exchanges (cassettes: the request, the status and the response of a real API
call, secrets removed): the cookbook's own in ``_support/``, and, for Exa, one
of the test suite's in ``tests/fixtures/web/``. A DNS resolver gives every host
one public address, so the URL reader's SSRF guard has something real to check.
Nothing leaves the machine.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import httpx

from unified_search.config import SearchConfig
from unified_search.web.handler import WebHandler

HERE = Path(__file__).resolve().parent
#: The recorded exchange replayed for each host.
CASSETTES = {
    "api.tavily.com": HERE / "_support" / "tavily_search_headphones.json",
    "api.search.brave.com": HERE / "_support" / "brave_search_headphones.json",
    "www.soundcheck-reviews.net": HERE / "_support" / "page_aurora_review.json",
    # A cassette of the test suite, recorded for another question (vector databases).
    "api.exa.ai": HERE.parent / "tests" / "fixtures" / "web" / "exa_search_success.json",
}
#: Providers with a recorded answer; offline, those without a key get a placeholder.
RECORDED_PROVIDERS = ("tavily", "brave", "exa")
#: Stands in for a missing key; the mock transport never sends it anywhere.
PLACEHOLDER_KEY = "recorded-responses-only"


def replay(path: Path) -> httpx.Response:
    """The response of one recorded exchange."""
    exchange = json.loads(path.read_text(encoding="utf-8"))
    headers = exchange.get("response_headers", {})
    body = exchange["response"]
    if isinstance(body, str):
        return httpx.Response(exchange["status"], text=body, headers=headers)
    return httpx.Response(exchange["status"], json=body, headers=headers)


class RecordedWeb:
    """A ``MockTransport`` handler replaying the cassettes; ``requests`` lists what was asked."""

    def __init__(self) -> None:
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        cassette = CASSETTES.get(request.url.host)
        if cassette is None or not cassette.exists():
            return httpx.Response(404, text=f"no recorded answer for {request.url.host}")
        return replay(cassette)


async def public_dns(host: str, port: int) -> list[str]:
    """Resolve every host to one public address, offline."""
    return ["93.184.215.14"]


def web_handler(config: SearchConfig, recorder: RecordedWeb | None = None) -> WebHandler:
    """The live web handler when the recorded providers have their keys, else recorded answers.

    Providers without a cassette are left as they are: offline they fail like any
    provider would (here: no API key), without stopping the others. Pass a
    ``recorder`` to see, offline, which requests reached the (mock) network.
    """
    recorded = [name for name in config.web.providers if name in RECORDED_PROVIDERS]
    secrets = [config.web.provider_settings(name).api_key_env for name in recorded]
    keys = [secret.env for secret in secrets if secret is not None]
    missing = [key for key in keys if key and not os.environ.get(key)]
    if not missing:
        print(f"API keys found: searching the live web with {', '.join(config.web.providers)}")
        return WebHandler(config)
    print(f"No {' / '.join(missing)} set: using recorded responses (nothing leaves this machine)")
    for key in missing:
        os.environ[key] = PLACEHOLDER_KEY
    transport = httpx.MockTransport(recorder or RecordedWeb())
    return WebHandler(config, transport=transport, resolver=public_dns)
