"""The knowledge-base handler: index documents into collections and search them hybrid.

A search embeds the query once, runs the lexical (BM25) and the dense (Chroma)
search of every requested collection in worker threads, fuses each
collection's two rankings, keeps dense-only matches above ``min_similarity``,
merges the collections keeping one chunk per document, and, with ``graph:
true``, adds the graph neighbourhood of the query's entities. A ``threshold``
is a hard floor on the final scores, lexical and graph matches included.

Embedded Chroma is opened only when something needs it. A collection's side
store keeps a copy of the build marker Chroma records, so opening a collection
for a search checks its model there, and maps its saved lexical index, while the
model loads. A Chroma server is asked at once, as the authority on its
collections; with ``kb.store_url`` the side stores live in PostgreSQL, shared
by every machine.
"""

from __future__ import annotations

import asyncio
import functools
import threading
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from sqlalchemy import Engine

from unified_search._sync import sync_twin
from unified_search.config.kb import HybridConfig, KBConfig
from unified_search.config.search import SearchConfig
from unified_search.contract.delegates import BUILTIN, Delegates
from unified_search.contract.handler import SearchContext
from unified_search.contract.steps import StepFn, StepName
from unified_search.errors import ErrorCode, SearchError
from unified_search.kb.admin import KBAdmin
from unified_search.kb.association import Association, associate
from unified_search.kb.chunking import Chunk, Document
from unified_search.kb.collection import Hit, KBCollection
from unified_search.kb.consistency import guarded
from unified_search.kb.embeddings import (
    EmbeddingFunction,
    as_embedding_function,
    embedding_from_config,
)
from unified_search.kb.graph import Extraction, extract_entities, parse_extraction
from unified_search.kb.lexical import analyze
from unified_search.kb.results import merge_hits, to_items
from unified_search.kb.shared import (
    coded_store_failure,
    lexical_folder,
    shared_engine,
    side_path,
    store_errors,
)
from unified_search.kb.sidestore import SideStore, recorded_build, table_prefix
from unified_search.kb.store import (
    PROVIDER,
    build_marker,
    check_marker,
    close_client,
    coded_unreachable,
    create_collection,
    make_client,
    open_collection,
    unreachable,
    valid_name,
)
from unified_search.types import SearchRequest, SearchResult, SearchType

if TYPE_CHECKING:
    from unified_search.kb.ingest import IngestReport, Progress


class Recorded(NamedTuple):
    """A collection opened on its side store, and the build marker kept there."""

    marker: dict[str, Any]
    collection: KBCollection


class KBHandler(KBAdmin):
    """Search and fill Chroma collections with hybrid (BM25 + dense) retrieval.

    Example:
        >>> import tempfile
        >>> profile = {"kb": {"data_dir": tempfile.mkdtemp()}}
        >>> kb = KBHandler.from_config(SearchConfig.load(profile=profile))
        >>> kb.add_documents("notes", [{"id": "n1", "text": "Chroma stores vectors."}]).added
        1
    """

    def __init__(
        self,
        client: Any,
        *,
        config: SearchConfig | None = None,
        embedding: Any = None,
        delegates: Delegates | None = None,
    ) -> None:
        self._chroma_client = client
        self.config = config or SearchConfig()
        self._embedding = as_embedding_function(embedding) if embedding is not None else None
        self._delegates = delegates or Delegates()
        self._collections: dict[str, KBCollection] = {}
        self._lock = asyncio.Lock()
        self._opening = threading.Lock()
        self._loading = threading.Lock()
        self._store: Engine | None = None

    @classmethod
    def from_config(
        cls, config: SearchConfig, *, embedding: Any = None, delegates: Delegates | None = None
    ) -> KBHandler:
        """Connect to Chroma as ``kb`` says (server at ``chroma_url`` or embedded at ``data_dir``).

        A server is called at once (this blocks: call it in a worker thread); embedded
        Chroma opens on first need.
        """
        client = make_client(config.kb) if config.kb.chroma_url else None
        return cls(client, config=config, embedding=embedding, delegates=delegates)

    @property
    def _client(self) -> Any:
        """The Chroma client; embedded Chroma is opened here on first use (it blocks)."""
        with self._opening:
            if self._chroma_client is None:
                self._chroma_client = make_client(self.config.kb)
            return self._chroma_client

    @property
    def _embedded(self) -> bool:
        return not self.config.kb.chroma_url

    @property
    def embedding(self) -> EmbeddingFunction:
        """The embedding function (the configured one is built on first use)."""
        with self._loading:
            if self._embedding is None:
                self._embedding = embedding_from_config(self.config.kb.embedding)
            return self._embedding

    # -- collections ----------------------------------------------------------------------

    async def _collection(
        self, name: str, *, create: bool = False, search: bool = False
    ) -> KBCollection:
        async with self._lock:
            if name not in self._collections:
                self._collections[name] = await self._open(name, create=create, search=search)
            return self._collections[name]

    async def _open(self, name: str, *, create: bool, search: bool) -> KBCollection:
        """Open ``name``, refusing another model's vectors.

        The first use loads the embedding model, a blocking fraction of a second. Meanwhile
        the side store's copy of the build marker is read (embedded Chroma stays closed) and,
        for a ``search``, the saved lexical index is mapped.
        """
        model, found = await asyncio.gather(
            asyncio.to_thread(self._model_name),
            asyncio.to_thread(self._recorded, name, create=create, search=search),
            return_exceptions=True,
        )
        recorded = found if isinstance(found, Recorded) else None
        try:
            if isinstance(model, BaseException) or isinstance(found, BaseException):
                raise model if isinstance(model, BaseException) else found
            if recorded is not None:
                check_marker(name, recorded.marker, model)
                return recorded.collection
        except BaseException:
            if recorded is not None:
                recorded.collection.side.close()
            raise
        opener = create_collection if create else open_collection
        chroma = await asyncio.to_thread(opener, self._client, name, model)
        side = await asyncio.to_thread(self._side, name)
        # Collections indexed before the copy existed get it on first open.
        await asyncio.to_thread(side.record_build, build_marker(chroma.metadata or {}))
        return self._bind(name, lambda: chroma, side)

    def _recorded(self, name: str, *, create: bool, search: bool) -> Recorded | None:
        """The collection opened on its side store, when that keeps the build marker's copy.

        Embedded Chroma only: a server is the authority on its own collections.
        """
        marker = None if create else self._marker_here(name)
        if marker is None:
            return None
        coll = self._bind(name, functools.partial(self._chroma_of, name), self._side(name))
        if search:
            coll.local(self.config.kb.hybrid)
        return Recorded(marker, coll)

    def _bind(self, name: str, open_chroma: Any, side: SideStore) -> KBCollection:
        kb = self.config.kb
        folder = lexical_folder(kb, name)
        return KBCollection(
            name,
            open_chroma,
            side,
            folder,
            hybrid=kb.hybrid,
            embed=lambda t: self.embedding(t),
            write_wait=kb.write_wait,
        )

    def _side(self, name: str) -> SideStore:
        """The side store of ``name``: its SQLite file, or its tables in ``kb.store_url``."""
        kb = self.config.kb
        if kb.store_url is None:
            return SideStore.local(side_path(kb, name))
        with self._opening:
            if self._store is None:
                self._store = shared_engine(kb)
        with coded_store_failure(kb):
            return SideStore(self._store, table_prefix(name), owned=False)

    def _marker_here(self, name: str) -> dict[str, Any] | None:
        """The build marker an embedded collection's side store keeps (``None`` without)."""
        if not self._embedded or not valid_name(name):
            return None
        return recorded_build(side_path(self.config.kb, name))

    def _recorded_here(self, name: str) -> bool:
        return self._marker_here(name) is not None

    def _chroma_of(self, name: str) -> Any:
        return open_collection(self._client, name, self._model_name())

    def _model_name(self) -> str:
        return self.embedding.name

    # -- writing --------------------------------------------------------------------------

    @store_errors
    async def aadd_documents(
        self,
        collection: str,
        docs: Sequence[Document | Mapping[str, Any] | str],
        *,
        progress: Progress | None = None,
        ctx: SearchContext | None = None,
    ) -> IngestReport:
        """Index ``docs`` (idempotent: unchanged chunks are not embedded again)."""
        from unified_search.kb.ingest import ingest  # searching never needs the ingestion code

        coll = await self._collection(collection, create=True)
        async with guarded(coll):
            report = await ingest(
                coll,
                docs,
                embed=self.embedding,
                config=self.config.kb,
                progress=progress,
                extractor=self._extractor(ctx),
            )
        if ctx is not None:
            await ctx.log(
                "info",
                f"indexed {collection}: {report.added} added, {report.unchanged} unchanged, "
                f"{len(report.skipped)} skipped",
            )
        return report

    @store_errors
    async def adelete_documents(self, collection: str, document_ids: Sequence[str]) -> int:
        """Remove documents by ID from a collection; returns the number of chunks removed."""
        coll = await self._collection(collection)
        owned = await asyncio.to_thread(coll.side.document_chunks, document_ids)
        chunk_ids = sorted({cid for ids in owned.values() for cid in ids})
        async with guarded(coll):
            await asyncio.to_thread(coll.delete, chunk_ids)
        return len(chunk_ids)

    add_documents = sync_twin(aadd_documents)

    delete_documents = sync_twin(adelete_documents)

    def _extractor(self, ctx: SearchContext | None) -> Any:
        uses = self.config.kb.graph.uses
        if uses == BUILTIN:
            return _builtin_extractor
        delegates = ctx.delegates if ctx is not None else self._delegates
        config = ctx.config if ctx is not None else self.config

        async def by_agent(chunks: list[Chunk]) -> list[Extraction]:
            payloads = [
                {"task": "extract_entities", "text": c.text, "title": c.title} for c in chunks
            ]
            return [parse_extraction(await delegates.call(uses, p, config)) for p in payloads]

        return by_agent

    # -- searching ------------------------------------------------------------------------

    async def asearch(self, request: SearchRequest, ctx: SearchContext) -> SearchResult:
        """Hybrid search over the requested (or configured, or all) collections.

        A Chroma server that cannot be reached fails with NETWORK_ERROR, one that
        does not answer within ``kb.chroma_timeout`` with TIMEOUT.
        """
        with coded_unreachable(), coded_store_failure(ctx.config.kb):
            return await self._search(request, ctx)

    async def _search(self, request: SearchRequest, ctx: SearchContext) -> SearchResult:
        kb = ctx.config.kb
        names = await self._names(request, kb)
        colls = [await self._collection(name, search=True) for name in names]
        where = _where(request.options)
        limit = request.limit or kb.max_results
        floor = kb.threshold if request.threshold is None else request.threshold
        threshold = _similarity_floor(request, kb, floor)
        terms = analyze(request.query)
        search = functools.partial(
            _search_one,
            terms=terms,
            config=kb.hybrid,
            where=where,
            limit=limit,
            threshold=threshold,
            step=ctx.step,
        )
        if len(colls) == 1:
            # One collection: embed and search in one worker-thread trip (latency matters).
            pieces, found = await asyncio.to_thread(
                self._embed_and_search, request.query, colls[0], search, ctx.step
            )
        else:
            vector, pieces = await asyncio.to_thread(self._embed_query, request.query, ctx.step)
            found = await asyncio.gather(
                *(asyncio.to_thread(search, c, vector) for c in colls), return_exceptions=True
            )
        if pieces:
            window = getattr(self.embedding, "max_tokens", "?")
            await ctx.log(
                "warn",
                f"query has {pieces} word pieces; the embedding model reads the first {window}",
            )
        graph = Association()
        if kb.graph.enabled if request.graph is None else request.graph:
            async with ctx.step(StepName.GRAPH_SEARCH):
                graph, extra = await self._graph(request, colls, kb)
            found = [*found, extra]
        group = bool(request.options.get("group_by_document", kb.group_by_document))
        result = _result(request, names, found, graph, limit, self.embedding.name, group)
        return result if floor is None else _at_least(result, floor)

    async def _names(self, request: SearchRequest, kb: KBConfig) -> list[str]:
        names = (
            list(dict.fromkeys(request.collections or kb.collections))
            or await self.alist_collections()
        )
        if not names:
            raise SearchError(
                ErrorCode.INVALID_QUERY,
                "no collections exist yet; index documents first",
                provider=PROVIDER,
            )
        return names

    def _embed_and_search(
        self, query: str, coll: KBCollection, search: Any, step: StepFn
    ) -> tuple[int, list[list[Hit] | BaseException]]:
        vector, pieces = self._embed_query(query, step)
        try:
            return pieces, [search(coll, vector)]
        except Exception as exc:  # recorded like a failure of one collection among several
            return pieces, [exc]

    def _embed_query(self, query: str, step: StepFn) -> tuple[list[float], int]:
        """The query vector, and its word-piece count when the model's window cuts it (else 0)."""
        window = getattr(self.embedding, "max_tokens", None)
        count = getattr(self.embedding, "token_count", None)
        pieces = count(query) if window and count else 0
        # Models trained with separate query and document forms embed queries their way.
        embed_query = getattr(self.embedding, "embed_query", None)
        with step(StepName.EMBEDDING, model=self.embedding.name):
            vector = embed_query(query) if embed_query else self.embedding([query])[0]
        return vector, pieces if window and pieces > window else 0

    async def _graph(
        self, request: SearchRequest, colls: list[KBCollection], kb: KBConfig
    ) -> tuple[Association, list[Hit]]:
        found = await asyncio.gather(
            *(
                asyncio.to_thread(
                    associate, c.side, request.query, kb.graph.max_nodes, kb.graph.extra_chunks
                )
                for c in colls
            )
        )
        extra = [
            h
            for c, a in zip(colls, found, strict=True)
            for h in await asyncio.to_thread(_graph_hits, c, a)
        ]
        return _merge_associations(found, kb.graph.max_nodes), extra

    async def aclose(self) -> None:
        """Close the side stores and the Chroma client (its files or HTTP connections)."""
        for coll in self._collections.values():
            coll.side.close()
        self._collections.clear()
        if self._chroma_client is not None:
            await asyncio.to_thread(close_client, self._chroma_client)
        if self._store is not None:
            await asyncio.to_thread(self._store.dispose)


async def _builtin_extractor(chunks: list[Chunk]) -> list[Extraction]:
    return await asyncio.to_thread(
        lambda: [Extraction(extract_entities(f"{c.title}\n{c.text}")) for c in chunks]
    )


def _search_one(
    coll: KBCollection,
    vector: Sequence[float],
    *,
    terms: list[str],
    config: HybridConfig,
    where: dict[str, Any] | None,
    limit: int,
    threshold: float,
    step: StepFn,
) -> list[Hit]:
    with step(StepName.LEXICAL_SEARCH, collection=coll.name):
        lexical = coll.lexical(terms, config, where)
    with step(StepName.VECTOR_SEARCH, collection=coll.name):
        dense = coll.dense(vector, config.candidates, where, config, lexical.local)
        dense, moved = coll.feedback(dense, lexical, vector, config, where)
    # Spares for ``group_by_document``, which keeps one chunk per document.
    with step(StepName.FUSION, collection=coll.name):
        return coll.hits(dense, lexical, moved, config, limit * 3, threshold, query=vector)


#: A chunk found only through the graph scores this much per share of query entities it
#: mentions: below strong hybrid matches, above weak ones.
GRAPH_SCORE = 0.5


def _graph_hits(coll: KBCollection, association: Association) -> list[Hit]:
    stored = coll.side.fetch([cid for cid, _ in association.chunks])
    return [
        Hit(cid, coll.name, GRAPH_SCORE * share, *stored[cid], extra={"graph": True})
        for cid, share in association.chunks
        if cid in stored
    ]


def _similarity_floor(request: SearchRequest, kb: KBConfig, floor: float | None) -> float:
    """The cosine floor of dense-only matches: a threshold (a floor on scores) replaces it."""
    if request.min_similarity is not None:
        return request.min_similarity
    return 0.0 if floor is not None else kb.min_similarity


def _at_least(result: SearchResult, floor: float) -> SearchResult:
    """Keep the items scoring ``floor`` or more, whatever matched them."""
    kept = [item for item in result.items if item.score >= floor]
    return result.model_copy(update={"items": kept, "total": len(kept)})


def _where(options: Mapping[str, Any]) -> dict[str, Any] | None:
    where = options.get("where")
    if where is None:
        return None
    if not isinstance(where, Mapping) or not where:
        raise SearchError(
            ErrorCode.INVALID_QUERY,
            "options.where must be a non-empty Chroma filter mapping",
            provider=PROVIDER,
        )
    return dict(where)


def _merge_associations(found: Sequence[Association], max_nodes: int) -> Association:
    nodes = sorted(
        {n.name.lower(): n for a in found for n in a.nodes}.values(),
        key=lambda n: (n.relation is not None, -n.score, n.name),
    )
    return Association(
        entities=list({e.name.lower(): e for a in found for e in a.entities}.values()),
        relations=[r for a in found for r in a.relations],
        nodes=nodes[:max_nodes],
    )


def _result(
    request: SearchRequest,
    names: list[str],
    found: Sequence[list[Hit] | BaseException],
    graph: Association,
    limit: int,
    model: str,
    group: bool,
) -> SearchResult:
    errors = [f for f in found if isinstance(f, BaseException)]
    hits = [h for f in found if not isinstance(f, BaseException) for h in f]
    if errors and len(errors) == len(found):
        raise errors[0]
    failures = [_info(e) for e in errors]
    items = to_items(merge_hits(hits, limit, group_by_document=group), request.source)
    return SearchResult(
        type=SearchType.KB,
        query=request.query,
        source=request.source,
        items=items,
        total=len(items),
        failures=failures,
        entities=graph.entities,
        relations=graph.relations,
        graph_nodes=graph.nodes,
        metadata={"collections": names, "embedding_model": model},
    )


def _info(exc: BaseException) -> Any:
    if isinstance(exc, SearchError):
        return exc.info()
    if failure := unreachable(exc):
        return failure.info()
    return SearchError(ErrorCode.UNKNOWN, f"{type(exc).__name__}: {exc}", provider=PROVIDER).info()
