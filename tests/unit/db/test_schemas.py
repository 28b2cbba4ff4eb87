"""Models beyond plain tables of the default schema: PostgreSQL schemas and views with configured keys."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from unified_search.db.handler import DBHandler
from unified_search.errors import ErrorCode, SearchError
from unified_search.types import SearchRequest, SearchType


@pytest.fixture(scope="module")
def handler() -> Iterator[DBHandler]:
    handler = DBHandler()
    yield handler
    asyncio.run(handler.aclose())


def request(query: str, **fields: Any) -> SearchRequest:
    return SearchRequest(query=query, type=SearchType.DB, **fields)


@pytest.fixture(scope="module")
def sales_schema(postgres_url: str) -> Iterator[str]:
    """A PostgreSQL schema outside the search path: customers, orders and a view over them."""
    schema = "us_sales_" + uuid.uuid4().hex[:8]
    engine = sa.create_engine(postgres_url)
    with engine.begin() as conn:
        conn.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
        conn.execute(
            sa.text(
                f'CREATE TABLE "{schema}".customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL,'
                " city TEXT NOT NULL)"
            )
        )
        conn.execute(
            sa.text(
                f'CREATE TABLE "{schema}".orders (id INTEGER PRIMARY KEY, customer_id INTEGER'
                f' NOT NULL REFERENCES "{schema}".customers(id), total NUMERIC(8, 2) NOT NULL)'
            )
        )
        conn.execute(
            sa.text(
                f"INSERT INTO \"{schema}\".customers VALUES (1, 'Ana', 'Oslo'), (2, 'Bo', 'Rome')"
            )
        )
        conn.execute(
            sa.text(f'INSERT INTO "{schema}".orders VALUES (1, 1, 10), (2, 2, 20), (3, 1, 30)')
        )
        conn.execute(
            sa.text(
                f'CREATE VIEW "{schema}".big_orders AS SELECT id, customer_id, total'
                f' FROM "{schema}".orders WHERE total >= 20'
            )
        )
    try:
        yield schema
    finally:
        with engine.begin() as conn:
            conn.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
        engine.dispose()


@pytest.mark.postgres
async def test_tables_of_a_listed_schema_are_models_named_schema_dot_table(
    handler: DBHandler, postgres_url: str, sales_schema: str, make_ctx: Any
) -> None:
    orders = f"{sales_schema}.orders"
    ctx = make_ctx(postgres_url, db={"schemas": [sales_schema]})
    result = await handler.asearch(request("orders of customers in Oslo", models=[orders]), ctx)
    assert result.error is None
    assert sorted(i.record_id for i in result.items if i.record_id) == ["1", "3"]
    assert result.dsl == {
        "model": orders,
        "joins": [{"model": f"{sales_schema}.customers", "as": "customers"}],
        "wheres": [{"field": "customers.city", "op": "=", "value": "Oslo"}],
    }
    assert all(i.model == orders for i in result.items)


@pytest.mark.postgres
async def test_a_view_of_a_listed_schema_joins_through_a_configured_key(
    handler: DBHandler, postgres_url: str, sales_schema: str, make_ctx: Any
) -> None:
    view = f"{sales_schema}.big_orders"
    settings = {view: {"foreign_keys": {"customer_id": f"{sales_schema}.customers.id"}}}
    ctx = make_ctx(postgres_url, db={"schemas": [sales_schema], "settings": settings})
    result = await handler.asearch(request("big orders of customers in Rome", models=[view]), ctx)
    assert result.error is None, result.error
    assert [i.data for i in result.items] == [{"id": 2, "customer_id": 2, "total": 20}]
    assert result.dsl is not None and result.dsl["joins"][0]["model"] == f"{sales_schema}.customers"


@pytest.mark.postgres
async def test_a_table_in_an_unlisted_schema_is_named_in_the_refusal(
    handler: DBHandler, postgres_url: str, sales_schema: str, make_ctx: Any
) -> None:
    with pytest.raises(SearchError) as info:
        await handler.asearch(request("orders", models=["orders"]), make_ctx(postgres_url))
    assert info.value.code is ErrorCode.INVALID_QUERY
    # Other schemas of the shared server may hold an ``orders`` table too: each is named.
    found, _, hint = info.value.message.partition(" exists: add ")
    assert f"'{sales_schema}.orders'" in found
    assert f"'{sales_schema}'" in hint and hint.endswith(" to db.schemas and name it so")


@pytest.mark.postgres
async def test_an_unknown_schema_is_refused(
    handler: DBHandler, postgres_url: str, make_ctx: Any
) -> None:
    with pytest.raises(SearchError, match=r"db\.schemas names 'nowhere'"):
        await handler.asearch(
            request("orders"), make_ctx(postgres_url, db={"schemas": ["nowhere"]})
        )


async def test_a_sqlite_view_joins_through_a_configured_key(
    handler: DBHandler, library_file: Path, make_ctx: Any
) -> None:
    """Views declare no foreign keys; ``foreign_keys`` in their settings makes them joinable."""
    settings = {"open_loans": {"foreign_keys": {"book_id": "books.id", "member_id": "members.id"}}}
    ctx = make_ctx(f"sqlite:///{library_file}", db={"settings": settings})
    result = await handler.asearch(request("open loans of fantasy books"), ctx)
    assert result.error is None, result.error
    assert result.dsl == {
        "model": "open_loans",
        "joins": [{"model": "books"}],
        "wheres": [{"field": "books.genre", "op": "=", "value": "Fantasy"}],
    }
    assert [i.data["id"] for i in result.items if i.data] == [2]


async def test_a_configured_key_naming_a_missing_column_is_refused(
    handler: DBHandler, library_file: Path, make_ctx: Any
) -> None:
    settings = {"open_loans": {"foreign_keys": {"shelf_id": "shelves.id"}}}
    ctx = make_ctx(f"sqlite:///{library_file}", db={"settings": settings})
    with pytest.raises(SearchError, match="names columns the model lacks: shelf_id"):
        await handler.asearch(request("open loans"), ctx)
