"""The whole event stream of a search: per-result events, steps, summary logs, progress to done."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from unified_search.config import SearchConfig
from unified_search.contract.events import EventName, SearchEvent, TraceNode, TraceStatus
from unified_search.contract.handler import SearchContext
from unified_search.contract.steps import StepName
from unified_search.db.handler import DBHandler
from unified_search.engine.searcher import Searcher
from unified_search.kb.handler import KBHandler
from unified_search.samples.shop import build_shop_database
from unified_search.types import ResultItem, SearchRequest, SearchResult, SearchType
from unified_search.web.handler import WebHandler

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "web"


class SteppingHandler:
    """A source that times one awaited step and one blocking step run in a worker thread."""

    async def asearch(self, request: SearchRequest, ctx: SearchContext) -> SearchResult:
        async with ctx.step(StepName.DSL_BUILD, uses="builtin"):
            await asyncio.sleep(0)

        def blocking() -> None:
            with ctx.step(StepName.EMBEDDING, model="fake") as step:
                step.output["dimensions"] = 3

        await asyncio.to_thread(blocking)
        await ctx.log("info", "planned", {"plans": 1})
        items = [
            ResultItem(type=request.type, title=f"{request.type} {i}", record_id=str(i), score=s)
            for i, s in enumerate([0.4, 0.9, 0.6])
        ]
        return SearchResult(type=request.type, query=request.query, items=items)


class Failing:
    async def asearch(self, request: SearchRequest, ctx: SearchContext) -> SearchResult:
        raise RuntimeError("source down")


def _names(events: list[SearchEvent]) -> list[str]:
    return [event.name.value for event in events]


def _steps(nodes: list[TraceNode]) -> dict[str, TraceNode]:
    return {node.input["step"]: node for node in nodes if node.kind == "search_step"}


async def test_a_search_streams_steps_results_summaries_and_a_done_progress() -> None:
    events: list[SearchEvent] = []
    searcher = Searcher(handlers={"kb": SteppingHandler(), "web": Failing()})
    response = await searcher.aall(
        [{"query": "q", "type": "kb"}, {"query": "q", "type": "web"}], sinks=[events.append]
    )
    names = _names(events)
    assert names[:2] == ["search_start", "search_progress"]
    assert names[-4:] == ["search_result", "search_complete", "search_progress", "search_progress"]
    # every step of the kb request is announced inside its request, start before end
    kb_node = next(n for n in response.trace if n.type is SearchType.KB and n.kind == "search_item")
    own = [e for e in events if e.node is not None and e.node.parent_id == kb_node.id]
    assert [e.name.value for e in own] == [
        "search_step_start",
        "search_step_complete",
        "search_step_start",
        "search_step_complete",
    ]
    assert names.index("search_item_complete") > names.index("search_step_complete")
    # one search_result per reference, in citation order, after every request ended
    results = [e for e in events if e.name is EventName.SEARCH_RESULT]
    assert [e.reference.id for e in results if e.reference] == [r.id for r in response.references]
    assert [e.reference.title for e in results if e.reference] == ["kb 1", "kb 2", "kb 0"]
    assert names.index("search_result") > max(
        i for i, n in enumerate(names) if n.startswith("search_item")
    )
    # the progress message is replaced by the outcome, then marked done
    progress = [(e.message, e.done) for e in events if e.name is EventName.SEARCH_PROGRESS]
    outcome = "Found 3 references (some sources failed)"
    assert progress == [("Searching...", False), (outcome, False), (outcome, True)]
    # the returned trace holds the same steps with their durations
    steps = _steps(response.trace)
    assert set(steps) == {"dsl_build", "embedding", "rerank"}
    assert steps["embedding"].output["dimensions"] == 3
    assert all(node.output["duration_ms"] >= 0 for node in steps.values())
    rerank = steps["rerank"]
    assert rerank.parent_id == response.search_id and rerank.type is None
    assert rerank.input == {"step": "rerank", "reranker": "weighted", "candidates": 3}
    assert rerank.output["result_count"] == 3


async def test_summary_logs_carry_their_figures() -> None:
    searcher = Searcher(handlers={"kb": SteppingHandler(), "db": Failing()})
    response = await searcher.aall([{"query": "q", "type": "kb"}, {"query": "q", "type": "db"}])
    root, kb, db = response.trace[:3]
    assert root.logs[0].message == "Starting search"
    assert root.logs[0].data == {"query": "q", "types": ["db", "kb"]}
    assert root.logs[-1].message == "Search completed"
    assert root.logs[-1].data == {"total": 3, "duration_ms": root.output["duration_ms"]}
    assert (kb.logs[0].message, kb.logs[0].data) == ("planned", {"plans": 1})
    assert kb.logs[-1].message == "KB search completed" and kb.logs[-1].level == "debug"
    assert kb.logs[-1].data == {"count": 3, "duration_ms": kb.output["duration_ms"]}
    assert db.logs[-1].message == "DB search failed" and db.logs[-1].level == "warn"
    assert db.logs[-1].data is not None and "source down" in db.logs[-1].data["error"]


async def test_chinese_wording_throughout() -> None:
    events: list[SearchEvent] = []
    searcher = Searcher({"options": {"language": "zh"}}, handlers={"kb": SteppingHandler()})
    response = await searcher.asearch({"query": "q", "type": "kb"}, sinks=[events.append])
    root, item = response.trace[:2]
    assert (root.label, item.label) == ("搜索", "知识库搜索")
    assert [log.message for log in root.logs] == ["开始搜索", "搜索完成"]
    assert item.logs[-1].message == "知识库搜索完成"
    assert {n.label for n in response.trace if n.kind == "search_step"} == {
        "生成查询 DSL",
        "向量化",
        "重排序",
    }
    progress = [(e.message, e.done) for e in events if e.name is EventName.SEARCH_PROGRESS]
    assert progress == [
        ("正在搜索...", False),
        ("找到 3 条参考资料", False),
        ("找到 3 条参考资料", True),
    ]


async def test_no_result_or_step_event_is_built_when_nobody_listens(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    built: list[str] = []

    class Counting(SearchEvent):
        def __init__(self, **data: Any) -> None:
            built.append(str(data["name"]))
            super().__init__(**data)

    monkeypatch.setattr("unified_search.engine.trace.SearchEvent", Counting)
    searcher = Searcher(handlers={"kb": SteppingHandler()})
    response = await searcher.asearch({"query": "q", "type": "kb"})
    assert len(response.items) == 3 and set(_steps(response.trace)) == {
        "dsl_build",
        "embedding",
        "rerank",
    }
    quiet = {EventName.SEARCH_RESULT, EventName.SEARCH_STEP_START, EventName.SEARCH_STEP_COMPLETE}
    assert not quiet & set(built)
    await searcher.asearch({"query": "q", "type": "kb"}, sinks=[lambda e: None])
    assert quiet <= set(built)


# -- the builtin sources time their steps ------------------------------------------------


class WordEmbedding:
    """Hashed words: enough to search a tiny knowledge base offline."""

    name = "words-16"

    def __call__(self, texts: list[str]) -> list[list[float]]:
        return [
            [
                float(sum(1 for w in t.lower().split() if sum(map(ord, w)) % 16 == d))
                for d in range(16)
            ]
            for t in texts
        ]


async def test_knowledge_base_steps(tmp_path: Path) -> None:
    config = SearchConfig.load(profile={"kb": {"data_dir": str(tmp_path)}})
    kb = KBHandler.from_config(config, embedding=WordEmbedding())
    await kb.aadd_documents("docs", ["Heat pumps move heat.", "Solar panels make power."])
    await kb.aadd_documents("faq", ["Heat pumps work in the cold."])
    async with Searcher(config, handlers={"kb": kb}) as searcher:
        one = await searcher.asearch({"query": "heat pumps", "type": "kb", "collections": ["docs"]})
        two = await searcher.asearch(
            {"query": "heat pumps", "type": "kb", "collections": ["docs", "faq"], "graph": True}
        )
    assert set(_steps(one.trace)) == {
        "embedding",
        "lexical_search",
        "vector_search",
        "fusion",
        "rerank",
    }
    assert _steps(one.trace)["embedding"].input == {"step": "embedding", "model": "words-16"}
    steps = [n for n in two.trace if n.kind == "search_step"]
    searched = sorted(
        n.input.get("collection", "") for n in steps if n.input["step"] == "vector_search"
    )
    assert searched == ["docs", "faq"]
    assert "graph_search" in {n.input["step"] for n in steps}
    assert all(n.status is TraceStatus.COMPLETED for n in steps)


async def test_database_steps(tmp_path: Path) -> None:
    shop = build_shop_database(tmp_path / "shop.db")
    config = {"db": {"url": f"sqlite:///{shop}", "models": ["products"]}}
    async with Searcher(config, handlers={"db": DBHandler()}) as searcher:
        response = await searcher.asearch({"query": "products under 20 dollars", "type": "db"})
    steps = _steps(response.trace)
    assert {"dsl_build", "db_query"} <= set(steps)
    assert steps["dsl_build"].input == {"step": "dsl_build", "uses": "builtin"}
    assert steps["db_query"].input["model"] == "products"
    assert steps["db_query"].output["rows"] == len(response.items) > 0


async def test_web_keyword_extraction_step() -> None:
    recorded = json.loads((FIXTURES / "tavily_search_success.json").read_text(encoding="utf-8"))
    transport = httpx.MockTransport(lambda request: httpx.Response(200, json=recorded["response"]))
    config = SearchConfig.load(
        profile={"web": {"providers": ["tavily"]}, "uses": {"keyword": "builtin"}}
    )
    web = WebHandler(config, transport=transport, cache=None)
    with pytest.MonkeyPatch.context() as env:
        env.setenv("TAVILY_API_KEY", "tvly-test")
        async with Searcher(config, handlers={"web": web}) as searcher:
            response = await searcher.asearch(
                {"query": "how do heat pumps work?", "type": "web", "source": "auto"}
            )
    step = _steps(response.trace)["keyword_extraction"]
    assert step.status is TraceStatus.COMPLETED and step.input["uses"] == "builtin"
    assert step.label == "Keyword Extraction" and step.output["duration_ms"] >= 0
