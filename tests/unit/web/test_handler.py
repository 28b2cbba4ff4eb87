"""The web handler: fan-out and merging, failures, modes, keywords, cache, and the Searcher."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest
from pydantic import ValidationError

from unified_search.config import SearchConfig
from unified_search.contract.delegates import Delegates
from unified_search.engine.searcher import Searcher
from unified_search.errors import ErrorCode, SearchError
from unified_search.types import ResultItem, SearchRequest
from unified_search.web.cache import MemoryCache, SQLiteCache
from unified_search.web.handler import WebHandler

pytestmark = pytest.mark.usefixtures("keys")

TAVILY = "api.tavily.com"
EXA = "api.exa.ai"
BRAVE = "api.search.brave.com"


def page(url: str, content: str, score: float | None = None) -> dict[str, Any]:
    raw: dict[str, Any] = {
        "url": url,
        "title": url.rsplit("/", 1)[-1],
        "content": content,
        "text": content,
    }
    if score is not None:
        raw["score"] = score
    return raw


async def run(
    handler: WebHandler,
    kit: Any,
    config: Any,
    request: SearchRequest | None = None,
    delegates: Delegates | None = None,
) -> Any:
    try:
        return await handler.asearch(
            request or SearchRequest(query="heat pumps"), kit.context(config, delegates)
        )
    finally:
        await handler.aclose()


async def test_providers_are_merged_by_canonical_url(api: Any, kit: Any, make_handler: Any) -> None:
    api.on(
        TAVILY,
        httpx.Response(
            200,
            json={
                "results": [
                    page("https://www.shared.org/guide?utm_source=tavily", "short", 0.9),
                    page("https://only-tavily.org/a", "tavily only", 0.5),
                ]
            },
        ),
    )
    api.on(
        EXA,
        httpx.Response(
            200,
            json={
                "results": [
                    page(
                        "http://shared.org/guide/", "a much longer snippet of the shared page", 0.4
                    ),
                ]
            },
        ),
    )
    config = kit.web_config(["tavily", "exa"])
    result = await run(make_handler(config), kit, config)
    assert [i.url for i in result.items] == [
        "https://www.shared.org/guide",
        "https://only-tavily.org/a",
    ]
    shared = result.items[0]
    assert shared.metadata["providers"] == ["tavily", "exa"]
    assert shared.score == 0.9
    assert shared.content == "a much longer snippet of the shared page"
    assert result.failures == [] and result.total == 2
    assert sorted(api.hosts()) == [EXA, TAVILY]


async def test_one_failing_provider_never_blocks_the_others(
    api: Any, kit: Any, make_handler: Any
) -> None:
    api.on(TAVILY, kit.replay("tavily_invalid_key"))
    api.on(BRAVE, kit.replay("brave_search_success"))
    config = kit.web_config(["tavily", "brave"])
    result = await run(make_handler(config), kit, config)
    assert len(result.items) == 4 and result.ok
    (failure,) = result.failures
    assert failure.provider == "tavily" and failure.code is ErrorCode.INVALID_API_KEY


async def test_every_provider_failing_raises_the_most_informative_error(
    api: Any, kit: Any, make_handler: Any
) -> None:
    api.on(TAVILY, httpx.Response(503, text="down"))
    api.on(BRAVE, kit.replay("brave_invalid_key"))
    config = kit.web_config(["tavily", "brave"])
    with pytest.raises(SearchError) as caught:
        await run(make_handler(config), kit, config)
    assert caught.value.code is ErrorCode.INVALID_API_KEY and caught.value.provider == "brave"
    assert "tavily" in caught.value.message and "brave" in caught.value.message


async def test_missing_key_fails_without_sending_anything(
    api: Any, kit: Any, make_handler: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("EXA_API_KEY")
    api.on(TAVILY, kit.replay("tavily_search_success"))
    config = kit.web_config(["exa", "tavily"])
    result = await run(make_handler(config), kit, config)
    assert [f.code for f in result.failures] == [ErrorCode.NO_API_KEY]
    assert "EXA_API_KEY" in result.failures[0].message
    assert api.hosts() == [TAVILY]


async def test_unknown_provider_lists_valid_names_before_any_request(
    api: Any, kit: Any, make_handler: Any
) -> None:
    config = kit.web_config(["tavily"])
    request = SearchRequest(query="q", options={"providers": ["tavily", "bing"]})
    with pytest.raises(SearchError) as caught:
        await run(make_handler(config), kit, config, request)
    assert caught.value.code is ErrorCode.UNSUPPORTED
    assert "'bing'" in caught.value.message and "searxng" in caught.value.message
    assert api.requests == []


async def test_no_configured_provider_is_a_clear_error(
    api: Any, kit: Any, make_handler: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without providers, keys or a SearXNG URL, the error names every variable to set."""
    for name in kit_keys():
        monkeypatch.delenv(name, raising=False)
    config = SearchConfig.load(profile={"web": {"providers": []}})
    with pytest.raises(SearchError, match=r"web\.providers") as caught:
        await run(make_handler(config), kit, config)
    for variable in (*kit_keys(), "SEARXNG_URL"):
        assert variable in caught.value.message
    assert caught.value.code is ErrorCode.UNSUPPORTED
    assert api.requests == []


def kit_keys() -> tuple[str, ...]:
    return ("TAVILY_API_KEY", "SERPER_API_KEY", "BRAVE_API_KEY", "EXA_API_KEY", "SERPAPI_API_KEY")


async def test_request_can_override_the_providers(api: Any, kit: Any, make_handler: Any) -> None:
    api.on("searx.test", kit.replay("searxng_search_success"))
    config = kit.web_config(["tavily"])
    result = await run(
        make_handler(config),
        kit,
        config,
        SearchRequest(query="q", options={"providers": "searxng"}),
    )
    assert api.hosts() == ["searx.test"] and len(result.items) == 4


def test_bad_requests_are_validation_errors_naming_the_field() -> None:
    for bad, field in [
        ({"query": "   "}, "query"),
        ({"query": "q", "limit": 0}, "limit"),
        ({"query": "q", "limit": 1000}, "limit"),
        ({"query": "q", "time_range": "decade"}, "time_range"),
    ]:
        with pytest.raises(ValidationError) as caught:
            SearchRequest.model_validate(bad)
        assert caught.value.errors()[0]["loc"] == (field,)


async def test_limit_truncates_the_merged_list(api: Any, kit: Any, make_handler: Any) -> None:
    api.on("searx.test", kit.replay("searxng_search_success"))
    config = kit.web_config(["searxng"])
    result = await run(make_handler(config), kit, config, SearchRequest(query="q", limit=2))
    assert len(result.items) == 2


async def test_cache_hit_sends_nothing_and_errors_are_not_cached(
    api: Any, kit: Any, make_handler: Any
) -> None:
    api.on(
        TAVILY,
        httpx.Response(500, text="boom"),
        httpx.Response(500, text="boom"),
        httpx.Response(500, text="boom"),
        kit.replay("tavily_search_success"),
    )
    config = kit.web_config(["tavily"], retries=2)
    handler = make_handler(config, cache=MemoryCache(ttl=60, max_entries=10))
    ctx = kit.context(config)
    with pytest.raises(SearchError):
        await handler.asearch(SearchRequest(query="Heat Pumps"), ctx)
    first = await handler.asearch(SearchRequest(query="Heat Pumps"), ctx)
    second = await handler.asearch(SearchRequest(query="  heat   pumps "), ctx)
    other = SearchRequest(query="heat pumps", time_range="day")
    await handler.asearch(other, ctx)
    await handler.aclose()
    assert first.items == second.items and len(first.items) == 4
    assert len(api.requests) == 5  # 3 failed attempts, 1 success, 1 for the different time range


async def test_keywords_from_the_keyword_agent_are_sent_and_recorded(
    api: Any, kit: Any, make_handler: Any
) -> None:
    seen: list[Any] = []

    def extract(payload: dict[str, Any]) -> list[str]:
        seen.append(payload)
        return ["heat", "pumps", "cold"]

    api.on(TAVILY, kit.replay("tavily_search_success"))
    config = kit.web_config(["tavily"]).merged({"uses": {"keyword": "kw"}})
    request = SearchRequest(query="how do heat pumps work in the cold?", source="auto")
    result = await run(make_handler(config), kit, config, request, Delegates({"kw": extract}))
    assert result.keywords == ["heat", "pumps", "cold"]
    assert seen[0]["query"] == request.query
    assert json.loads(api.requests[0].content)["query"] == "heat pumps cold"
    assert result.query == request.query and result.metadata["query_sent"] == "heat pumps cold"


async def test_builtin_keyword_extractor_drops_question_words(
    api: Any, kit: Any, make_handler: Any
) -> None:
    api.on(TAVILY, kit.replay("tavily_search_success"))
    config = kit.web_config(["tavily"]).merged({"uses": {"keyword": "builtin"}})
    request = SearchRequest(query="how do heat pumps work in cold climates?", source="auto")
    result = await run(make_handler(config), kit, config, request)
    assert {"heat", "pumps", "cold"} <= set(result.keywords)
    assert "how" not in result.keywords
    sent = json.loads(api.requests[0].content)["query"]
    assert sent == " ".join(result.keywords) and sent != request.query


async def test_keywords_are_skipped_when_the_request_says_so(
    api: Any, kit: Any, make_handler: Any
) -> None:
    api.on(TAVILY, kit.replay("tavily_search_success"))
    config = kit.web_config(["tavily"]).merged({"uses": {"keyword": "kw"}})
    request = SearchRequest(query="raw query", use_keywords=False, source="auto")
    result = await run(
        make_handler(config), kit, config, request, Delegates({"kw": lambda p: ["x"]})
    )
    assert result.keywords == [] and result.metadata["query_sent"] == "raw query"


async def test_agent_mode_validates_what_the_agent_returns(
    api: Any, kit: Any, make_handler: Any
) -> None:
    received: list[dict[str, Any]] = []

    async def agent(payload: dict[str, Any]) -> dict[str, Any]:
        received.append(payload)
        return {
            "items": [
                {
                    "title": "A",
                    "link": "https://a.org/x?fbclid=1",
                    "snippet": "about a",
                    "source": "planner",
                },
                ResultItem(
                    type="web", title="B", url="https://b.org/", content="about b", score=0.3
                ),
            ]
        }

    config = kit.web_config([]).merged({"uses": {"web": "planner"}})
    request = SearchRequest(query="q", limit=5, sites=["a.org", "b.org"], time_range="week")
    result = await run(make_handler(config), kit, config, request, Delegates({"planner": agent}))
    sites = ["a.org", "b.org"]
    assert received == [{"query": "q", "limit": 5, "sites": sites, "time_range": "week"}]
    assert [i.url for i in result.items] == ["https://a.org/x", "https://b.org/"]
    assert result.items[0].score == 1.0 and result.items[0].metadata["origin"] == "planner"
    assert result.items[1].metadata["providers"] == ["planner"]
    assert api.requests == []


@pytest.mark.parametrize(
    "output",
    ["just text", [{"score": "high", "url": "https://x.org"}], [{}], [42], {"items": "nope"}],
)
async def test_agent_mode_rejects_bad_output(output: Any, kit: Any, make_handler: Any) -> None:
    config = kit.web_config([]).merged({"uses": {"web": "planner"}})
    with pytest.raises(SearchError) as caught:
        await run(make_handler(config), kit, config, None, Delegates({"planner": lambda p: output}))
    assert caught.value.code is ErrorCode.PROVIDER_ERROR and caught.value.provider == "planner"


async def test_agent_exceptions_become_provider_errors(kit: Any, make_handler: Any) -> None:
    def broken(payload: dict[str, Any]) -> Any:
        raise RuntimeError("planner crashed")

    config = kit.web_config([]).merged({"uses": {"web": "planner"}})
    with pytest.raises(SearchError, match="planner crashed") as caught:
        await run(make_handler(config), kit, config, None, Delegates({"planner": broken}))
    assert caught.value.code is ErrorCode.PROVIDER_ERROR


async def test_searcher_end_to_end_with_citations(api: Any, kit: Any, make_handler: Any) -> None:
    api.on(TAVILY, kit.replay("tavily_search_success"))
    api.on(BRAVE, kit.replay("brave_rate_limited"))
    config = kit.web_config(["tavily", "brave"], retries=0)
    async with Searcher(config, handlers={"web": make_handler(config)}) as searcher:
        response = await searcher.asearch({"query": "how do heat pumps work in cold climates"})
    (result,) = response.results
    assert result is not None and result.ok
    assert [f.code for f in result.failures] == [ErrorCode.RATE_LIMITED]
    assert [i.citation_id for i in response.items] == ["ref_001", "ref_002", "ref_003", "ref_004"]
    assert "northfieldenergy.org" in response.context.xml


def test_searcher_sync_twin_and_async_caller_use_separate_clients(
    api: Any, kit: Any, make_handler: Any
) -> None:
    api.on(TAVILY, kit.replay("tavily_search_success"))
    config = kit.web_config(["tavily"])
    handler = make_handler(config)
    searcher = Searcher(config, handlers={"web": handler})
    sync_response = searcher.search({"query": "sync"})
    async_response = asyncio.run(searcher.asearch({"query": "async"}))
    assert len(sync_response.items) == len(async_response.items) == 4
    assert len(handler.http._states) == 1  # the asyncio.run loop is closed and forgotten
    searcher.close()
    assert len(handler.http._states) == 0


async def test_from_config_builds_the_configured_cache(kit: Any) -> None:
    handler = WebHandler.from_config(kit.web_config(["tavily"]))
    assert isinstance(handler.cache, SQLiteCache)  # persistent by default
    await handler.aclose()
    memory = WebHandler.from_config(kit.web_config(["tavily"], cache={"backend": "memory"}))
    assert isinstance(memory.cache, MemoryCache)
    await memory.aclose()
    off = WebHandler.from_config(kit.web_config(["tavily"], cache={"enabled": False}))
    assert off.cache is None
    await off.aclose()


@pytest.mark.parametrize(
    ("sites", "exclude", "kept"),
    [
        (["a.org"], [], ["https://a.org/x", "https://docs.a.org/y"]),
        ([], ["a.org"], ["https://b.org/", "https://notb.org/"]),
        (["b.org"], ["docs.a.org"], ["https://b.org/"]),
    ],
)
async def test_results_outside_the_sites_asked_are_dropped(
    kit: Any, make_handler: Any, sites: list[str], exclude: list[str], kept: list[str]
) -> None:
    """Providers and agents take sites as a hint; the handler makes the restriction hold."""
    urls = ["https://a.org/x", "https://b.org/", "https://docs.a.org/y", "https://notb.org/"]

    async def agent(payload: dict[str, Any]) -> list[dict[str, Any]]:
        return [{"title": url, "url": url, "content": "text"} for url in urls]

    config = kit.web_config([]).merged({"uses": {"web": "planner"}})
    lines: list[str] = []

    async def log(level: Any, message: str) -> None:
        lines.append(message)

    ctx = replace(kit.context(config, Delegates({"planner": agent})), log=log)
    request = SearchRequest(query="q", sites=sites, exclude_sites=exclude)
    handler = make_handler(config)
    result = await handler.asearch(request, ctx)
    await handler.aclose()
    assert [item.url for item in result.items] == kept
    assert f"dropped {len(urls) - len(kept)} result(s) outside the sites or dates asked" in lines


@pytest.mark.parametrize(
    ("asked", "kept"),
    [
        ({"time_range": "week"}, ["undated", "2026-07-08"]),
        ({"time_range": "year"}, ["undated", "2026-07-08", "2026-05-01"]),
        ({"start_date": "2026-05-01", "end_date": "2026-06-30"}, ["undated", "2026-05-01"]),
    ],
)
async def test_results_outside_the_dates_asked_are_dropped(
    kit: Any, make_handler: Any, asked: dict[str, str], kept: list[str]
) -> None:
    """A page dated outside the range goes, whatever the provider did; an undated one stays."""
    dates = ["2026-07-08", "2026-05-01", "2024-01-01"]

    async def agent(payload: dict[str, Any]) -> list[ResultItem]:
        dated = [
            ResultItem(
                type="web", url=f"https://a.org/{d}", title=d, metadata={"published_date": d}
            )
            for d in dates
        ]
        return [ResultItem(type="web", url="https://a.org/u", title="undated"), *dated]

    config = kit.web_config([]).merged({"uses": {"web": "planner"}})
    handler = make_handler(config, now=lambda: datetime(2026, 7, 10, tzinfo=UTC))
    request = SearchRequest(query="q", **asked)
    result = await handler.asearch(request, kit.context(config, Delegates({"planner": agent})))
    await handler.aclose()
    assert [item.title for item in result.items] == kept
