"""DBHandler end to end: through the Searcher, with tenants, delegates, merging and bad input."""

from __future__ import annotations

import asyncio
import json
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import sqlalchemy as sa

from unified_search.db.handler import DBHandler
from unified_search.db.understanding import Understanding
from unified_search.engine.searcher import Searcher
from unified_search.errors import ErrorCode, SearchError
from unified_search.samples.shop import SAMPLE_TODAY
from unified_search.types import SearchRequest, SearchType


@pytest.fixture(scope="module")
def handler() -> Iterator[DBHandler]:
    handler = DBHandler(today=lambda: SAMPLE_TODAY)
    yield handler
    asyncio.run(handler.aclose())


@pytest.fixture
def shop(shop_file: Path) -> str:
    return f"sqlite:///{shop_file}"


def request(query: str, **fields: Any) -> SearchRequest:
    return SearchRequest(query=query, type=SearchType.DB, **fields)


TICKETS = [
    {"id": 1, "tenant_id": "acme", "subject": "Printer jammed", "priority": "high"},
    {"id": 2, "tenant_id": "acme", "subject": "VPN drops", "priority": "low"},
    {"id": 3, "tenant_id": "globex", "subject": "Printer offline", "priority": "urgent"},
    {"id": 4, "tenant_id": "globex", "subject": "Password reset", "priority": "high"},
]


def _create_tickets(engine: sa.Engine, schema: str | None = None) -> None:
    meta = sa.MetaData(schema=schema)
    table = sa.Table(
        "tickets",
        meta,
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("tenant_id", sa.String(10), nullable=False),
        sa.Column("subject", sa.String(80), nullable=False),
        sa.Column("priority", sa.String(10), nullable=False),
    )
    meta.create_all(engine)
    with engine.begin() as conn:
        conn.execute(sa.insert(table), TICKETS)


@pytest.fixture(
    scope="module", params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
)
def tenant_db(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """A multi-tenant ``tickets`` table on SQLite and on PostgreSQL (in a throw-away schema)."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path_factory.mktemp('tenants') / 'tickets.db'}"
        engine = sa.create_engine(url)
        _create_tickets(engine)
        engine.dispose()
        yield url
        return
    base: str = request.getfixturevalue("postgres_url")
    schema = "us_tickets_" + uuid.uuid4().hex[:10]
    engine = sa.create_engine(base)
    with engine.begin() as conn:
        conn.execute(sa.schema.CreateSchema(schema))
    try:
        _create_tickets(engine, schema)
        yield f"{base}?options=-csearch_path%3D{schema}"
    finally:
        with engine.begin() as conn:
            conn.execute(sa.schema.DropSchema(schema, cascade=True))
        engine.dispose()


TENANT_CONFIG = {
    "models": ["tickets"],
    "settings": {"tickets": {"permission": {"tenant_id": "tenant"}}},
}


async def test_searcher_end_to_end_with_tenant_filter(tenant_db: str) -> None:
    config = {"db": {"url": tenant_db, **TENANT_CONFIG}}
    async with Searcher(config, handlers={"db": DBHandler()}) as searcher:
        response = await searcher.asearch(
            {"query": "printer", "type": "db"}, user={"tenant": "acme"}
        )
    assert [item.record_id for item in response.items] == ["1"]
    item = response.items[0]
    assert item.title == "Printer jammed" and item.citation_id == "ref_001"
    assert item.data == {
        "id": 1,
        "tenant_id": "acme",
        "subject": "Printer jammed",
        "priority": "high",
    }
    assert "subject: Printer jammed" in item.content.splitlines()
    assert response.results[0].dsl == {
        "model": "tickets",
        "wheres": [{"field": "subject", "op": "like", "value": "%printer%"}],
    }
    assert "Printer jammed" in response.context.xml


async def test_other_tenants_values_are_neither_found_nor_learnt(tenant_db: str) -> None:
    """ "urgent" exists only for globex: for acme it is a word nothing understands."""
    config = {"db": {"url": tenant_db, **TENANT_CONFIG}}
    async with Searcher(config, handlers={"db": DBHandler()}) as searcher:
        acme = await searcher.asearch(
            {"query": "urgent tickets", "type": "db"}, user={"tenant": "acme"}
        )
        globex = await searcher.asearch(
            {"query": "urgent tickets", "type": "db"}, user={"tenant": "globex"}
        )
    refused = acme.results[0]
    assert acme.items == [] and refused.error is not None
    assert refused.error.code is ErrorCode.INVALID_QUERY and "'urgent'" in refused.error.message
    assert Understanding.of(refused) == Understanding(
        understood="tickets", not_understood=["urgent"]
    )
    assert [i.record_id for i in globex.items] == ["3"]
    assert globex.results[0].dsl["wheres"] == [{"field": "priority", "op": "=", "value": "urgent"}]


async def test_missing_tenant_refuses_and_runs_nothing(tenant_db: str) -> None:
    config = {"db": {"url": tenant_db, **TENANT_CONFIG}}
    async with Searcher(config, handlers={"db": DBHandler()}) as searcher:
        response = await searcher.asearch({"query": "printer", "type": "db"})
    error = response.results[0].error
    assert error is not None and error.code is ErrorCode.INVALID_QUERY
    assert "'tenant'" in error.message and response.items == []


async def test_request_cannot_override_the_tenant(
    handler: DBHandler, tenant_db: str, make_ctx: Any
) -> None:
    ctx = make_ctx(tenant_db, user={"tenant": "acme"}, db=TENANT_CONFIG)
    wheres = [
        {"or": [{"field": "tenant_id", "value": "globex"}, {"field": "id", "op": ">", "value": 0}]}
    ]
    result = await handler.asearch(request("tickets", wheres=wheres), ctx)
    assert {item.data["tenant_id"] for item in result.items if item.data} == {"acme"}


async def test_items_carry_model_record_title_and_score(
    handler: DBHandler, shop: str, make_ctx: Any
) -> None:
    result = await handler.asearch(request("wireless headphones under $100"), make_ctx(shop))
    assert result.metadata["models"] == ["products"]  # where the words are found
    assert [(i.model, i.record_id, i.title) for i in result.items] == [
        ("products", "1", "Aurora Wireless Headphones")
    ]
    item = result.items[0]
    assert item.type is SearchType.DB and item.score == 1.0
    assert (
        item.data is not None
        and item.data["price"] == 89.99
        and item.data["created_at"] == "2024-11-02"
    )
    assert result.keywords == ["wireless", "headphones"]
    assert result.dsl is not None and result.dsl["model"] == "products"


async def test_best_model_is_chosen_or_all_on_request(
    handler: DBHandler, shop: str, make_ctx: Any
) -> None:
    best = await handler.asearch(request("customers in Berlin"), make_ctx(shop))
    assert best.metadata["models"] == ["customers"]
    assert [i.title for i in best.items] == ["Alice Martin"]
    every = await handler.asearch(request("Berlin"), make_ctx(shop, db={"multi_model": "all"}))
    assert every.metadata["models"] == ["customers", "orders", "products"]


async def test_rows_without_keywords_keep_database_order(
    handler: DBHandler, shop: str, make_ctx: Any
) -> None:
    result = await handler.asearch(request("3 most expensive products"), make_ctx(shop))
    assert [i.title for i in result.items] == [
        "Nimbus Laptop 16",
        "Nimbus Laptop 14",
        "Robot Vacuum S2",
    ]
    assert [i.score for i in result.items] == sorted((i.score for i in result.items), reverse=True)


async def test_orders_rows_are_titled_by_label_and_id(
    handler: DBHandler, shop: str, make_ctx: Any
) -> None:
    ctx = make_ctx(shop, db={"settings": {"orders": {"label": "Order"}}})
    result = await handler.asearch(request("the 5 largest orders"), ctx)
    assert len(result.items) == 5
    assert all(i.title == f"Order {i.record_id}" for i in result.items)


async def test_keywords_relax_when_no_row_has_all(
    handler: DBHandler, shop: str, make_ctx: Any
) -> None:
    question = request("speaker headphones", models=["products"])
    relaxed = await handler.asearch(question, make_ctx(shop))
    assert {i.record_id for i in relaxed.items} == {"1", "3", "11"}
    assert {i.score for i in relaxed.items} == {0.5}  # each row has one of the two keywords
    assert relaxed.metadata["relaxed"] == ["products"]
    strict = await handler.asearch(question, make_ctx(shop, querydsl={"relax_keywords": False}))
    assert strict.items == []


async def test_request_dsl_is_merged(handler: DBHandler, shop: str, make_ctx: Any) -> None:
    result = await handler.asearch(
        request(
            "electronics",
            models=["products"],
            wheres=[{"field": "price", "op": "<", "value": 100}],
            orders=[{"field": "price", "sort": "desc"}],
            select=["name", "price"],
            limit=2,
        ),
        make_ctx(shop),
    )
    assert result.dsl == {
        "model": "products",
        "wheres": [
            {"field": "price", "op": "<", "value": 100},
            {"field": "category", "op": "=", "value": "Electronics"},
        ],
        "orders": [{"field": "price", "sort": "desc"}],
        "select": ["name", "price"],
    }
    assert [i.data for i in result.items] == [
        {"name": "Aurora Wireless Headphones", "price": 89.99},
        {"name": "Beacon Bluetooth Speaker", "price": 79},
    ]


async def test_max_results_caps_rows(handler: DBHandler, shop: str, make_ctx: Any) -> None:
    result = await handler.asearch(request("orders"), make_ctx(shop, db={"max_results": 4}))
    assert len(result.items) == 4


@pytest.mark.parametrize(
    ("fields", "db", "message"),
    [
        (
            {"models": ["users"]},
            {},
            "unknown model 'users'; available models: customers, orders, products",
        ),
        ({"models": ["customers"]}, {"models": ["products"]}, "available models: products"),
        ({"wheres": [{"field": "colour", "value": "red"}]}, {}, "unknown field 'colour'"),
        ({"wheres": [{"field": "price", "op": "~", "value": 1}]}, {}, "unknown op '~'"),
        (
            {"wheres": [{"field": "price", "op": ">", "value": "lots"}]},
            {},
            "field 'price' of type float",
        ),
        ({"orders": [{"field": "price", "sort": "up"}]}, {}, "orders.0.sort"),
        (
            {},
            {"settings": {"products": {"title": "headline"}}},
            "names columns the model lacks: headline",
        ),
    ],
)
async def test_bad_input_is_refused_clearly(
    handler: DBHandler,
    shop: str,
    make_ctx: Any,
    fields: dict[str, Any],
    db: dict[str, Any],
    message: str,
) -> None:
    fields.setdefault("models", ["products"])
    with pytest.raises(SearchError) as info:
        await handler.asearch(request("products", **fields), make_ctx(shop, db=db))
    assert info.value.code is ErrorCode.INVALID_QUERY
    assert message in info.value.message


async def test_empty_question_is_refused(handler: DBHandler, shop: str, make_ctx: Any) -> None:
    with pytest.raises(SearchError, match="question is empty"):
        await handler.asearch(request("?!"), make_ctx(shop))


async def test_missing_url_is_unsupported(make_ctx: Any) -> None:
    ctx = make_ctx("")
    with pytest.raises(SearchError) as info:
        await DBHandler().asearch(request("products"), ctx)
    assert info.value.code is ErrorCode.UNSUPPORTED


class RecordingAgent:
    """Answers with a fixed value and remembers what it was asked."""

    def __init__(self, answer: Any) -> None:
        self.answer = answer
        self.payloads: list[dict[str, Any]] = []

    def __call__(self, payload: dict[str, Any]) -> Any:
        self.payloads.append(payload)
        return self.answer


async def test_agent_writes_the_dsl(shop: str) -> None:
    agent = RecordingAgent({"model": "products", "wheres": [{"field": "brand", "value": "Lumen"}]})
    config = {"db": {"url": shop, "models": ["products"]}, "uses": {"querydsl": "writer"}}
    async with Searcher(config, handlers={"db": DBHandler()}, agents={"writer": agent}) as searcher:
        response = await searcher.asearch({"query": "lamps and screens", "type": "db"})
    result = response.results[0]
    assert result.metadata["generator"] == "writer"
    assert sorted(i.title for i in result.items) == [
        "Smart LED Bulb",
        "Vista 24 Monitor",
        "Vista 27 Monitor",
    ]
    payload = agent.payloads[0]
    assert payload["question"] == "lamps and screens" and payload["models"] == ["products"]
    columns = {c["name"]: c for c in payload["schema"]["products"]["columns"]}
    assert columns["price"]["type"] == "float" and columns["id"]["primary_key"]


async def test_chat_message_with_fenced_json_is_accepted(
    handler: DBHandler, shop: str, make_ctx: Any
) -> None:
    message = SimpleNamespace(
        content='Here you go:\n```json\n{"wheres": [{"field": "stock", "op": "=", "value": 0}]}\n```'
    )
    ctx = make_ctx(shop, db={"models": ["products"]}, uses={"querydsl": "chat"})
    ctx.delegates.register("chat", RecordingAgent(message))
    result = await handler.asearch(request("sold out things"), ctx)
    assert {i.record_id for i in result.items} == {"5", "11", "15", "34"}


@pytest.mark.parametrize(
    "answer",
    [
        "not json at all",
        {"model": "products", "wheres": [{"field": "secret", "value": 1}]},
        {"model": "users"},
        [1, 2],
        json.dumps({"model": "products", "wheres": [{"field": "price", "op": "drop", "value": 1}]}),
    ],
)
async def test_bad_agent_output_falls_back_or_fails_when_strict(
    handler: DBHandler, shop: str, make_ctx: Any, answer: Any
) -> None:
    ctx = make_ctx(shop, db={"models": ["products"]}, uses={"querydsl": "bad"})
    ctx.delegates.register("bad", RecordingAgent(answer))
    result = await handler.asearch(request("Sonora products"), ctx)
    assert result.metadata["generator"] == "builtin"
    assert {i.title for i in result.items} == {
        "Aurora Wireless Headphones", "Pulse Wireless Earbuds", "Beacon Bluetooth Speaker",
    }  # fmt: skip
    understanding = Understanding.of(result)
    assert understanding is not None and understanding.generator == "builtin"
    [warning] = understanding.warnings  # the fallback is reported on the result, with the reason
    assert warning.startswith("bad returned an unusable DSL: ")
    assert warning.endswith("; the builtin generator answered instead")
    strict = make_ctx(
        shop, db={"models": ["products"]}, uses={"querydsl": "bad"}, querydsl={"strict": True}
    )
    strict.delegates.register("bad", RecordingAgent(answer))
    with pytest.raises(SearchError) as info:
        await handler.asearch(request("Sonora products"), strict)
    assert (
        info.value.code is ErrorCode.INVALID_QUERY
        and "bad returned an unusable DSL" in info.value.message
    )


def test_sync_twin_works(shop: str) -> None:
    with Searcher({"db": {"url": shop}}, handlers={"db": DBHandler()}) as searcher:
        response = searcher.search({"query": "inactive customers", "type": "db"})
    assert len(response.items) == 6


async def test_mcp_tool_writes_the_dsl(handler: DBHandler, shop: str, make_ctx: Any) -> None:
    server = {"command": sys.executable, "args": [str(Path(__file__).with_name("dsl_server.py"))]}
    ctx = make_ctx(
        shop,
        db={"models": ["products"]},
        uses={"querydsl": "mcp:writer.write_dsl"},
        mcp={"writer": {**server, "timeout": 60}},
    )
    result = await handler.asearch(request("things made by Lumen"), ctx)
    assert result.metadata["generator"] == "mcp:writer.write_dsl"
    assert result.dsl == {
        "model": "products",
        "wheres": [{"field": "brand", "op": "=", "value": "Lumen"}],
    }
    assert len(result.items) == 3


async def test_failing_delegate_falls_back_unless_strict(
    handler: DBHandler, shop: str, make_ctx: Any
) -> None:
    def broken(payload: dict[str, Any]) -> Any:
        raise SearchError(ErrorCode.PROVIDER_ERROR, "model is down")

    ctx = make_ctx(shop, db={"models": ["customers"]}, uses={"querydsl": "broken"})
    ctx.delegates.register("broken", broken)
    result = await handler.asearch(request("customers in Berlin"), ctx)
    assert result.metadata["generator"] == "builtin" and len(result.items) == 1
    understanding = Understanding.of(result)
    assert understanding is not None
    assert understanding.warnings == [
        "broken failed: model is down; the builtin generator answered instead"
    ]
    strict = make_ctx(
        shop, db={"models": ["customers"]}, uses={"querydsl": "broken"}, querydsl={"strict": True}
    )
    strict.delegates.register("broken", broken)
    with pytest.raises(SearchError) as info:
        await handler.asearch(request("customers in Berlin"), strict)
    assert info.value.code is ErrorCode.PROVIDER_ERROR


@pytest.mark.parametrize(
    "fields",
    [
        {"wheres": [{"field": "colour", "value": "red"}]},
        {"wheres": [{"field": "price", "op": ">", "value": "lots"}]},
        {"select": ["secret"]},
        {"models": ["nope"]},
    ],
)
async def test_bad_input_runs_no_query(shop: str, make_ctx: Any, fields: dict[str, Any]) -> None:
    """Refusals happen before any statement touches a table (schema reflection aside)."""
    seen: list[str] = []

    def spy(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        seen.append(statement)

    handler = DBHandler()
    sa.event.listen(sa.engine.Engine, "before_cursor_execute", spy)
    try:
        with pytest.raises(SearchError):
            await handler.asearch(request("cheap electronics", **fields), make_ctx(shop))
    finally:
        sa.event.remove(sa.engine.Engine, "before_cursor_execute", spy)
        await handler.aclose()
    assert [s for s in seen if "FROM products" in s or "FROM orders" in s] == []


async def test_category_values_are_sampled_once_and_can_be_turned_off(
    shop: str, make_ctx: Any
) -> None:
    distinct: list[str] = []

    def spy(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if "DISTINCT" in statement:
            distinct.append(statement)

    handler = DBHandler()
    sa.event.listen(sa.engine.Engine, "before_cursor_execute", spy)
    try:
        first = await handler.asearch(request("customers in Berlin"), make_ctx(shop))
        sampled = len(distinct)
        await handler.asearch(request("customers in Paris"), make_ctx(shop))
        assert sampled > 0 and len(distinct) == sampled  # the second search reused the cache
        off = await handler.asearch(
            request("customers in Berlin"), make_ctx(shop, db={"sample_values": 0})
        )
    finally:
        sa.event.remove(sa.engine.Engine, "before_cursor_execute", spy)
        await handler.aclose()
    assert first.dsl == {
        "model": "customers",
        "wheres": [{"field": "city", "op": "=", "value": "Berlin"}],
    }
    # Without categories "Berlin" is a word seen in the city column: a text test there.
    assert off.dsl == {
        "model": "customers",
        "wheres": [{"field": "city", "op": "like", "value": "%berlin%"}],
    }
    assert [i.title for i in off.items] == ["Alice Martin"]


async def test_agent_dsl_may_join_aggregate_and_spell_orders_its_way(
    handler: DBHandler, shop: str, make_ctx: Any
) -> None:
    """A delegate's joins and figures are validated like any DSL; ``{"field", "order"}`` works."""
    answer = {
        "model": "orders",
        "joins": [{"model": "customers"}],
        "aggregates": [{"fn": "count", "as": "orders"}],
        "group_by": ["customers.country"],
        "orders": [{"field": "orders", "order": "DESC"}],
        "limit": 2,
    }
    ctx = make_ctx(shop, uses={"querydsl": "writer"})
    ctx.delegates.register("writer", RecordingAgent(answer))
    result = await handler.asearch(request("which countries order most?"), ctx)
    assert [i.data for i in result.items] == [
        {"customers.country": "France", "orders": 17},
        {"customers.country": "United Kingdom", "orders": 14},
    ]
    understanding = Understanding.of(result)
    assert understanding is not None and understanding.warnings == []
    assert understanding.understood == (
        "number of orders per customers.country, orders highest first, first 2"
    )


async def test_agent_join_to_a_model_not_exposed_is_reported_and_falls_back(
    handler: DBHandler, shop: str, make_ctx: Any
) -> None:
    answer = {"model": "orders", "joins": [{"model": "customers"}]}
    ctx = make_ctx(shop, db={"models": ["orders", "products"]}, uses={"querydsl": "writer"})
    ctx.delegates.register("writer", RecordingAgent(answer))
    result = await handler.asearch(request("cancelled orders"), ctx)
    understanding = Understanding.of(result)
    assert understanding is not None and understanding.generator == "builtin"
    assert (
        "model 'customers' cannot be joined; models reachable from 'orders': products"
        in (understanding.warnings[0])
    )
    assert {i.data["status"] for i in result.items if i.data} == {"cancelled"}


async def test_request_orders_accept_the_order_spelling(
    handler: DBHandler, shop: str, make_ctx: Any
) -> None:
    result = await handler.asearch(
        request("electronics", models=["products"], orders=[{"field": "price", "order": "desc"}]),
        make_ctx(shop),
    )
    prices = [i.data["price"] for i in result.items if i.data]
    assert prices == sorted(prices, reverse=True) and len(prices) > 3
