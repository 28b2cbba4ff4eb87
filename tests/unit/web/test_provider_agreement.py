"""Which providers agreed on a page: kept through fusion and deduplication, shown on each line."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx

from unified_search.cli.render import markdown, where
from unified_search.dedup import dedup
from unified_search.engine.searcher import Searcher
from unified_search.policy.synthesis import line, synthesize
from unified_search.types import ResultItem

SHARED = "https://docs.rs/tokio/latest/tokio/"


def exa_with_the_shared_page(kit: Any) -> httpx.Response:
    """Exa's recorded answer, with one of Brave's pages among its results."""
    body = kit.exchange("exa_search_success")["response"]
    body["results"][1]["url"] = SHARED
    return httpx.Response(200, json=body)


async def test_a_page_both_providers_found_says_so_on_its_line(
    kit: Any, api: Any, keys: dict[str, str], make_handler: Callable[..., Any]
) -> None:
    config = kit.web_config(["brave", "exa"])
    api.on(kit.HOSTS["brave"], kit.replay("brave_search_success"))
    api.on(kit.HOSTS["exa"], exa_with_the_shared_page(kit))
    async with Searcher(config, handlers={"web": make_handler(config)}) as searcher:
        response = await searcher.asearch({"query": "rust async runtime"})
    shared = next(item for item in response.items if item.url == SHARED)
    assert shared.metadata["providers"] == ["brave", "exa"]
    assert "[brave, exa]" in line(shared, 1)
    alone = next(item for item in response.items if item.url != SHARED)
    assert line(alone, 2).count("[") == 2 and (
        "[brave]" in line(alone, 2) or "[exa]" in line(alone, 2)
    )
    assert "[brave, exa]" in synthesize(response.items[:5])
    reference = next(ref for ref in response.references if ref.url == SHARED)
    assert where(reference) == f"{SHARED} [brave, exa]"
    assert f"<{SHARED}> [brave, exa]" in markdown(response)


def test_copies_from_two_searches_keep_every_provider() -> None:
    first = ResultItem(type="web", url=SHARED, score=0.9, metadata={"providers": ["brave"]})
    second = ResultItem(
        type="web",
        url=SHARED + "?utm_source=x",
        score=0.5,
        metadata={"providers": ["exa", "brave"]},
    )
    [kept] = dedup([first, second])
    assert kept.metadata["providers"] == ["brave", "exa"] and kept.score == 0.9
    [again] = dedup([second, first])
    assert again.metadata["providers"] == ["brave", "exa"]
    kb = ResultItem(type="kb", document_id="d", collection="c")
    assert dedup([kb, kb]) == [kb]
