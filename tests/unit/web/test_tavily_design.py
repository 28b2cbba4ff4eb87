"""Tavily as the browser design uses it: images with descriptions, and Tavily's minimums."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from unified_search.types import SearchRequest
from unified_search.web.provider import CallSettings
from unified_search.web.tavily import MIN_QUERY_CHARS, MIN_RESULTS, Tavily


def body(request: SearchRequest, settings: CallSettings) -> dict[str, Any]:
    return dict(json.loads(Tavily().build_request(request, settings).content))


@pytest.mark.parametrize("limit", [1, 3, 5, 12, 50])
def test_at_least_five_results_are_asked_for(limit: int) -> None:
    sent = body(SearchRequest(query="heat pumps"), CallSettings(limit=limit, api_key="k"))
    assert sent["max_results"] == min(max(limit, MIN_RESULTS), 20)


@pytest.mark.parametrize(
    ("query", "sent"), [("Go", "Go..."), ("k8s", "k8s.."), ("rust", "rust."), ("tokio", "tokio")]
)
def test_short_queries_are_padded_to_tavilys_minimum(query: str, sent: str) -> None:
    assert body(SearchRequest(query=query), CallSettings(limit=5, api_key="k"))["query"] == sent
    assert len(sent) >= MIN_QUERY_CHARS


@pytest.mark.parametrize(
    ("fields", "settings", "images", "described"),
    [
        ({}, {}, False, False),
        ({}, {"images": True, "image_descriptions": True}, True, True),  # the default for Tavily
        ({"include_images": True}, {}, True, False),
        ({"include_image_descriptions": True}, {}, True, True),
        ({}, {"images": True}, True, False),
        ({}, {"image_descriptions": True}, False, False),
    ],
)
def test_images_and_descriptions_when_asked_or_set(
    fields: dict[str, Any], settings: dict[str, Any], images: bool, described: bool
) -> None:
    sent = body(
        SearchRequest(query="heat pumps", **fields), CallSettings(limit=5, api_key="k", **settings)
    )
    assert (sent["include_images"], sent["include_image_descriptions"]) == (images, described)


async def test_the_default_configuration_brings_images_with_descriptions_and_keeps_the_limit(
    kit: Any, api: Any, keys: dict[str, str], make_handler: Callable[..., Any]
) -> None:
    recorded = kit.exchange("tavily_search_success")["response"]
    recorded["images"] = [
        {"url": "https://img.example/heat-pump.png", "description": "An outdoor heat pump unit."}
    ]
    sent: list[dict[str, Any]] = []

    def answer(request: httpx.Request) -> httpx.Response:
        sent.append(json.loads(request.content))
        return httpx.Response(200, json=recorded)

    api.on(kit.HOSTS["tavily"], answer)
    config = kit.web_config(["tavily"])
    handler = make_handler(config)
    result = await handler.asearch(SearchRequest(query="heat pumps", limit=2), kit.context(config))
    await handler.aclose()
    assert sent[0]["include_images"] is True and sent[0]["include_image_descriptions"] is True
    assert sent[0]["max_results"] == MIN_RESULTS and len(result.items) == 2
    [image] = result.metadata["extras"]["images"]
    assert image["description"] == "An outdoor heat pump unit."
