"""Configuration of knowledge-base search (the ``kb`` section)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from unified_search.auth import Secret
from unified_search.config.section import Section

Fusion = Literal["convex", "rrf", "dense", "lexical"]


class EmbeddingConfig(Section):
    """Which model turns text into vectors."""

    provider: Literal["default", "e5-small", "openai"] = "default"
    """``default`` is the bundled all-MiniLM-L6-v2 (int8 ONNX, offline); ``e5-small`` is
    multilingual-e5-small in 4-bit (offline, the ``multilingual`` extra), a
    model of about 100 languages that on English SciFact ranked below the default (nDCG@10
    0.693 vs 0.740) and took 14 to 24 times its embedding time (``benchmarks/kb.py``);
    ``openai`` calls an OpenAI-compatible ``/embeddings`` endpoint."""
    model: str = "text-embedding-3-small"
    """Model name sent to the endpoint (``openai`` only)."""
    base_url: str = "https://api.openai.com/v1"
    """Endpoint root (``openai`` only); any OpenAI-compatible server works."""
    api_key_env: Secret = Field(default_factory=lambda: Secret.from_env("OPENAI_API_KEY"))
    """Environment variable holding the endpoint's key (``openai`` only); read when embedding."""
    batch_size: int = Field(default=16, ge=1, le=2048)
    """Texts embedded per call."""
    threads: int | None = Field(default=None, ge=1)
    """Threads of the local models: ONNX Runtime's for ``default`` (``None`` uses up to 4
    cores), OpenMP's for ``e5-small`` (``None`` uses every core)."""


class ChunkingConfig(Section):
    """How documents are cut into chunks before indexing (cl100k_base tokens)."""

    size: int = Field(default=512, ge=16, le=8192)
    """Tokens per chunk; most abstracts and short pages stay whole."""
    overlap: int = Field(default=64, ge=0)
    """Tokens repeated at the start of the next chunk so no sentence is lost at a cut."""

    @model_validator(mode="after")
    def _overlap_below_size(self) -> ChunkingConfig:
        if self.overlap >= self.size:
            raise ValueError("chunking.overlap must be smaller than chunking.size")
        return self


class HybridConfig(Section):
    """How the dense and the lexical rankings are combined."""

    fusion: Fusion = "convex"
    """``convex``: weighted sum of scores scaled to 0..1 (see ``scale``); ``rrf``:
    reciprocal-rank fusion; ``dense`` or ``lexical`` alone."""
    scale: Literal["max", "minmax"] = "max"
    """How ``convex`` fusion brings each score to 0..1: ``max`` divides by the query's best
    candidate, 0 staying 0 (cosine and BM25 both start there); ``minmax`` also maps the
    lowest candidate to 0. On SciFact ``max`` ranked slightly better (train and test)."""
    dense_weight: float = Field(default=0.6, ge=0.0, le=1.0)
    """Share of the dense score in ``convex`` fusion (the lexical score gets the rest).
    Chosen with ``min_similarity`` by ``benchmarks/kb_select.py`` on SciFact train and half of
    nfcorpus dev, confirmed on SciFact test and the other half."""
    candidates: int = Field(default=100, ge=1, le=1000)
    """Depth of each ranking before fusion."""
    bm25_k1: float = Field(default=0.9, gt=0.0, le=3.0)
    """BM25 term-frequency saturation (0.9 and 0.4 are Anserini's defaults for short texts)."""
    bm25_b: float = Field(default=0.4, ge=0.0, le=1.0)
    """BM25 length normalisation."""
    title_boost: int = Field(default=2, ge=1, le=5)
    """How many times a title counts in the lexical index (a simple field weighting)."""
    prf_docs: int = Field(default=0, ge=0, le=50)
    """Pseudo-relevance feedback: top lexical documents whose terms expand the query (0 is off)."""
    prf_terms: int = Field(default=10, ge=1, le=100)
    """Expansion terms taken from the feedback documents."""
    prf_weight: float = Field(default=0.5, ge=0.0, le=1.0)
    """Weight of the expansion terms relative to the query's own terms."""
    feedback_docs: int = Field(default=3, ge=0, le=50)
    """Dense pseudo-relevance feedback (Rocchio): the query vector moves toward the mean
    vector of the first fusion's top ``feedback_docs`` chunks and the dense side is searched
    again (0 is off). Chosen with ``feedback_weight`` by ``benchmarks/kb_select.py``; every
    setting tried helped on SciFact train and test and on both nfcorpus dev halves."""
    feedback_weight: float = Field(default=0.8, ge=0.0, le=2.0)
    """How far the query vector moves: the feedback mean's weight beside the query's 1."""
    exact_limit: int = Field(default=20_000, ge=0)
    """Collections up to this many chunks are searched exactly over their vectors, read from
    Chroma once per change of the collection and held in memory (about 1.5 kB per chunk);
    larger ones, and filtered searches, through Chroma's HNSW index. 0 always asks Chroma."""
    rrf_k: int = Field(default=60, ge=1)
    """Rank offset of reciprocal-rank fusion."""


class GraphConfig(Section):
    """Entity extraction at ingestion and graph association at query time."""

    enabled: bool = False
    """Associate graph nodes, entities and relations with every knowledge-base search whose
    request does not say (a request's ``graph`` wins); the design's ``kb.graph: true``."""
    extract: bool = True
    """Extract entities and relations while indexing."""
    uses: str = "builtin"
    """``builtin`` (names, acronyms, noun phrases) or an agent name / ``mcp:<server>.<tool>``."""
    max_nodes: int = Field(default=20, ge=1, le=200)
    """Graph nodes returned per request."""
    extra_chunks: int = Field(default=5, ge=0, le=100)
    """Chunks mentioning query entities added as candidates."""


class LimitsConfig(Section):
    """Bounds on what one indexed file may make its reader do.

    A file past a bound is skipped with the bound's name, or only the record past it (a
    JSON Lines line), and every other file is still indexed. Together with the file size
    (``unified-search index --max-file-mb``) they bound the memory one file can take.
    """

    max_depth: int = Field(default=64, ge=1, le=10_000)
    """Deepest nesting of lists and objects in a JSON Lines record; a deeper record is skipped
    (one of 100,000 brackets took the whole index run down with a ``RecursionError``)."""
    max_line_bytes: int = Field(default=1_048_576, ge=1024)
    """Longest line of a JSON Lines or CSV file (bytes); a longer line is refused before it
    is decoded or parsed, so a file of one 20 MB line costs no more than this."""
    max_field_chars: int = Field(default=131_072, ge=1024)
    """Longest CSV field and front-matter block (characters); a file holding a longer one is
    skipped."""
    max_records: int = Field(default=100_000, ge=1)
    """Records read from one file: JSON Lines lines, CSV rows, PDF pages. The rest of a
    longer file is not read, and the file is reported."""
    max_unpacked_bytes: int = Field(default=256 * 1024 * 1024, ge=1024 * 1024)
    """Largest size of a ``.docx`` once unzipped (the sum its members declare, which the
    unzipping enforces): a small archive that would inflate past it (a zip bomb) is skipped."""


class KBConfig(Section):
    """Knowledge-base settings.

    Example:
        >>> KBConfig(collections=["docs"], hybrid={"fusion": "rrf"}).hybrid.fusion
        'rrf'
    """

    collections: list[str] = Field(default_factory=list)
    """Collections searched when a request names none."""
    threshold: float | None = Field(default=None, ge=0.0, le=1.0)
    """Lowest final score (0..1) an item may have, lexical matches included: a hard floor.
    When set it replaces ``min_similarity``; ``None``: no floor."""
    min_similarity: float = Field(default=0.0, ge=0.0, le=1.0)
    """Minimum cosine similarity (0..1) of a dense-only match when no ``threshold`` is set;
    chunks sharing terms with the query are kept below it, as lexical evidence. 0 keeps
    every candidate: 0.7 halved the results and cost 5-7% recall@100 on nfcorpus
    (``benchmarks/kb_select.py``)."""
    max_results: int = Field(default=10, ge=1, le=100)
    """Chunks returned per request when it sets no ``limit``."""
    group_by_document: bool = False
    """Return only the best chunk of each document (a request's ``options`` may set it);
    by default several chunks of one document can be returned."""
    data_dir: str | None = None
    """Where embedded Chroma, lexical indexes and graphs live; ``None`` is ``kb/`` in the data
    folder (``$UNIFIED_SEARCH_HOME``, default ``~/.local/share/unified-search``)."""
    chroma_url: str | None = None
    """A Chroma server (``http://host:8000``); when set, vectors live there instead."""
    chroma_timeout: float = Field(default=10.0, gt=0)
    """Seconds to connect to the Chroma server, and to wait for each of its answers: a hung
    server fails the knowledge-base source with TIMEOUT instead of holding it."""
    store_url: str | None = None
    """A PostgreSQL database (SQLAlchemy URL, ``postgresql+psycopg://host/db``) holding
    everything a collection keeps besides its vectors: chunk texts and terms, the saved
    lexical index, the entity graph, the file registry. With ``chroma_url`` it makes every
    machine of the same configuration search and index the same collections; ``None``
    keeps a SQLite file per collection under ``data_dir``."""
    store_timeout: float = Field(default=10.0, gt=0)
    """Seconds to connect to ``store_url`` and for each of its statements: a database down
    or hung fails the knowledge-base source with a coded error instead of holding it."""
    write_wait: float = Field(default=60.0, ge=0)
    """Seconds a write (indexing, removing) waits while another process writes the same
    collection, before it fails with TIMEOUT naming the other write."""
    embedding: EmbeddingConfig = Field(default_factory=EmbeddingConfig)
    """The model that builds and queries collections (recorded on each collection)."""
    chunking: ChunkingConfig = Field(default_factory=ChunkingConfig)
    """How documents are cut before indexing."""
    hybrid: HybridConfig = Field(default_factory=HybridConfig)
    """Lexical + dense retrieval and their fusion."""
    graph: GraphConfig = Field(default_factory=GraphConfig)
    """Entity graph built at ingestion and used with ``graph: true``."""
    limits: LimitsConfig = Field(default_factory=LimitsConfig)
    """Bounds on reading one file (nesting, line, field, records, unzipped size)."""

    @model_validator(mode="after")
    def _store_beside_chroma_server(self) -> KBConfig:
        if self.store_url is None:
            return self
        if not self.store_url.startswith("postgresql"):
            raise ValueError("kb.store_url must be a PostgreSQL URL (postgresql+psycopg://...)")
        if not self.chroma_url:
            raise ValueError(
                "kb.store_url needs kb.chroma_url: vectors in this machine's embedded Chroma "
                "cannot be shared"
            )
        return self
