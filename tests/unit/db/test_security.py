"""Attacks through every door: the question, DSL field names, ops, values, and direct writes.

Every test runs on SQLite and PostgreSQL and checks, with a checksum of every
row of every table, that the database is exactly as it was.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from pydantic import ValidationError

from unified_search.db.execute import ReadOnlyExecutor, create_readonly_engine
from unified_search.db.handler import DBHandler
from unified_search.errors import ErrorCode, SearchError
from unified_search.types import MAX_QUERY_CHARS, SearchRequest, SearchType

QUESTIONS = [
    "'; DROP TABLE products; --",
    "price < 100; DELETE FROM orders",
    "Robert'); DROP TABLE customers;--",
    "electronics' UNION SELECT id, email, email, email, 1, 1, 1, '2020-01-01', email FROM customers --",
    "1 OR 1=1",
    '" OR ""="',
    "/* comment */ headphones -- rest",
    "ｐｒｏｄｕｃｔｓ；ＤＲＯＰ　ＴＡＢＬＥ　ｐｒｏｄｕｃｔｓ",
    "DR\u200bOP TABLE orders\u202e",
    "headphones\x00; UPDATE products SET price = 0",
    "%' AND 1=(SELECT COUNT(*) FROM customers) AND '%'='",
]


@pytest.fixture
def unchanged(shop_url: str, fingerprint: Callable[[str], str]) -> Iterator[None]:
    """Fail the test if the shop database differs afterwards."""
    before = fingerprint(shop_url)
    yield
    assert fingerprint(shop_url) == before, "the database changed"


@pytest.fixture(scope="module")
def handler() -> Iterator[DBHandler]:
    """One handler for the module: engines and reflected schemas are reused across tests."""
    handler = DBHandler()
    yield handler
    asyncio.run(handler.aclose())


@pytest.mark.usefixtures("unchanged")
@pytest.mark.parametrize("question", QUESTIONS)
async def test_injection_in_the_question_is_harmless(
    handler: DBHandler, make_ctx: Any, shop_url: str, question: str
) -> None:
    """The text only ever becomes bound values; no row of another model leaks in."""
    ctx = make_ctx(shop_url, db={"models": ["products"]})
    try:
        result = await handler.asearch(SearchRequest(query=question, type=SearchType.DB), ctx)
    except SearchError as exc:
        assert exc.code is ErrorCode.INVALID_QUERY
        return
    assert all(item.model == "products" for item in result.items)
    assert all("@example.com" not in item.content for item in result.items)


@pytest.mark.usefixtures("unchanged")
async def test_quotes_in_the_question_are_data(
    handler: DBHandler, make_ctx: Any, shop_url: str
) -> None:
    """A quote is matched literally, which shows it was bound and not spliced."""
    ctx = make_ctx(shop_url, db={"models": ["customers"]})
    result = await handler.asearch(SearchRequest(query="o'brien", type=SearchType.DB), ctx)
    assert [item.title for item in result.items] == ["Liam O'Brien"]


FIELDS = [
    "price; DROP TABLE products",
    "price--",
    "customers.email",
    '"price"',
    "price\u200b",
    "ｐｒｉｃｅ",
    "1=1) OR (1",
    "*",
]


@pytest.mark.usefixtures("unchanged")
@pytest.mark.parametrize("field", FIELDS)
async def test_injection_in_field_names_is_refused(
    handler: DBHandler, make_ctx: Any, shop_url: str, field: str
) -> None:
    for part in ("wheres", "orders", "select"):
        value: list[Any] = {
            "wheres": [{"field": field, "op": "=", "value": 1}],
            "orders": [{"field": field}],
            "select": [field],
        }[part]
        request = SearchRequest(query="products", type=SearchType.DB, **{part: value})
        with pytest.raises(SearchError) as info:
            await handler.asearch(request, make_ctx(shop_url, db={"models": ["products"]}))
        assert info.value.code is ErrorCode.INVALID_QUERY
        assert "unknown field" in info.value.message


@pytest.mark.parametrize("op", ["; DROP TABLE products", "= 1 OR 1=1", "UNION", "=;"])
async def test_injection_in_ops_is_refused(
    handler: DBHandler, make_ctx: Any, shop_url: str, op: str
) -> None:
    request = SearchRequest(
        query="products", type=SearchType.DB, wheres=[{"field": "price", "op": op, "value": 1}]
    )
    with pytest.raises(SearchError) as info:
        await handler.asearch(request, make_ctx(shop_url, db={"models": ["products"]}))
    assert info.value.code is ErrorCode.INVALID_QUERY
    assert "unknown op" in info.value.message


@pytest.mark.usefixtures("unchanged")
@pytest.mark.parametrize(
    "where",
    [
        {"field": "name", "op": "=", "value": "x' OR '1'='1"},
        {"field": "name", "op": "like", "value": "%'; DROP TABLE products; --"},
        {"field": "brand", "op": "in", "value": ["Sonora') OR ('1'='1"]},
        {"field": "name", "op": "=", "value": "Vista 24 Monitor' --"},
    ],
)
async def test_injection_in_text_values_matches_nothing(
    handler: DBHandler, make_ctx: Any, shop_url: str, where: dict[str, Any]
) -> None:
    request = SearchRequest(query="products", type=SearchType.DB, wheres=[where])
    result = await handler.asearch(request, make_ctx(shop_url, db={"models": ["products"]}))
    assert result.items == []


@pytest.mark.parametrize("value", ["\u0000", "a\x00b"])
async def test_nul_characters_are_refused_on_every_database(
    handler: DBHandler, make_ctx: Any, shop_url: str, value: str
) -> None:
    for op in ("=", "like"):
        request = SearchRequest(
            query="products",
            type=SearchType.DB,
            wheres=[{"field": "name", "op": op, "value": value}],
        )
        with pytest.raises(SearchError) as info:
            await handler.asearch(request, make_ctx(shop_url, db={"models": ["products"]}))
        assert info.value.code is ErrorCode.INVALID_QUERY and "'name'" in info.value.message


@pytest.mark.parametrize("value", ["100; DROP TABLE products", "1 OR 1=1", "0x41", "1e999"])
async def test_injection_in_numeric_values_is_refused(
    handler: DBHandler, make_ctx: Any, shop_url: str, value: str
) -> None:
    request = SearchRequest(
        query="products", type=SearchType.DB, wheres=[{"field": "price", "op": ">", "value": value}]
    )
    with pytest.raises(SearchError) as info:
        await handler.asearch(request, make_ctx(shop_url, db={"models": ["products"]}))
    assert info.value.code is ErrorCode.INVALID_QUERY
    assert "'price'" in info.value.message


@pytest.mark.usefixtures("unchanged")
async def test_executor_runs_only_selects(engine: sa.Engine) -> None:
    executor = ReadOnlyExecutor(engine, timeout=5)
    table = sa.table("products", sa.column("price"))
    for statement in (
        sa.text("DELETE FROM orders"),
        sa.update(table).values(price=0),
        sa.insert(table).values(price=0),
        sa.delete(table),
    ):
        with pytest.raises(TypeError, match="only compiled select"):
            await executor.fetch(statement)  # type: ignore[arg-type]


async def test_sqlite_connection_itself_refuses_writes(
    shop_file: Path, fingerprint: Callable[[str], str]
) -> None:
    url = f"sqlite:///{shop_file}"
    before = fingerprint(url)
    engine = create_readonly_engine(url)
    try:
        with engine.connect() as conn, pytest.raises(sa.exc.OperationalError, match="readonly"):
            conn.execute(sa.text("DELETE FROM orders"))
    finally:
        engine.dispose()
    assert fingerprint(url) == before


@pytest.mark.postgres
async def test_postgres_transaction_is_read_only(
    pg_shop_url: str, fingerprint: Callable[[str], str]
) -> None:
    """A select that would write (advancing a sequence) fails inside the read-only transaction."""
    before = fingerprint(pg_shop_url)
    engine = create_readonly_engine(pg_shop_url)
    try:
        with pytest.raises(SearchError) as info:
            await ReadOnlyExecutor(engine, timeout=5).fetch(
                sa.select(sa.func.nextval("products_id_seq"))
            )
    finally:
        engine.dispose()
    assert info.value.code is ErrorCode.INVALID_QUERY
    assert "writes are not allowed" in info.value.message
    assert fingerprint(pg_shop_url) == before


async def test_slow_queries_hit_the_statement_timeout(engine: sa.Engine) -> None:
    orders = sa.table("orders", sa.column("id"))
    copies = [orders.alias(f"o{i}") for i in range(4)]
    query = sa.select(sa.func.count()).select_from(copies[0])
    for copy in copies[1:]:
        query = query.join(copy, sa.true())
    with pytest.raises(SearchError) as info:
        await ReadOnlyExecutor(engine, timeout=0.05).fetch(query)
    assert info.value.code is ErrorCode.TIMEOUT


def test_request_dsl_validation_errors_name_the_part() -> None:
    with pytest.raises(ValidationError):
        SearchRequest(query="x", type=SearchType.DB, select="price")  # type: ignore[arg-type]


HOSTILE = [
    '" OR ""="',
    "1 OR 1=1",
    "'; DROP TABLE products; --",
    "/* */ UNION SELECT email FROM customers --",
    "ＳＥＬＥＣＴ ＊ ＦＲＯＭ ｃｕｓｔｏｍｅｒｓ；",
    "DR\u200bOP TABLE orders\u202e",
    "\u0440\u0433\u043ed\u0443\u0441ts",  # "products" in Cyrillic look-alike letters
    "x" * 10_000,
    ("cheap " * 3_000).strip(),
]


@pytest.mark.usefixtures("unchanged")
@pytest.mark.parametrize("question", HOSTILE, ids=lambda q: q[:20])
async def test_hostile_questions_return_no_rows_at_all(
    handler: DBHandler, make_ctx: Any, shop_url: str, question: str
) -> None:
    """Nothing in these names the data honestly: no row comes back, and the answer says why."""
    ctx = make_ctx(shop_url)
    try:
        request = SearchRequest(query=question, type=SearchType.DB)
    except ValidationError:  # longer than any source reads: refused before searching
        assert len(question.strip()) > MAX_QUERY_CHARS
        return
    try:
        result = await handler.asearch(request, ctx)
    except SearchError as exc:  # empty once control characters are gone
        assert exc.code is ErrorCode.INVALID_QUERY
        return
    assert result.items == []
    assert result.error is not None and result.error.code is ErrorCode.INVALID_QUERY


def _file_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


async def _ask_everything(url: str, make_ctx: Any) -> None:
    """Ask every kind of question, hostile and ordinary, on a fresh handler."""
    handler = DBHandler()
    ctx = make_ctx(url)
    try:
        for question in [*QUESTIONS, *HOSTILE, "number of orders per status", "cheapest laptop"]:
            with contextlib.suppress(SearchError, ValidationError):
                await handler.asearch(SearchRequest(query=question, type=SearchType.DB), ctx)
    finally:
        await handler.aclose()


async def test_the_sqlite_file_is_byte_identical_after_every_kind_of_question(
    shop_file: Path, make_ctx: Any
) -> None:
    before = _file_digest(shop_file)
    await _ask_everything(f"sqlite:///{shop_file}", make_ctx)
    assert _file_digest(shop_file) == before


@pytest.mark.postgres
async def test_postgres_records_no_write_after_every_kind_of_question(
    pg_shop_url: str, make_ctx: Any, fingerprint: Callable[[str], str], read_sql: Any
) -> None:
    """Row contents and the server's own update and delete counters are unchanged.

    (Inserts show in the row contents; their counter may still be catching up with the copy
    that built the schema, so it is not compared.)
    """

    def writes() -> int:
        read_sql(pg_shop_url, "SELECT pg_stat_clear_snapshot()")
        [(total,)] = read_sql(
            pg_shop_url,
            "SELECT COALESCE(SUM(n_tup_upd + n_tup_del), 0)"
            " FROM pg_stat_user_tables WHERE schemaname = current_schema()",
        )
        return int(total)

    before, counted = fingerprint(pg_shop_url), writes()
    await _ask_everything(pg_shop_url, make_ctx)
    await asyncio.sleep(1.2)  # the server publishes its counters about once a second
    assert writes() == counted
    assert fingerprint(pg_shop_url) == before


async def test_a_question_about_a_model_not_exposed_is_refused_naming_the_exposed_ones(
    handler: DBHandler, make_ctx: Any, shop_file: Path
) -> None:
    ctx = make_ctx(f"sqlite:///{shop_file}", db={"models": ["orders"]})
    result = await handler.asearch(
        SearchRequest(query="orders of customers in Berlin", type=SearchType.DB), ctx
    )
    assert result.items == [] and result.error is not None
    assert "could not read 'berlin'" in result.error.message
    assert "use the names of models (orders)" in result.error.message
