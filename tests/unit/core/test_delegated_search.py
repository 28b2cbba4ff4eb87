"""``uses.search`` naming an agent or an MCP tool: the automatic search is handed over whole."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from unified_search.contract.events import SearchEvent
from unified_search.contract.handler import SearchContext
from unified_search.engine.searcher import Searcher
from unified_search.errors import ConfigurationError, ErrorCode
from unified_search.records.store import SearchStore
from unified_search.types import SearchRequest, SearchResult, SearchType

MCP_SERVER = Path(__file__).parents[1] / "mcp" / "search_server.py"


class Source:
    """A builtin-like source that records what it was asked."""

    def __init__(self) -> None:
        self.asked: list[SearchRequest] = []

    async def asearch(self, request: SearchRequest, ctx: SearchContext) -> SearchResult:
        self.asked.append(request)
        item = {"type": request.type, "title": "from the source", "record_id": "7", "model": "m"}
        return SearchResult(type=request.type, query=request.query, items=[item])  # type: ignore[list-item]


class Researcher:
    """An agent answering a whole automatic search; records each payload."""

    def __init__(self, answer: Any) -> None:
        self.answer = answer
        self.payloads: list[dict[str, Any]] = []

    async def ainvoke(self, payload: dict[str, Any]) -> Any:
        self.payloads.append(payload)
        return self.answer


GOOD = {
    "items": [
        {"type": "web", "title": "Heat pumps", "url": "https://a.org/heat", "content": "cold ok"},
        {"type": "kb", "title": "Handbook", "document_id": "hb-1", "content": "our pumps"},
        {"type": "web", "title": "Efficiency", "link": "https://b.org/eff", "snippet": "COP 3"},
    ]
}


def automatic(*types: str) -> list[dict[str, Any]]:
    return [{"query": "heat pumps in winter", "type": kind, "source": "auto"} for kind in types]


def searcher(agent: Any, store: SearchStore | None = None, **config: Any) -> Searcher:
    profile = {
        "uses": {"search": "researcher"},
        "web": {"providers": ["tavily"]},
        "kb": {"collections": ["handbook"]},
        **config,
    }
    handlers = {"web": Source(), "kb": Source(), "db": Source()}
    return Searcher(profile, handlers=handlers, agents={"researcher": agent}, store=store)  # type: ignore[arg-type]


async def test_the_agent_answers_every_automatic_request_once() -> None:
    agent, events = Researcher(GOOD), []
    store = SearchStore("sqlite:///:memory:")
    async with searcher(agent, store) as engine:
        response = await engine.aall(automatic("web", "kb"), sinks=[events.append], chat_id="c1")
        records = store.get_searches(response.request_id)
    assert len(agent.payloads) == 1
    assert agent.payloads[0] == {
        "query": "heat pumps in winter",
        "sources": [
            {
                "type": "web",
                "limit": 10,
                "providers": ["tavily"],
                "sites": [],
                "exclude_sites": [],
                "time_range": None,
            },
            {"type": "kb", "limit": 10, "collections": ["handbook"]},
        ],
    }
    assert all(not handler.asked for handler in engine._handlers.values())  # type: ignore[attr-defined]
    assert {i.title for i in response.items} == {"Heat pumps", "Handbook", "Efficiency"}
    assert [r.id for r in response.references] == ["ref_001", "ref_002", "ref_003"]
    assert all(i.source.value == "auto" and i.weight == 0.6 for i in response.items)
    web, kb = response.results
    assert web is not None and [i.url for i in web.items] == [
        "https://a.org/heat",
        "https://b.org/eff",
    ]
    assert kb is not None and kb.metadata["delegated_to"] == "researcher"
    names = [e.name.value for e in events if isinstance(e, SearchEvent)]
    assert names.count("search_item_complete") == 2 and "search_complete" in names
    assert sorted(len(r.references) for r in records) == [1, 2]
    assert {r.source.value for r in records} == {"auto"}


async def test_user_requests_still_go_to_their_sources() -> None:
    agent = Researcher([item for item in GOOD["items"] if item["type"] == "web"])
    async with searcher(agent) as engine:
        response = await engine.aall(
            [*automatic("web"), {"query": "heat pumps in winter", "type": "db"}]
        )
    assert len(engine._handlers[SearchType.DB].asked) == 1  # type: ignore[attr-defined]
    assert agent.payloads[0]["sources"] == [
        {
            "type": "web",
            "limit": 10,
            "providers": ["tavily"],
            "sites": [],
            "exclude_sites": [],
            "time_range": None,
        }
    ]
    assert {i.title for i in response.items} == {"Heat pumps", "Efficiency", "from the source"}


@pytest.mark.parametrize(
    "bad_kb_item",
    [
        {"type": "kb", "score": "high", "title": "x"},
        {"type": "kb"},
        {"type": "kb", "title": "t", "metadata": 5, "score": [1]},
    ],
)
async def test_a_malformed_item_fails_its_type_only(bad_kb_item: dict[str, Any]) -> None:
    answer = {"items": [*GOOD["items"], bad_kb_item]}
    async with searcher(Researcher(answer)) as engine:
        response = await engine.aall(automatic("web", "kb"))
    web, kb = response.results
    assert web is not None and web.ok and len(web.items) == 2
    assert kb is not None and kb.error is not None
    assert kb.error.code is ErrorCode.PROVIDER_ERROR and kb.error.provider == "researcher"
    assert response.status == "partial"


@pytest.mark.parametrize(
    "answer",
    [
        "no idea",
        None,
        {"items": "none"},
        [{"type": "db", "title": "not asked for"}],
        [{"type": "video", "title": "no such type"}],
        [{"title": "which type?"}],
    ],
)
async def test_an_unusable_answer_fails_the_automatic_requests_only(answer: Any) -> None:
    async with searcher(Researcher(answer)) as engine:
        response = await engine.aall(
            [*automatic("web", "kb"), {"query": "heat pumps in winter", "type": "db"}]
        )
    web, kb, db = response.results
    for failed in (web, kb):
        assert failed is not None and failed.error is not None
        assert failed.error.code is ErrorCode.PROVIDER_ERROR
    assert db is not None and db.ok and [i.title for i in response.items] == ["from the source"]


async def test_a_crashing_agent_is_a_provider_error() -> None:
    class Broken:
        def invoke(self, payload: dict[str, Any]) -> Any:
            raise RuntimeError("model offline")

    async with searcher(Broken()) as engine:
        response = await engine.aall(automatic("web"))
    (web,) = response.results
    assert web is not None and web.error is not None and "model offline" in web.error.message
    assert response.status == "failed"


async def test_one_type_asked_lets_items_leave_out_their_type() -> None:
    answer = [{"title": "Handbook", "document_id": "hb-1", "content": "our pumps"}]
    async with searcher(Researcher(answer)) as engine:
        response = await engine.aall(automatic("kb"))
    assert [(i.type.value, i.document_id) for i in response.items] == [("kb", "hb-1")]


async def test_an_mcp_tool_can_run_the_automatic_search() -> None:
    server = {"command": sys.executable, "args": [str(MCP_SERVER)], "timeout": 60}
    profile = {"uses": {"search": "mcp:fake.search_everything"}, "mcp": {"fake": server}}
    async with Searcher(profile, handlers={"web": Source(), "kb": Source()}) as engine:
        response = await engine.aall(automatic("web", "kb"))
    assert response.status == "ok"
    assert sorted(i.title for i in response.items) == [
        "kb 1 on heat pumps in winter",
        "kb 2 on heat pumps in winter",
        "web 1 on heat pumps in winter",
        "web 2 on heat pumps in winter",
    ]


@pytest.mark.parametrize(
    ("uses", "key"),
    [
        ({"search": "reseacher"}, "uses.search"),
        ({"web": "planner"}, "uses.web"),
        ({"keyword": "mcp:nowhere.keywords"}, "uses.keyword"),
        ({"querydsl": "mcp:bad"}, "uses.querydsl"),
        ({"rerank": "weigthed"}, "uses.rerank"),
    ],
)
def test_unknown_uses_values_fail_when_the_searcher_is_built(
    uses: dict[str, str], key: str
) -> None:
    with pytest.raises(ConfigurationError) as info:
        Searcher({"uses": uses}, agents={"researcher": Researcher(GOOD)})
    message = str(info.value)
    assert info.value.key == key and key in message
    assert "researcher" in message and "mcp:<server>.<tool>" in message
    if key == "uses.search":
        assert "builtin, disabled" in message
    if key == "uses.rerank":
        assert "weighted" in message and "rrf" in message


async def test_unknown_uses_values_in_overrides_fail_the_call() -> None:
    async with searcher(Researcher(GOOD)) as engine:
        with pytest.raises(ConfigurationError, match=r"uses\.search"):
            await engine.aall(automatic("web"), overrides={"uses": {"search": "someone"}})


def test_known_values_are_accepted() -> None:
    server = {"command": "x"}
    Searcher(
        {
            "uses": {
                "search": "disabled",
                "web": "mcp:tools.web",
                "keyword": "researcher",
                "rerank": "rrf",
            },
            "mcp": {"tools": server},
        },
        agents={"researcher": Researcher(GOOD)},
    )
