"""Collections shared by machines (a Chroma server and PostgreSQL), and writers that meet.

Two handlers with their own data folders stand for two machines: what one indexes the
other searches, re-indexes and checks at once, ranked as embedded mode ranks it. Two
writer processes never write one collection at the same time, and a killed one leaves
a collection that ``check`` explains and the next write completes.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from sqlalchemy import create_engine, inspect

from unified_search.cli.kb import kb as kb_group
from unified_search.config import SearchConfig
from unified_search.contract.handler import SearchContext
from unified_search.engine.searcher import Searcher
from unified_search.errors import ErrorCode, SearchError
from unified_search.kb.handler import KBHandler
from unified_search.kb.sidestore import table_prefix
from unified_search.types import SearchRequest, SearchResult, SearchType

pytestmark = pytest.mark.postgres

DOCS = [
    {"id": "vec", "title": "Vector stores", "text": "Chroma keeps embeddings in a vector index."},
    {"id": "bm25", "title": "Lexical ranking", "text": "BM25 ranks documents by term frequency."},
    {"id": "graph", "title": "Graphs", "text": "Entities and relations form a knowledge graph."},
    {"id": "fusion", "title": "Fusion", "text": "Hybrid search fuses dense and lexical ranks."},
]
WRITER = Path(__file__).with_name("slow_writer.py")


@pytest.fixture
def collection(postgres_url: str) -> Iterator[str]:
    """A collection name of this test alone; its tables are dropped afterwards."""
    name = f"team-{uuid.uuid4().hex[:10]}"
    yield name
    engine = create_engine(postgres_url)
    prefix = table_prefix(name)
    with engine.begin() as conn:
        for table in inspect(conn).get_table_names():
            if table.startswith(prefix):
                conn.exec_driver_sql(f'DROP TABLE IF EXISTS "{table}"')
    engine.dispose()


@pytest.fixture
def machine(
    tmp_path: Path, chroma_server: str, postgres_url: str, make_embedding: Any
) -> Callable[..., KBHandler]:
    """A handler as one machine of a shared deployment builds it (its own data folder)."""

    def build(home: str, **kb: Any) -> KBHandler:
        profile = {
            "kb": {
                "data_dir": str(tmp_path / home),
                "chroma_url": chroma_server,
                "store_url": postgres_url,
                **kb,
            }
        }
        return KBHandler.from_config(SearchConfig.load(profile=profile), embedding=make_embedding())

    return build


@pytest.fixture
async def two(machine: Callable[..., KBHandler]) -> AsyncIterator[tuple[KBHandler, KBHandler]]:
    a, b = machine("a"), machine("b")
    yield a, b
    await a.aclose()
    await b.aclose()


def req(query: str, collection: str) -> SearchRequest:
    return SearchRequest(query=query, type="kb", collections=[collection])


def ranked(result: Any) -> list[tuple[str, float]]:
    return [(item.document_id, round(item.score, 6)) for item in result.items]


async def test_what_one_machine_indexes_another_searches_at_once(
    two: tuple[KBHandler, KBHandler], collection: str, ctx: SearchContext
) -> None:
    a, b = two
    await a.aadd_documents(collection, DOCS[:3])
    first = await b.asearch(req("term frequency ranking", collection), ctx)
    assert first.items[0].document_id == "bm25"
    assert ranked(first) == ranked(await a.asearch(req("term frequency ranking", collection), ctx))
    await a.aadd_documents(collection, DOCS[3:])  # B's next search sees the new generation
    fused = await b.asearch(req("hybrid fusion of ranks", collection), ctx)
    assert fused.items[0].document_id == "fusion"
    assert await b.adelete_documents(collection, ["fusion"]) == 1  # B writes, A sees it
    gone = await a.asearch(req("hybrid fusion of ranks", collection), ctx)
    assert "fusion" not in {item.document_id for item in gone.items}
    assert {d.id for d in await a.alist_documents(collection)} == {"vec", "bm25", "graph"}
    for handler in (a, b):
        found = await handler.acheck(collection)
        assert found.consistent and not found.unfinished and found.chunks == 3


async def test_shared_mode_ranks_as_embedded_mode(
    two: tuple[KBHandler, KBHandler],
    collection: str,
    config: SearchConfig,
    make_embedding: Any,
    ctx: SearchContext,
) -> None:
    a, _ = two
    embedded = KBHandler.from_config(config, embedding=make_embedding())
    await a.aadd_documents(collection, DOCS)
    await embedded.aadd_documents(collection, DOCS)
    for query in ("vector index", "graph of entities", "ranks", "BM25 dense hybrid"):
        here = await embedded.asearch(req(query, collection), ctx)
        there = await a.asearch(req(query, collection), ctx)
        assert ranked(there) == ranked(here)
    await embedded.aclose()


async def test_the_cache_of_the_lexical_index_can_be_deleted(
    two: tuple[KBHandler, KBHandler],
    machine: Callable[..., KBHandler],
    collection: str,
    ctx: SearchContext,
    tmp_path: Path,
) -> None:
    a, b = two
    await a.aadd_documents(collection, DOCS)
    before = ranked(await b.asearch(req("vector index", collection), ctx))
    cache = tmp_path / "b" / "cache"
    assert any(cache.rglob("*.npy"))
    shutil.rmtree(cache)
    restarted = machine("b")
    assert ranked(await restarted.asearch(req("vector index", collection), ctx)) == before
    await restarted.aclose()


async def test_a_store_that_cannot_be_reached_fails_the_kb_with_a_coded_error(
    machine: Callable[..., KBHandler], collection: str, ctx: SearchContext
) -> None:
    down = machine(
        "down", store_url="postgresql+psycopg://postgres@127.0.0.1:9/test", store_timeout=2
    )
    with pytest.raises(SearchError) as info:
        await down.aadd_documents(collection, DOCS)
    assert info.value.code in (ErrorCode.NETWORK_ERROR, ErrorCode.TIMEOUT)
    assert "knowledge-base store" in info.value.message
    await down.aclose()


def test_the_store_url_needs_a_chroma_server_and_postgresql() -> None:
    with pytest.raises(ValueError, match=r"kb\.chroma_url"):
        SearchConfig.load(profile={"kb": {"store_url": "postgresql://h/db"}})
    with pytest.raises(ValueError, match="PostgreSQL"):
        SearchConfig.load(
            profile={"kb": {"store_url": "mysql://h/db", "chroma_url": "http://h:8000"}}
        )


# -- two writers --------------------------------------------------------------------------


def start_writer(
    profile: dict[str, Any], collection: str, started: Path, documents: int
) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [
            sys.executable,
            str(WRITER),
            json.dumps(profile),
            collection,
            str(started),
            str(documents),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def wait_for(path: Path, process: subprocess.Popen[str]) -> None:
    while not path.exists():
        assert process.poll() is None, process.communicate()
        time.sleep(0.05)


@pytest.fixture(params=["embedded", "shared"])
def profile(
    request: pytest.FixtureRequest, tmp_path: Path, postgres_url: str
) -> Iterator[dict[str, Any]]:
    """The configuration both writers share: one embedded data folder, or shared servers."""
    if request.param == "embedded":
        yield {"kb": {"data_dir": str(tmp_path / "kb"), "write_wait": 0.5}}
        return
    url = request.getfixturevalue("chroma_server")
    yield {
        "kb": {
            "data_dir": str(tmp_path / "kb"),
            "chroma_url": url,
            "store_url": postgres_url,
            "write_wait": 0.5,
        }
    }


async def test_a_second_writer_waits_then_fails_and_a_killed_one_is_continued(
    profile: dict[str, Any], collection: str, tmp_path: Path, make_embedding: Any
) -> None:
    started = tmp_path / "started"
    writer = start_writer(profile, collection, started, 3000)
    wait_for(started, writer)
    second = KBHandler.from_config(SearchConfig.load(profile=profile), embedding=make_embedding())
    with pytest.raises(SearchError) as info:
        await second.aadd_documents(collection, DOCS)
    assert info.value.code is ErrorCode.TIMEOUT
    assert collection in info.value.message and "kb.write_wait" in info.value.message
    writer.kill()  # mid-write: its lock goes with it, its write-in-progress marker stays
    writer.communicate()
    assert (await second.acheck(collection)).unfinished
    report = await second.aadd_documents(collection, DOCS)
    assert report.added == len(DOCS)
    after = await second.acheck(collection)
    assert after.consistent and not after.unfinished and after.chunks == len(DOCS)
    await second.aclose()


async def test_two_writers_one_after_the_other_store_each_chunk_once(
    chroma_server: str, postgres_url: str, collection: str, tmp_path: Path, make_embedding: Any
) -> None:
    shared = {"chroma_url": chroma_server, "store_url": postgres_url, "write_wait": 60}
    profile = {"kb": {"data_dir": str(tmp_path / "kb"), **shared}}
    writers = [start_writer(profile, collection, tmp_path / f"go-{i}", 400) for i in range(2)]
    outputs = [w.communicate(timeout=120) for w in writers]
    assert all(w.returncode == 0 for w in writers), outputs
    added = sorted(json.loads(out)["added"] for out, _ in outputs)
    assert added == [0, 400]  # the second found every chunk stored by the first
    kb = KBHandler.from_config(SearchConfig.load(profile=profile), embedding=make_embedding())
    found = await kb.acheck(collection)
    assert found.consistent and found.chunks == 400
    await kb.aclose()


# -- moving up ----------------------------------------------------------------------------


def test_kb_copy_moves_an_embedded_collection_to_the_servers_without_embedding(
    tmp_path: Path, chroma_server: str, postgres_url: str, collection: str
) -> None:
    source = tmp_path / "laptop.yml"
    source.write_text(json.dumps({"kb": {"data_dir": str(tmp_path / "laptop")}}))
    shared = {"chroma_url": chroma_server, "store_url": postgres_url}
    target = tmp_path / "servers.yml"
    target.write_text(json.dumps({"kb": {"data_dir": str(tmp_path / "server"), **shared}}))
    here = asyncio.run(index_and_search(SearchConfig.load(source), collection, DOCS))

    runner = CliRunner()
    args = ["copy", collection, "--to", str(target), "--config", str(source)]
    first = runner.invoke(kb_group, args, standalone_mode=False)
    assert first.exception is None, first.output
    assert f"copied {len(DOCS)} of {len(DOCS)} chunks" in first.output
    assert f"source {collection}: {len(DOCS)} chunks, consistent" in first.output
    assert f"target {collection}: {len(DOCS)} chunks, consistent" in first.output
    again = runner.invoke(kb_group, args, standalone_mode=False)  # nothing left to copy
    assert f"copied 0 of {len(DOCS)} chunks" in again.output

    assert asyncio.run(index_and_search(SearchConfig.load(target), collection, [])) == here


async def index_and_search(
    config: SearchConfig, collection: str, docs: list[dict[str, str]]
) -> list[tuple[str, float]]:
    """Index ``docs`` with the configured model, then search (what a user's process does)."""
    handler = KBHandler.from_config(config)
    if docs:
        await handler.aadd_documents(collection, docs)
    ctx = SearchContext(config=config, request_id="copy")
    found = ranked(await handler.asearch(req("term frequency", collection), ctx))
    await handler.aclose()
    return found


class Web:
    """A web source that answers at once."""

    async def asearch(self, request: SearchRequest, ctx: SearchContext) -> SearchResult:
        return SearchResult(type=SearchType.WEB, query=request.query, items=[], total=0)


async def test_a_hung_store_fails_the_kb_source_alone_at_its_timeout(
    machine: Callable[..., KBHandler], collection: str, hang_guard: Any, make_embedding: Any
) -> None:
    indexer = machine("a")
    await indexer.aadd_documents(collection, DOCS)
    await indexer.aclose()
    with socket.socket() as silent:  # accepts connections (the kernel does) and never answers
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        port = silent.getsockname()[1]
        hung = machine("b", store_url=f"postgresql+psycopg://postgres@127.0.0.1:{port}/test")
        config = hung.config.merged({"kb": {"store_timeout": 2}, "options": {"timeout": 30}})
        await hung.aclose()
        kb_handler = KBHandler.from_config(config, embedding=make_embedding())
        async with Searcher(config, handlers={"web": Web(), "kb": kb_handler}) as searcher:
            response = await hang_guard(
                searcher.aall(
                    [
                        {"query": "ranks", "type": "kb", "collections": [collection]},
                        {"query": "ranks", "type": "web"},
                    ]
                ),
                "a search with the store hung",
            )
    kb, web = response.results
    assert kb is not None and kb.error is not None and kb.error.code is ErrorCode.TIMEOUT
    assert "kb.store_timeout" in kb.error.message and "127.0.0.1" in kb.error.message
    assert web is not None and web.error is None
