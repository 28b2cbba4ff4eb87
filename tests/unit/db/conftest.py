"""Fixtures for database search: the sample shop on SQLite and, copied, on PostgreSQL."""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
import uuid
from collections.abc import Awaitable, Callable, Collection, Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from unified_search.config import SearchConfig
from unified_search.config.db import ModelSettings
from unified_search.contract.handler import SearchContext
from unified_search.db.compiler import compile_dsl
from unified_search.db.dsl import QueryDSL
from unified_search.db.execute import ReadOnlyExecutor, create_readonly_engine
from unified_search.db.nl.generate import Interpretation, interpret
from unified_search.db.nl.vocabulary import Domain
from unified_search.db.samples import ValueSampler
from unified_search.db.schema import ModelSchema, SchemaCatalog
from unified_search.samples.shop import build_shop_database


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


ENGINES = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


def _url_on(request: pytest.FixtureRequest, sqlite_file: Path, postgres_fixture: str) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{sqlite_file}"
    url: str = request.getfixturevalue(postgres_fixture)
    return url


@pytest.fixture(params=ENGINES)
def shop_url(request: pytest.FixtureRequest, shop_file: Path) -> str:
    """The sample shop's URL on each database under test."""
    return _url_on(request, shop_file, "pg_shop_url")


@pytest.fixture
def engine(shop_url: str) -> Iterator[sa.Engine]:
    """A read-only engine on the shop."""
    engine = create_readonly_engine(shop_url)
    yield engine
    engine.dispose()


RunDSL = Callable[..., Awaitable[list[Any]]]
SHOP_MODELS = ("products", "customers", "orders")


@pytest.fixture
def shop_models(engine: sa.Engine) -> Callable[..., dict[str, ModelSchema]]:
    """The shop's models as the compiler sees them, with optional settings per model."""
    catalog = SchemaCatalog(engine)

    def load(settings: dict[str, ModelSettings] | None = None) -> dict[str, ModelSchema]:
        chosen = settings or {}
        return {m: catalog.model(m, chosen.get(m, ModelSettings())) for m in SHOP_MODELS}

    return load


@pytest.fixture
def fetch_dsl(
    engine: sa.Engine, shop_models: Callable[..., dict[str, ModelSchema]]
) -> Callable[..., Awaitable[list[dict[str, Any]]]]:
    """Compile and run a DSL (JSON form) on the shop; return the answer rows by answer key."""
    executor = ReadOnlyExecutor(engine, timeout=5)

    async def fetch(
        dsl: dict[str, Any],
        *,
        max_results: int = 200,
        user: dict[str, Any] | None = None,
        settings: dict[str, ModelSettings] | None = None,
    ) -> list[dict[str, Any]]:
        compiled = compile_dsl(
            QueryDSL.model_validate(dsl),
            shop_models(settings),
            max_results=max_results,
            user=user or {},
        )
        return [compiled.named(row) for row in await executor.fetch(compiled.statement)]

    return fetch


@pytest.fixture
def run_dsl(fetch_dsl: Callable[..., Awaitable[list[dict[str, Any]]]]) -> RunDSL:
    """Compile and run a DSL on the shop; return the ids in result order."""

    async def run(dsl: dict[str, Any], **options: Any) -> list[Any]:
        return [row["id"] for row in await fetch_dsl(dsl, **options)]

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


LIBRARY_TODAY = dt.date(2024, 5, 20)
_LIBRARY = """
CREATE TABLE authors (id INTEGER PRIMARY KEY, name VARCHAR(60) NOT NULL, country VARCHAR(40));
CREATE TABLE books (
    id INTEGER PRIMARY KEY, title VARCHAR(80) NOT NULL, author_id INTEGER NOT NULL REFERENCES authors(id),
    genre VARCHAR(30) NOT NULL, published DATE NOT NULL, pages INTEGER NOT NULL, price NUMERIC(6, 2) NOT NULL
);
CREATE TABLE members (
    id INTEGER PRIMARY KEY, name VARCHAR(60) NOT NULL, email VARCHAR(80) NOT NULL,
    city VARCHAR(40) NOT NULL, joined DATE NOT NULL
);
CREATE TABLE loans (
    id INTEGER PRIMARY KEY, book_id INTEGER NOT NULL REFERENCES books(id),
    member_id INTEGER NOT NULL REFERENCES members(id), borrowed_on DATE NOT NULL, returned_on DATE
);
CREATE TABLE staff (
    id INTEGER PRIMARY KEY, name VARCHAR(60) NOT NULL, role VARCHAR(30) NOT NULL,
    manager_id INTEGER REFERENCES staff(id)
);
INSERT INTO authors VALUES (1, 'Ada Brook', 'Canada'), (2, 'Tom Reyes', 'Spain'), (3, 'Lin Wu', 'China');
INSERT INTO books VALUES
 (1, 'Star Harbour', 1, 'Science Fiction', '2019-03-02', 320, 14.50),
 (2, 'Ion Drift', 1, 'Science Fiction', '2023-08-15', 410, 21.00),
 (3, 'Garden Notes', 2, 'Nonfiction', '2012-05-20', 180, 9.99),
 (4, 'The Salt Road', 2, 'Nonfiction', '2021-11-01', 260, 17.25),
 (5, 'Moss and Ember', 3, 'Fantasy', '2018-01-10', 520, 12.00),
 (6, 'Quiet Ledger', 3, 'Mystery', '2024-02-29', 300, 19.90),
 (7, 'Paper Lanterns', 1, 'Fantasy', '2010-07-07', 150, 7.50);
INSERT INTO members VALUES
 (1, 'Ana Lopes', 'ana@example.org', 'Porto', '2023-01-15'),
 (2, 'Ben Ode', 'ben@example.org', 'Lagos', '2024-04-02'),
 (3, 'Cleo Marsh', 'cleo@example.org', 'Porto', '2022-09-30'),
 (4, 'Dev Rao', 'dev@example.org', 'Pune', '2024-05-10');
INSERT INTO loans VALUES
 (1, 1, 1, '2024-04-03', '2024-04-20'), (2, 5, 1, '2024-05-02', NULL),
 (3, 3, 2, '2024-04-11', '2024-04-30'), (4, 7, 3, '2023-12-01', '2024-01-05'),
 (5, 2, 3, '2024-05-12', NULL), (6, 5, 2, '2024-03-01', '2024-03-15');
INSERT INTO staff VALUES
 (1, 'Iris Vale', 'director', NULL), (2, 'Omar Kent', 'librarian', 1), (3, 'Pia Moor', 'librarian', 1),
 (4, 'Rudi Sand', 'assistant', 2);
CREATE VIEW open_loans AS SELECT id, book_id, member_id, borrowed_on FROM loans WHERE returned_on IS NULL;
"""


@pytest.fixture(scope="session")
def library_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small library database (authors, books, members, loans, staff, a view) as SQLite."""
    import sqlite3

    path = tmp_path_factory.mktemp("library") / "library.db"
    with sqlite3.connect(path) as conn:
        conn.executescript(_LIBRARY)
    conn.close()
    return path


@pytest.fixture(scope="module")
def pg_library_url(library_file: Path, postgres_url: str) -> Iterator[str]:
    """The library copied into a fresh PostgreSQL schema (tables only), dropped afterwards."""
    yield from _copy_to_postgres(library_file, postgres_url)


@pytest.fixture(params=ENGINES)
def library_url(request: pytest.FixtureRequest, library_file: Path) -> str:
    """The library's URL on each database under test."""
    return _url_on(request, library_file, "pg_library_url")


@pytest.fixture(scope="session")
def library_today() -> dt.date:
    """The day the library's questions treat as today."""
    return LIBRARY_TODAY


@pytest.fixture
def read_sql() -> Callable[[str, str], list[tuple[Any, ...]]]:
    """Run hand-written SQL on a database under test (a plain, writable engine)."""

    def run(url: str, sql: str) -> list[tuple[Any, ...]]:
        with plain_engine(url).connect() as conn:
            return [tuple(row) for row in conn.execute(sa.text(sql))]

    return run


@pytest.fixture(scope="session")
def sampled_domain() -> Callable[..., Domain]:
    """Build the builtin generator's view of a SQLite file: its models and sampled values."""

    def build(path: Path, lexicon: dict[str, str] | None = None) -> Domain:
        engine = create_readonly_engine(f"sqlite:///{path}")
        catalog = SchemaCatalog(engine)
        models = {name: catalog.model(name, ModelSettings()) for name in catalog.names()}
        executor = ReadOnlyExecutor(engine, timeout=5)
        sampler = ValueSampler(limit=50, rows=1000, ttl=300)

        async def sample() -> dict[str, Any]:
            return {n: await sampler.sample(m, executor, {}) for n, m in models.items()}

        samples = asyncio.run(sample())
        engine.dispose()
        return Domain(models, samples, lexicon or {})

    return build


NL_TODAY = dt.date(2025, 6, 15)  # the day questions over sampled schemas treat as today


class Readings:
    """The builtin generator's readings of questions over sampled schemas, by schema name.

    One place says what "understood whole" and "refused" mean, so every module checks them alike.
    """

    def __init__(self, domains: dict[str, Domain], hidden: Collection[str] = ()) -> None:
        self.domains = domains
        self.hidden = frozenset(hidden)

    def read(self, schema: str, question: str) -> Interpretation:
        """The reading over every model of the schema but the hidden ones."""
        domain = self.domains[schema]
        models = [m for m in domain.models if m not in self.hidden]
        return interpret(question, domain, models, today=NL_TODAY)

    def dsl(self, schema: str, question: str) -> dict[str, Any]:
        """The one plan's DSL; the question must be understood whole."""
        reading = self.read(schema, question)
        assert reading.unknown == (), reading.unknown
        assert len(reading.plans) == 1, [p.dsl.as_json() for p in reading.plans]
        return reading.plans[0].dsl.as_json()

    def refused(self, schema: str, question: str) -> tuple[str, ...]:
        """The words not understood (the question must be refused)."""
        reading = self.read(schema, question)
        assert reading.unknown, (
            f"{question!r} should be refused: {[p.dsl.as_json() for p in reading.plans]}"
        )
        return reading.unknown


@pytest.fixture(scope="session")
def readings_of(sampled_domain: Callable[..., Domain]) -> Callable[..., Readings]:
    """Build ``Readings`` over SQLite files by schema name, leaving out the ``hidden`` models.

    A fixture because test modules cannot import conftest under importlib mode.
    """

    def build(files: dict[str, Path], hidden: Collection[str] = ()) -> Readings:
        return Readings({name: sampled_domain(path) for name, path in files.items()}, hidden)

    return build


# Three more schemas with the habits of databases nobody wrote rules for: capitalised and
# abbreviated column names (LName, StuID, pet_age), years held as text, a link table, two
# foreign keys from one table to another.
EVERYDAY_SCHEMAS = {
    "music": """
CREATE TABLE stadium (Stadium_ID INT PRIMARY KEY, Location TEXT, Name TEXT, Capacity INT, Average INT);
CREATE TABLE singer (Singer_ID INT PRIMARY KEY, Name TEXT, Country TEXT, Song_Name TEXT,
    Song_release_year TEXT, Age INT);
CREATE TABLE concert (concert_ID INT PRIMARY KEY, concert_Name TEXT, Theme TEXT,
    Stadium_ID INT REFERENCES stadium(Stadium_ID), Year TEXT);
CREATE TABLE singer_in_concert (concert_ID INT REFERENCES concert(concert_ID),
    Singer_ID INT REFERENCES singer(Singer_ID), PRIMARY KEY (concert_ID, Singer_ID));
INSERT INTO stadium VALUES (1, 'Raith Rovers', 'Stark''s Park', 10104, 864), (2, 'Ayr United', 'Somerset Park', 11998, 1477),
    (3, 'East Fife', 'Bayview Stadium', 2000, 864), (4, 'Queen''s Park', 'Hampden Park', 52500, 730),
    (5, 'Stirling Albion', 'Forthbank Stadium', 3808, 1125);
INSERT INTO singer VALUES (1, 'Joe Sharp', 'Netherlands', 'You', '1992', 52), (2, 'Timbaland', 'United States', 'Dangerous', '2008', 32),
    (3, 'Justin Brown', 'France', 'Hey Oh', '2013', 29), (4, 'Rose White', 'France', 'Sun', '2003', 41),
    (5, 'John Nizinik', 'France', 'Gentleman', '2014', 43), (6, 'Tribal King', 'France', 'Love', '2016', 25);
INSERT INTO concert VALUES (1, 'Auditions', 'Free choice', 1, '2014'), (2, 'Super bootcamp', 'Free choice 2', 2, '2014'),
    (3, 'Home Visits', 'Bleeding Love', 2, '2015'), (4, 'Week 1', 'Wide Awake', 4, '2014'),
    (5, 'Week 1', 'Happy Tonight', 4, '2015'), (6, 'Week 2', 'Party All Night', 4, '2015');
INSERT INTO singer_in_concert VALUES (1, 2), (1, 3), (1, 5), (2, 3), (2, 6), (3, 5), (4, 4), (5, 6), (5, 3), (6, 2);
""",
    "school": """
CREATE TABLE Student (StuID INTEGER PRIMARY KEY, LName VARCHAR(12), Fname VARCHAR(12), Age INTEGER,
    Sex VARCHAR(1), city_code VARCHAR(3));
CREATE TABLE Pets (PetID INTEGER PRIMARY KEY, PetType VARCHAR(20), pet_age INTEGER, weight REAL);
CREATE TABLE Has_Pet (StuID INTEGER REFERENCES Student(StuID), PetID INTEGER REFERENCES Pets(PetID));
INSERT INTO Student VALUES (1001, 'Smith', 'Linda', 18, 'F', 'BAL'), (1002, 'Kim', 'Tracy', 19, 'F', 'HKG'),
    (1003, 'Jones', 'Shiela', 21, 'F', 'WAS'), (1004, 'Kumar', 'Dinesh', 20, 'M', 'CHI'),
    (1005, 'Gompers', 'Paul', 26, 'M', 'YYZ'), (1006, 'Schultz', 'Andy', 18, 'M', 'BAL'),
    (1007, 'Apap', 'Lisa', 18, 'F', 'PIT');
INSERT INTO Pets VALUES (2001, 'cat', 3, 12.0), (2002, 'dog', 2, 13.4), (2003, 'dog', 1, 9.3), (2004, 'cat', 5, 4.1);
INSERT INTO Has_Pet VALUES (1001, 2001), (1002, 2002), (1002, 2003), (1005, 2004);
""",
    "flights": """
CREATE TABLE airports (AirportCode TEXT PRIMARY KEY, AirportName TEXT, City TEXT);
CREATE TABLE flights (FlightNo INTEGER PRIMARY KEY, SourceAirport TEXT REFERENCES airports(AirportCode),
    DestAirport TEXT REFERENCES airports(AirportCode), Price REAL);
INSERT INTO airports VALUES ('JFK', 'Kennedy', 'New York'), ('LAX', 'Los Angeles Intl', 'Los Angeles'),
    ('ORD', 'O Hare', 'Chicago');
INSERT INTO flights VALUES (1, 'JFK', 'LAX', 320), (2, 'LAX', 'JFK', 310), (3, 'JFK', 'ORD', 210), (4, 'ORD', 'LAX', 280);
""",
}


@pytest.fixture(scope="session")
def script_files(tmp_path_factory: pytest.TempPathFactory) -> Callable[..., dict[str, Path]]:
    """Write SQL scripts, by name, as SQLite files in a fresh folder."""
    import sqlite3

    def build(scripts: dict[str, str]) -> dict[str, Path]:
        folder = tmp_path_factory.mktemp("scripts")
        files: dict[str, Path] = {}
        for name, script in scripts.items():
            files[name] = folder / f"{name}.db"
            with sqlite3.connect(files[name]) as conn:
                conn.executescript(script)
            conn.close()
        return files

    return build


@pytest.fixture(scope="session")
def everyday_files(script_files: Callable[..., dict[str, Path]]) -> dict[str, Path]:
    """The three schemas above as SQLite files."""
    return script_files(EVERYDAY_SCHEMAS)


@pytest.fixture(scope="module")
def pg_everyday_urls(
    everyday_files: dict[str, Path], postgres_url: str
) -> Iterator[dict[str, str]]:
    """The three schemas above, each copied into a fresh PostgreSQL schema, dropped afterwards."""
    copies = [_copy_to_postgres(path, postgres_url) for path in everyday_files.values()]
    urls = {name: next(copy) for name, copy in zip(everyday_files, copies, strict=True)}
    yield urls
    for copy in copies:
        next(copy, None)


@pytest.fixture(params=ENGINES)
def everyday_urls(
    request: pytest.FixtureRequest, everyday_files: dict[str, Path]
) -> dict[str, str]:
    """The three schemas' URLs on each database under test."""
    if request.param == "sqlite":
        return {name: f"sqlite:///{path}" for name, path in everyday_files.items()}
    urls: dict[str, str] = request.getfixturevalue("pg_everyday_urls")
    return urls
