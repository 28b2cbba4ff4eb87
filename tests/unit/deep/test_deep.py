"""Deep search: intent → sub-queries → every source → one intent-aware ranking."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from unified_search.config import SearchConfig
from unified_search.contract.handler import SearchContext
from unified_search.engine.searcher import Searcher
from unified_search.nlp.intent import Intent
from unified_search.policy.deep import adeep_search, deep_search_info
from unified_search.policy.sources import default_types
from unified_search.types import ResultItem, SearchRequest, SearchResult, SearchType

YEAR = datetime.now(UTC).year


class Recorder:
    """A handler that answers each query with one item named after it."""

    def __init__(self, url: str | None = None) -> None:
        self.requests: list[SearchRequest] = []
        self.url = url

    async def asearch(self, request: SearchRequest, ctx: SearchContext) -> SearchResult:
        self.requests.append(request)
        slug = request.query.replace(" ", "-")
        item = ResultItem(
            type=request.type,
            title=request.query,
            url=f"{self.url}/{slug}" if self.url else None,
            document_id=None if self.url else slug,
            collection=None if self.url else "docs",
            score=0.5,
        )
        return SearchResult(type=request.type, query=request.query, items=[item])


async def test_every_sub_query_goes_to_every_type() -> None:
    web, kb = Recorder("https://github.com/x"), Recorder()
    async with Searcher(handlers={"web": web, "kb": kb}) as searcher:
        response = await adeep_search(searcher, "Postgres vs MySQL", types=["web", "kb"], top_n=20)
    expected = [
        "Postgres vs MySQL",
        "PostgreSQL vs MySQL",
        "PostgreSQL advantages",
        "MySQL advantages",
    ]
    assert [r.query for r in web.requests] == expected
    assert [r.query for r in kb.requests] == expected
    assert len(response.items) == 8
    assert {i.metadata["intent"] for i in response.items} == {"comparison"}


async def test_web_requests_get_the_intents_time_range() -> None:
    web, kb = Recorder("https://news.example"), Recorder()
    async with Searcher(handlers={"web": web, "kb": kb}) as searcher:
        await adeep_search(searcher, "Rust news", types=["web", "kb"])
    assert {r.time_range for r in web.requests} == {"week"}
    assert {r.time_range for r in kb.requests} == {None}
    assert f"Rust news this week {YEAR}" in [r.query for r in web.requests]


async def test_news_today_searches_one_day() -> None:
    web = Recorder("https://news.example")
    async with Searcher(handlers={"web": web}) as searcher:
        await adeep_search(searcher, "Rust news today", types=["web"])
    assert {r.time_range for r in web.requests} == {"day"}
    assert f"Rust news today {YEAR}" in [r.query for r in web.requests]


async def test_intent_and_sub_queries_are_recorded() -> None:
    web = Recorder("https://example.org")
    async with Searcher(handlers={"web": web}) as searcher:
        response = await adeep_search(searcher, "what is a vector database", types=["web"])
    info = deep_search_info(response)
    assert info is not None
    assert info.intent is Intent.FACTUAL
    assert info.sub_queries == [
        "what is a vector database",
        "vector database definition",
        "vector database explained",
    ]
    assert info.time_range is None
    assert [
        r.metadata["deep_search"]["sub_query"] for r in response.results if r
    ] == info.sub_queries


async def test_intent_reranker_orders_the_union() -> None:
    """The resource query ranks the GitHub page over a blog; items carry the intent signals."""

    class TwoSites:
        async def asearch(self, request: SearchRequest, ctx: SearchContext) -> SearchResult:
            items = [
                ResultItem(
                    type="web", title="FastAPI", url="https://someblog.net/fastapi", score=0.99
                ),
                ResultItem(
                    type="web", title="FastAPI", url="https://github.com/fastapi/fastapi", score=0.1
                ),
            ]
            return SearchResult(type=request.type, query=request.query, items=items)

    async with Searcher(handlers={"web": TwoSites()}) as searcher:
        response = await adeep_search(searcher, "FastAPI GitHub", types=["web"])
    assert [i.url for i in response.items] == [
        "https://github.com/fastapi/fastapi",
        "https://someblog.net/fastapi",
    ]
    assert response.items[0].citation_id == "ref_001"
    assert "rerank_signals" in response.items[0].metadata


async def test_request_options_apply_to_every_request_and_caller_reranker_wins() -> None:
    web = Recorder("https://example.org")
    async with Searcher(handlers={"web": web}) as searcher:
        response = await adeep_search(
            searcher, "quantum computing", types=["web"], limit=3, rerank={"uses": "rrf"}, top_n=2
        )
    assert {r.limit for r in web.requests} == {3}
    assert {r.rerank.uses for r in web.requests if r.rerank} == {"rrf"}
    assert len(response.items) == 2
    assert "intent" not in response.items[0].metadata


def test_default_types_follow_the_configuration() -> None:
    assert default_types(SearchConfig()) == [SearchType.WEB]
    config = SearchConfig.load(
        profile={"kb": {"collections": ["docs"]}, "db": {"url": "sqlite://"}}
    )
    assert default_types(config) == [SearchType.KB, SearchType.DB]


@pytest.mark.parametrize("query", ["", "   "])
async def test_empty_query_is_refused(query: str) -> None:
    async with Searcher(handlers={"web": Recorder("https://e.org")}) as searcher:
        with pytest.raises(ValueError, match="query must contain text"):
            await adeep_search(searcher, query)


async def test_unknown_type_is_refused() -> None:
    async with Searcher(handlers={"web": Recorder("https://e.org")}) as searcher:
        with pytest.raises(ValueError, match="'video' is not a valid SearchType"):
            await adeep_search(searcher, "rust", types=["video"])


def test_plain_search_has_no_deep_record() -> None:
    web = Recorder("https://e.org")
    with Searcher(handlers={"web": web}) as searcher:
        response = searcher.search({"query": "rust"})
    assert deep_search_info(response) is None


@pytest.mark.parametrize(
    "question", ["compare the Aurora and Studio Pro headphones", "monitors", "what is a refund"]
)
async def test_a_database_gets_only_the_question_asked(question: str) -> None:
    """Expansion's sub-queries ("Aurora advantages", "monitors ecosystem") are for text search."""
    web, kb, db = Recorder("https://e.org"), Recorder(), Recorder()
    async with Searcher(handlers={"web": web, "kb": kb, "db": db}) as searcher:
        response = await adeep_search(searcher, question, types=["web", "kb", "db"])
    info = deep_search_info(response)
    assert info is not None and len(info.sub_queries) > 1
    assert [r.query for r in db.requests] == [info.query]
    assert [r.query for r in kb.requests] == info.sub_queries == [r.query for r in web.requests]


async def test_queries_given_together_are_the_sub_queries_for_every_source() -> None:
    from unified_search.policy.modes import arun_mode

    kb, db = Recorder(), Recorder()
    given = ["Aurora price", "Studio Pro price"]
    async with Searcher(handlers={"kb": kb, "db": db}) as searcher:
        requests = [SearchRequest(query=q, type=t) for q in given for t in ("kb", "db")]  # type: ignore[arg-type]
        response = await arun_mode(searcher, requests, "deep")
    assert deep_search_info(response).sub_queries == given  # type: ignore[union-attr]
    assert [r.query for r in kb.requests] == given == [r.query for r in db.requests]
