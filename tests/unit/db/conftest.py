"""Fixtures for database search: the sample shop on SQLite and, copied, on PostgreSQL."""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from unified_search.config import SearchConfig
from unified_search.db.compiler import compile_dsl
from unified_search.db.config import ModelSettings
from unified_search.db.dsl import QueryDSL
from unified_search.db.execute import ReadOnlyExecutor, create_readonly_engine
from unified_search.db.sample import build_shop_database
from unified_search.db.schema import SchemaCatalog
from unified_search.handler import SearchContext


@pytest.fixture(scope="session")
def shop_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample shop database as a SQLite file (shared, never written after creation)."""
    return build_shop_database(tmp_path_factory.mktemp("shop") / "shop.db")


def _copy_to_postgres(source: Path, base_url: str) -> Iterator[str]:
    schema = "us_db_" + uuid.uuid4().hex[:10]
    admin = sa.create_engine(base_url)
    with admin.begin() as conn:
        conn.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    reader = sa.create_engine(f"sqlite:///{source}")
    meta = sa.MetaData()
    meta.reflect(reader)
    target = sa.MetaData(schema=schema)
    tables = [t.to_metadata(target) for t in meta.sorted_tables]
    try:
        target.create_all(admin)
        with reader.connect() as src, admin.begin() as dst:
            for table, copy in zip(meta.sorted_tables, tables, strict=True):
                rows = [dict(r) for r in src.execute(sa.select(table)).mappings()]
                dst.execute(sa.insert(copy), rows)
        yield f"{base_url}?options=-csearch_path%3D{schema}"
    finally:
        reader.dispose()
        for url in [u for u in _PLAIN if schema in u]:
            _PLAIN.pop(url).dispose()
        with admin.begin() as conn:
            conn.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


@pytest.fixture(scope="module")
def pg_shop_url(shop_file: Path, postgres_url: str) -> Iterator[str]:
    """The sample shop copied into a fresh PostgreSQL schema, dropped afterwards."""
    yield from _copy_to_postgres(shop_file, postgres_url)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def shop_url(request: pytest.FixtureRequest, shop_file: Path) -> str:
    """The sample shop's URL on each database under test."""
    if request.param == "sqlite":
        return f"sqlite:///{shop_file}"
    url: str = request.getfixturevalue("pg_shop_url")
    return url


@pytest.fixture
def engine(shop_url: str) -> Iterator[sa.Engine]:
    """A read-only engine on the shop."""
    engine = create_readonly_engine(shop_url)
    yield engine
    engine.dispose()


RunDSL = Callable[..., Awaitable[list[Any]]]


@pytest.fixture
def run_dsl(engine: sa.Engine) -> RunDSL:
    """Compile and run a DSL (JSON form) on the shop; return the ids in result order."""
    catalog = SchemaCatalog(engine)
    executor = ReadOnlyExecutor(engine, timeout=5)

    async def run(
        dsl: dict[str, Any],
        *,
        max_results: int = 200,
        user: dict[str, Any] | None = None,
        settings: ModelSettings | None = None,
    ) -> list[Any]:
        schema = catalog.model(dsl["model"], settings or ModelSettings())
        query = compile_dsl(
            QueryDSL.model_validate(dsl), schema, max_results=max_results, user=user or {}
        )
        return [row["id"] for row in await executor.fetch(query)]

    return run


_PLAIN: dict[str, sa.Engine] = {}


def plain_engine(url: str) -> sa.Engine:
    """A cached ordinary (writable) engine, for test setup and checks only."""
    if url not in _PLAIN:
        _PLAIN[url] = sa.create_engine(url)
    return _PLAIN[url]


@pytest.fixture(scope="session", autouse=True)
def _dispose_plain_engines() -> Iterator[None]:
    yield
    for engine in _PLAIN.values():
        engine.dispose()


@pytest.fixture
def ids_where(shop_url: str) -> Callable[[str], list[int]]:
    """Run hand-written SQL to get the ids a test expects."""

    def query(sql: str) -> list[int]:
        with plain_engine(shop_url).connect() as conn:
            return [row[0] for row in conn.execute(sa.text(sql))]

    return query


def checksum(url: str) -> str:
    """Fingerprint every row of every table, to prove a database did not change."""
    engine = plain_engine(url)
    digest = hashlib.sha256()
    meta = sa.MetaData()
    meta.reflect(engine)
    with engine.connect() as conn:
        for table in meta.sorted_tables:
            rows = conn.execute(sa.select(table).order_by(*table.primary_key.columns)).all()
            digest.update(f"{table.name}:{len(rows)}:{rows!r}".encode())
    return digest.hexdigest()


@pytest.fixture
def fingerprint() -> Callable[[str], str]:
    """The ``checksum`` function, as a fixture."""
    return checksum


@pytest.fixture
def make_ctx() -> Callable[..., SearchContext]:
    """Build a ``SearchContext`` for a URL, with optional ``db``/``querydsl``/``uses`` settings."""

    def make(url: str, *, user: dict[str, Any] | None = None, **profile: Any) -> SearchContext:
        db = {"url": url, **profile.pop("db", {})}
        config = SearchConfig.load(profile={"db": db, **profile})
        return SearchContext(config=config, request_id="test", user=user or {})

    return make
