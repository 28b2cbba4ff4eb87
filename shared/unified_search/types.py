"""The data model shared by every source, the engine and the adapters.

All models are pydantic v2 values: build them, copy them with
``model_copy(update=...)``, never change them in place. JSON field names follow
the design documents (``citation_id``, ``record_id``, ``graph_nodes`` ...).
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from datetime import date
from enum import StrEnum
from typing import Any, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, computed_field, field_validator, model_validator

from unified_search.errors import ErrorInfo
from unified_search.escape import visible

# The graph's types live in their own module and are part of this one's model.
from unified_search.graph_types import Entity as Entity
from unified_search.graph_types import GraphNode as GraphNode
from unified_search.graph_types import Relation as Relation
from unified_search.tokens import count_tokens_cached
from unified_search.urls import canonical_url

JSON = dict[str, Any]
#: The metadata key naming where an item's text came from: the file (path relative to the
#: folder indexed) or URL of a knowledge-base document, what an agent named as its source.
#: ``source`` always means who asked (``user``, ``hook``, ``auto``); a loader's own
#: ``metadata["source"]`` (LangChain, LlamaIndex) passes through untouched.
ORIGIN = "origin"
#: The longest query any source is sent, in characters: one rule for web, knowledge base and
#: database alike, so a longer one is refused before anything is searched (never cut).
MAX_QUERY_CHARS = 2000
TimeRange = Literal["day", "week", "month", "year"]
SearchDepth = Literal["basic", "advanced"]
Topic = Literal["general", "news"]
_CAPITAL = re.compile(r"(?<!^)([A-Z])")


class Choice(StrEnum):
    """A closed set of names read from text: an unknown name is refused with the valid ones.

    The error names the set by its class, words split at capitals (``QueryMode``: "unknown
    query mode 'x'; valid modes: ..."). A subclass may fold spellings in ``_spelled``.

    Example:
        >>> class Colour(Choice):
        ...     RED = "red"
        >>> Colour.from_str("blue")
        Traceback (most recent call last):
        ...
        ValueError: unknown colour 'blue'; valid colours: red
    """

    @classmethod
    def from_str(cls, value: object) -> Self:
        """Return the member named by ``value``; the error lists the valid names."""
        try:
            return cls(cls._spelled(value))
        except ValueError:
            noun = _CAPITAL.sub(r" \1", cls.__name__).lower()
            valid = ", ".join(member.value for member in cls)
            plural = noun.rsplit(" ", 1)[-1] + "s"
            raise ValueError(f"unknown {noun} {value!r}; valid {plural}: {valid}") from None

    @classmethod
    def _spelled(cls, value: object) -> str:
        """The text a member is looked up by: ``value`` itself, as written."""
        return value if isinstance(value, str) else ""


class SearchType(StrEnum):
    """Which kind of source a request goes to."""

    WEB = "web"
    KB = "kb"
    DB = "db"


class Intent(StrEnum):
    """The kind of answer a query is after."""

    FACTUAL = "factual"
    STATUS = "status"
    COMPARISON = "comparison"
    TUTORIAL = "tutorial"
    EXPLORATORY = "exploratory"
    NEWS = "news"
    RESOURCE = "resource"


class Source(StrEnum):
    """Who asked for a search; it decides the default weight of what it finds."""

    USER = "user"
    HOOK = "hook"
    AUTO = "auto"


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    @model_validator(mode="before")
    @classmethod
    def _derived_fields(cls, data: Any) -> Any:
        """Accept a serialised model: its computed fields are derived again, not read back."""
        if isinstance(data, dict) and cls.model_computed_fields:
            data = {
                key: value for key, value in data.items() if key not in cls.model_computed_fields
            }
        return data


class RerankOptions(_Model):
    """Per-request reranking settings."""

    top_n: int | None = Field(default=None, ge=1, le=1000)
    """Keep this many items after reranking; ``None`` uses ``rerank.top_n``."""
    uses: str | None = None
    """Reranker name for this request; ``None`` uses ``uses.rerank``."""


class SearchRequest(_Model):
    """One query to one kind of source.

    Example:
        >>> SearchRequest(query="wireless headphones under $100", type="db", models=["products"])
        SearchRequest(query='wireless headphones under $100', type=<SearchType.DB: 'db'>, ...)
    """

    query: str
    """The question or search terms, as :func:`normal_query` leaves them: NFKC-normalised
    (fullwidth ``ｂａｔｔｅｒｙ`` is ``battery``), zero-width characters and surrounding
    whitespace removed, terminal controls written as escapes. One without a visible
    character is refused, and so is one of more than ``MAX_QUERY_CHARS`` characters,
    whichever source it goes to."""
    type: SearchType = SearchType.WEB
    limit: int | None = Field(default=None, ge=1, le=100)
    """Most items wanted from this source; ``None`` uses the source's configured maximum."""
    source: Source = Source.USER
    sites: list[str] = Field(default_factory=list)
    """Web: only these domains."""
    exclude_sites: list[str] = Field(default_factory=list)
    """Web: never these domains."""
    time_range: TimeRange | None = None
    """Web: only pages published within the last day, week, month or year."""
    search_depth: SearchDepth | None = None
    """Web: ``advanced`` asks providers that support it for a deeper search."""
    topic: Topic | None = None
    """Web: the vertical searched, ``general`` or ``news``; ``None`` is general. A provider
    without it fails with UNSUPPORTED (nothing sent); the others still answer."""
    country: str | None = Field(default=None, pattern=r"^[A-Za-z]{2}$")
    """Web: ISO 3166-1 alpha-2 code of the country whose results are preferred (``us``, ``de``)."""
    language: str | None = Field(default=None, pattern=r"^[A-Za-z]{2}$")
    """Web: ISO 639-1 code of the language of the results (``en``, ``zh``)."""
    start_date: date | None = None
    """Web: only pages published on or after this day (not together with ``time_range``)."""
    end_date: date | None = None
    """Web: only pages published on or before this day."""
    include_answer: bool = False
    """Web: also ask for the provider's short answer (``SearchResult.metadata["extras"]``)."""
    include_raw_content: bool = False
    """Web: also ask for each page's full text (item ``metadata["raw_content"]``)."""
    include_images: bool = False
    """Web: also ask for images about the query (``SearchResult.metadata["extras"]``)."""
    include_image_descriptions: bool = False
    """Web: also ask for images, each with a description of what it shows."""
    collections: list[str] = Field(default_factory=list)
    """Knowledge base: collections to search; empty means the configured ones."""
    threshold: float | None = Field(default=None, ge=0.0, le=1.0)
    """Knowledge base: lowest final score (0..1) an item may have, lexical matches included;
    ``None`` uses ``kb.threshold``."""
    min_similarity: float | None = Field(default=None, ge=0.0, le=1.0)
    """Knowledge base: minimum cosine similarity of a dense-only match (lexical matches are
    kept below it); ``None`` uses ``kb.min_similarity``, or no minimum under a threshold."""
    graph: bool | None = None
    """Knowledge base: also return associated entities, relations and graph nodes; ``None``
    follows ``kb.graph.enabled``."""
    models: list[str] = Field(default_factory=list)
    """Database: tables or views to query; empty means the configured ones."""
    wheres: list[JSON] = Field(default_factory=list)
    """Database: pre-defined query DSL conditions merged with the generated ones."""
    orders: list[JSON] = Field(default_factory=list)
    """Database: pre-defined query DSL ordering merged with the generated one."""
    select: list[str] = Field(default_factory=list)
    """Database: columns to return; empty means all."""
    rerank: RerankOptions | None = None
    use_keywords: bool = True
    """Send extracted keywords instead of the raw query where ``uses.keyword`` is set."""
    options: JSON = Field(default_factory=dict)
    """Source-specific extras (for example a SerpAPI ``engine``); each source documents its own."""

    @field_validator("query")
    @classmethod
    def _query_has_text(cls, value: str) -> str:
        query = normal_query(value)
        if len(query) > MAX_QUERY_CHARS:
            raise ValueError(
                f"the query has {len(query)} characters; at most {MAX_QUERY_CHARS} are read"
            )
        return query

    @model_validator(mode="after")
    def _dates_agree(self) -> SearchRequest:
        if self.time_range and (self.start_date or self.end_date):
            raise ValueError("give either time_range or start_date/end_date, not both")
        if self.start_date and self.end_date and self.start_date > self.end_date:
            raise ValueError("start_date must not be after end_date")
        return self


#: Characters that are never seen and never mean anything in a query: zero-width space,
#: word joiner, byte-order mark.
_ZERO_WIDTH = dict.fromkeys(map(ord, "\u200b\u2060\ufeff"))


def normal_query(query: str) -> str:
    """The form of ``query`` every source searches, the records keep and the API shows.

    NFKC normalisation makes compatibility forms search as what they stand for
    (fullwidth letters, ligatures, circled digits); a query needs one visible character
    (a letter, digit, punctuation mark or symbol): blanks, zero-width characters and
    byte-order marks alone would match arbitrary documents. Terminal controls (ESC, the
    bidirectional controls) stay searchable but are written as escapes
    (``unified_search.escape.visible``), so the stored query is inert wherever it is shown.

    Example:
        >>> normal_query("  ｂａｔｔｅｒｙ\u200b life ")
        'battery life'

    Raises:
        ValueError: the query has no visible character.
    """
    normal = unicodedata.normalize("NFKC", query).translate(_ZERO_WIDTH).strip()
    if not any(unicodedata.category(char)[0] in "LNPS" for char in normal):
        raise ValueError("query must contain text (a visible character)")
    return visible(normal)


class ResultItem(_Model):
    """One thing a source found: a web page, a knowledge-base chunk or a database row."""

    type: SearchType
    title: str = ""
    content: str = ""
    url: str | None = None
    score: float = 0.0
    """Relevance reported by the source, in 0..1 where the source allows it."""
    weight: float = 1.0
    """Trust in the source that asked (user / hook / auto), set by the engine."""
    source: Source = Source.USER
    citation_id: str | None = None
    """``ref_001`` ... assigned by the engine in final order."""
    document_id: str | None = None
    collection: str | None = None
    model: str | None = None
    record_id: str | None = None
    data: JSON | None = None
    metadata: JSON = Field(default_factory=dict)

    @property
    def key(self) -> str:
        """Identity used to deduplicate: the same page, chunk or row from two searches."""
        if self.type is SearchType.WEB and self.url:
            return "web:" + canonical_url(self.url)
        if self.type is SearchType.KB and self.document_id:
            chunk = self.metadata.get("chunk_id")
            return f"kb:{self.collection or ''}:{self.document_id}" + (f"#{chunk}" if chunk else "")
        if self.type is SearchType.DB and self.record_id is not None:
            return f"db:{self.model or ''}:{self.record_id}"
        digest = hashlib.sha256(f"{self.title}\n{self.content}".encode()).hexdigest()[:32]
        return f"{self.type.value}:sha256:{digest}"


#: The fields of ``ResultItem`` besides its text and its free-form ``metadata``: what the
#: framework adapters carry (under ``unified_search.contract.metadata.METADATA_KEY``) so an item
#: survives a round trip.
ITEM_FIELDS = (
    "citation_id",
    "type",
    "source",
    "weight",
    "score",
    "title",
    "url",
    "collection",
    "document_id",
    "model",
    "record_id",
    "data",
)


class SearchResult(_Model):
    """What one request produced: items, or an error, never an exception."""

    type: SearchType
    query: str
    source: Source = Source.USER
    items: list[ResultItem] = Field(default_factory=list)
    total: int = 0
    duration_ms: float = 0.0
    error: ErrorInfo | None = None
    """Why the request failed as a whole."""
    failures: list[ErrorInfo] = Field(default_factory=list)
    """Parts that failed while others succeeded (for example one of several web providers)."""
    keywords: list[str] = Field(default_factory=list)
    dsl: JSON | None = None
    entities: list[Entity] = Field(default_factory=list)
    relations: list[Relation] = Field(default_factory=list)
    graph_nodes: list[GraphNode] = Field(default_factory=list)
    metadata: JSON = Field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """True when the request did not fail as a whole."""
        return self.error is None


#: Characters of content a reference's ``snippet`` shows.
SNIPPET_CHARS = 300


def snippet_of(text: str, limit: int = SNIPPET_CHARS) -> str:
    """The start of ``text`` on one line, cut at a word and marked with … when cut.

    Example:
        >>> snippet_of("Refunds take  five days.", 14)
        'Refunds take…'
    """
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    cut = flat[: limit - 1]
    head = cut.rsplit(" ", 1)[0] if " " in cut else cut
    return head.rstrip(" ,;:") + "…"


class Reference(_Model):
    """A cited item as the model and the user see it; ``snippet`` is its text's start for a card."""

    id: str
    """The citation ID, ``ref_001`` ..."""
    index: int = Field(ge=1)
    """1-based position of the reference within its request."""
    type: SearchType
    source: Source
    weight: float
    score: float
    title: str = ""
    content: str = ""
    url: str | None = None
    document_id: str | None = None
    collection: str | None = None
    model: str | None = None
    record_id: str | None = None
    data: JSON | None = None
    metadata: JSON = Field(default_factory=dict)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def snippet(self) -> str:
        """The first words of ``content`` (at most ``SNIPPET_CHARS`` characters, one line)."""
        return snippet_of(self.content)

    @classmethod
    def from_item(cls, item: ResultItem) -> Reference:
        """Build the reference of an item that already carries a citation ID."""
        if item.citation_id is None:
            raise ValueError("item has no citation_id")
        fields = item.model_dump(exclude={"citation_id"})
        return cls(id=item.citation_id, index=citation_index(item.citation_id), **fields)


class ReferenceContext(_Model):
    """The references handed to a model: the list, the ``<references>`` XML and the prompt."""

    references: list[Reference] = Field(default_factory=list)
    xml: str = ""
    prompt: str = ""
    truncated: list[str] = Field(default_factory=list)
    """Citation IDs whose content was shortened to fit the token budget."""
    omitted: list[str] = Field(default_factory=list)
    """Citation IDs left out of ``xml`` because the budget was spent; still in ``references``."""

    @computed_field  # type: ignore[prop-decorator]
    @property
    def tokens(self) -> int:
        """Tokens used by ``xml`` (cl100k_base), counted on first use."""
        return count_tokens_cached(self.xml) if self.xml else 0

    def __str__(self) -> str:
        """The ``<references>`` block, so a context formats into a prompt as text."""
        return self.xml


def citation_id(index: int) -> str:
    """Format the citation ID of a 1-based index: ``1`` → ``ref_001``."""
    if index < 1:
        raise ValueError("citation index starts at 1")
    return f"ref_{index:03d}"


def citation_index(cid: str) -> int:
    """Parse the 1-based index out of a citation ID: ``ref_001`` → ``1``."""
    prefix, _, number = cid.partition("_")
    if prefix != "ref" or not number.isdigit() or int(number) < 1:
        raise ValueError(f"not a citation ID: {cid!r}")
    return int(number)
