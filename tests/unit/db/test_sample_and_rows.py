"""The sample shop, row → item conversion, schema helpers and engine handling."""

from __future__ import annotations

import datetime as dt
import decimal
import sqlite3
import uuid
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import sqlalchemy as sa

from unified_search.config.db import ModelSettings
from unified_search.db.execute import EnginePool, create_readonly_engine
from unified_search.db.rows import jsonable, readable
from unified_search.db.schema import SchemaCatalog, column_kind
from unified_search.errors import ErrorCode, SearchError
from unified_search.samples.shop import build_shop_database


def _dump(path: Path) -> list[Any]:
    with sqlite3.connect(path) as conn:
        rows = [
            conn.execute(f"SELECT * FROM {t} ORDER BY id").fetchall()
            for t in ("products", "customers", "orders")
        ]
    conn.close()
    return rows


def test_sample_database_is_deterministic(tmp_path: Path) -> None:
    first = _dump(build_shop_database(tmp_path / "a.db"))
    second = _dump(build_shop_database(tmp_path / "b.db"))
    assert first == second
    assert [len(rows) for rows in first] == [40, 26, 120]


def test_sample_refuses_to_overwrite_unless_asked(tmp_path: Path) -> None:
    path = build_shop_database(tmp_path / "shop.db")
    with pytest.raises(FileExistsError):
        build_shop_database(path, overwrite=False)
    assert build_shop_database(path) == path


def test_sample_orders_reference_real_rows(shop_file: Path) -> None:
    with sqlite3.connect(shop_file) as conn:
        dangling = conn.execute(
            "SELECT COUNT(*) FROM orders o LEFT JOIN products p ON p.id = o.product_id"
            " LEFT JOIN customers c ON c.id = o.customer_id WHERE p.id IS NULL OR c.id IS NULL"
        ).fetchone()[0]
        wrong_totals = conn.execute(
            "SELECT COUNT(*) FROM orders o JOIN products p ON p.id = o.product_id"
            " WHERE abs(o.total - p.price * o.quantity) > 0.01"
        ).fetchone()[0]
    conn.close()
    assert (dangling, wrong_totals) == (0, 0)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (decimal.Decimal("12.50"), 12.5),
        (decimal.Decimal("3"), 3),
        (dt.date(2025, 1, 2), "2025-01-02"),
        (dt.datetime(2025, 1, 2, 3, 4), "2025-01-02T03:04:00"),
        (b"\x00\x01", "AAE="),
        (uuid.UUID(int=1), "00000000-0000-0000-0000-000000000001"),
        (None, None),
        (SimpleNamespace(), "namespace()"),
    ],
)
def test_jsonable(value: Any, expected: Any) -> None:
    assert jsonable(value) == expected


def test_readable_leaves_out_empty_values() -> None:
    assert readable({"name": "Mug", "note": None, "price": 5}) == "name: Mug\nprice: 5"


@pytest.mark.parametrize(
    ("type_", "kind"),
    [
        (sa.Integer(), "int"),
        (sa.BigInteger(), "int"),
        (sa.Numeric(10, 2), "float"),
        (sa.Float(), "float"),
        (sa.String(5), "str"),
        (sa.Text(), "str"),
        (sa.Boolean(), "bool"),
        (sa.Date(), "date"),
        (sa.DateTime(), "datetime"),
        (sa.LargeBinary(), "other"),
    ],
)
def test_column_kinds(type_: Any, kind: str) -> None:
    assert column_kind(type_) == kind


def test_schema_reflects_keys_and_settings(shop_file: Path) -> None:
    engine = create_readonly_engine(f"sqlite:///{shop_file}")
    settings = ModelSettings(label="Order", columns={"total": "Amount paid in USD"}, title="status")
    schema = SchemaCatalog(engine).model("orders", settings)
    engine.dispose()
    described = schema.describe()
    columns = {c["name"]: c for c in described["columns"]}
    assert described["primary_key"] == ["id"] and described["label"] == "Order"
    assert columns["customer_id"]["references"] == "customers.id"
    assert columns["total"]["description"] == "Amount paid in USD"
    assert schema.title == "status" and schema.columns["quantity"].nullable is False


def test_catalog_lists_tables_and_views(tmp_path: Path) -> None:
    path = tmp_path / "views.db"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE a (id INTEGER PRIMARY KEY, name TEXT)")
        conn.execute("CREATE VIEW b AS SELECT id, name FROM a")
    conn.close()
    engine = create_readonly_engine(f"sqlite:///{path}")
    catalog = SchemaCatalog(engine)
    assert catalog.names() == ["a", "b"]
    assert list(catalog.model("b", ModelSettings()).columns) == ["id", "name"]
    catalog.clear()
    engine.dispose()


def test_bad_url_is_a_clear_error() -> None:
    with pytest.raises(SearchError) as info:
        create_readonly_engine("not a url")
    assert info.value.code is ErrorCode.INVALID_QUERY


def test_engine_pool_reuses_and_disposes(shop_file: Path) -> None:
    pool = EnginePool()
    url = f"sqlite:///{shop_file}"
    first = pool.get(url)
    assert pool.get(url) is first
    pool.dispose()
    assert pool.get(url) is not first
    pool.dispose()
