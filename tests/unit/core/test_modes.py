"""Query modes: fast (one provider, as typed), deep (expanded, several providers), answer."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from unified_search.contract.handler import SearchContext
from unified_search.engine.searcher import Searcher
from unified_search.policy.deep import deep_search_info
from unified_search.policy.modes import QueryMode, arun_mode, plan_mode
from unified_search.policy.session import SearchOptions, SearchSession
from unified_search.types import ResultItem, SearchRequest, SearchResult


class Recorder:
    """Answers each request with ``size`` distinct items named after its query."""

    def __init__(self, size: int = 1) -> None:
        self.size = size
        self.requests: list[SearchRequest] = []

    async def asearch(self, request: SearchRequest, ctx: SearchContext) -> SearchResult:
        self.requests.append(request)
        slug = request.query.replace(" ", "-")
        items = [
            ResultItem(
                type=request.type,
                title=f"{request.query} {n}",
                content=f"about {request.query}",
                url=f"https://example.org/{slug}/{n}" if request.type == "web" else None,
                document_id=None if request.type == "web" else f"{slug}-{n}",
                score=1 - n / 100,
            )
            for n in range(self.size)
        ]
        return SearchResult(type=request.type, query=request.query, items=items)


def engine(size: int = 1, **config: Any) -> tuple[Searcher, Recorder, Recorder]:
    web, kb = Recorder(size), Recorder(size)
    return Searcher(config or None, handlers={"web": web, "kb": kb}), web, kb


def requests(query: str, *types: str) -> list[SearchRequest]:
    return [SearchRequest(query=query, type=kind) for kind in types]  # type: ignore[arg-type]


async def test_fast_asks_one_provider_and_does_not_expand() -> None:
    searcher, web, kb = engine(web={"providers": ["brave", "tavily"]})
    response = await arun_mode(
        searcher, requests("vector database vs search engine", "web", "kb"), "fast"
    )
    assert [r.query for r in web.requests] == ["vector database vs search engine"]
    assert web.requests[0].options == {"providers": ["brave"]}
    assert [r.options for r in kb.requests] == [{}]
    assert deep_search_info(response) is None


async def test_fast_without_configured_providers_takes_the_first_key(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("BRAVE_API_KEY", "b")
    monkeypatch.setenv("TAVILY_API_KEY", "t")
    searcher, web, _ = engine()
    await arun_mode(searcher, requests("rust", "web"), QueryMode.FAST)
    assert web.requests[0].options == {"providers": ["tavily"]}


async def test_deep_expands_asks_every_keyed_provider_and_ranks_by_intent(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("EXA_API_KEY", "e")
    monkeypatch.setenv("TAVILY_API_KEY", "t")
    searcher, web, kb = engine()
    response = await arun_mode(searcher, requests("Postgres vs MySQL", "web", "kb"), "deep")
    expected = [
        "Postgres vs MySQL",
        "PostgreSQL vs MySQL",
        "PostgreSQL advantages",
        "MySQL advantages",
    ]
    assert [r.query for r in web.requests] == expected == [r.query for r in kb.requests]
    assert {tuple(r.options["providers"]) for r in web.requests} == {("tavily", "exa")}
    assert all("providers" not in r.options for r in kb.requests)
    assert {r.rerank.uses for r in [*web.requests, *kb.requests] if r.rerank} == {"intent"}
    info = deep_search_info(response)
    assert info is not None and info.providers == ["tavily", "exa"]
    assert {i.metadata["intent"] for i in response.items} == {"comparison"}


async def test_deep_keeps_what_the_caller_chose() -> None:
    searcher, web, _ = engine(web={"providers": ["serper"]})
    chosen = SearchRequest(
        query="Rust news",
        time_range="month",
        rerank={"uses": "rrf"},
        options={"providers": ["exa"]},
    )
    await arun_mode(searcher, [chosen], "deep")
    assert {r.time_range for r in web.requests} == {"month"}
    assert {r.rerank.uses for r in web.requests if r.rerank} == {"rrf"}
    assert {tuple(r.options["providers"]) for r in web.requests} == {("exa",)}


async def test_chinese_technical_queries_are_also_searched_in_english() -> None:
    searcher, web, _ = engine()
    await arun_mode(searcher, requests("Rust 异步编程 教程", "web"), "deep")
    assert "Rust async programming tutorial" in [r.query for r in web.requests]


async def test_english_queries_get_chinese_wording_in_chinese_conversations() -> None:
    searcher, web, _ = engine(options={"language": "zh"})
    await arun_mode(searcher, requests("Kubernetes tutorial", "web"), "deep")
    assert "Kubernetes 教程" in [r.query for r in web.requests]


@pytest.mark.parametrize(
    ("size", "shape"),
    [
        (3, "only a few results: go through each one"),
        (5, "only a few results"),
        (6, "Group what the results say into the topics"),
        (15, "Group what the results say into the topics"),
        (16, "open with an overview of the main findings"),
    ],
)
async def test_answer_adds_instructions_shaped_by_the_result_count(size: int, shape: str) -> None:
    searcher, _, _ = engine(size)
    response = await arun_mode(
        searcher, requests("what is a vector database", "web"), "answer", top_n=size
    )
    assert len(response.items) == size
    prompt = response.context.prompt
    citation, _, guidance = prompt.partition("\n\nAnswer the question")
    assert citation and "ref_" in citation  # the citation instruction comes first
    assert guidance.startswith(" 'what is a vector database' from the references.")
    assert "Give the answer first" in guidance and "contradict each other" in guidance
    assert "how sure you are" in guidance and shape in guidance
    assert deep_search_info(response) is not None  # answer is deep underneath


async def test_no_mode_runs_the_requests_as_given() -> None:
    searcher, web, _ = engine()
    planned, info = plan_mode(None, requests("Postgres vs MySQL", "web"), searcher.config)
    assert [r.query for r in planned] == ["Postgres vs MySQL"] and info is None
    response = await arun_mode(searcher, planned, None)
    assert "Answer the question" not in response.context.prompt and len(web.requests) == 1


async def test_unknown_mode_lists_the_valid_ones() -> None:
    searcher, _, _ = engine()
    with pytest.raises(ValueError, match="valid modes: fast, deep, answer"):
        await arun_mode(searcher, requests("q", "web"), "thorough")
    with pytest.raises(ValidationError, match="valid: fast, deep, answer"):
        SearchOptions(mode="thorough")  # type: ignore[arg-type]


async def test_the_session_runs_modes_and_keeps_the_fan_out_choice() -> None:
    searcher, web, kb = engine(web={"providers": ["tavily"]}, kb={"collections": ["docs"]})
    session = SearchSession(searcher)
    response = await session.asearch(
        "Postgres vs MySQL", SearchOptions(mode="deep", parallel="all")
    )
    assert len(web.requests) == 4 and len(kb.requests) == 4
    assert response.status == "ok"
    legacy = SearchOptions(mode="any")  # type: ignore[arg-type]
    assert legacy.mode is None and legacy.parallel == "any"


async def test_tools_run_in_a_mode_and_answer_mode_adds_the_instructions() -> None:
    searcher, web, _ = engine(3, web={"providers": ["tavily", "brave"]})
    session = SearchSession(searcher)
    fast = await session.acall_tool("web_search", {"query": "rust async"}, mode="fast")
    assert web.requests[-1].options == {"providers": ["tavily"]}
    assert "Answer the question" not in fast.text
    answer = await session.acall_tool("web_search", {"query": "rust async"}, mode="answer")
    assert answer.text.startswith("Found ") and "Give the answer first" in answer.text
