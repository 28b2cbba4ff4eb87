"""What the store keeps about one search: the record model and how a response becomes records.

One ``SearchRecord`` is kept per finished request of a response. Its
references are the cited references whose item that request found; an item
found by several requests of one call (deduplicated by the engine) belongs to
the first request that found it. A record keeps the choices that shaped its
search, as the design's records do (``record_config``: which implementation did
each job, the web providers, collections, models, limits), not the whole merged
configuration; API keys never reach it.

The table shapes and the record ↔ row conversions used by
``unified_search.records.store`` live here too, next to the model they mirror.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from datetime import UTC, datetime
from typing import Any, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticSerializationError, to_jsonable_python
from sqlalchemy import (
    JSON as SQL_JSON,
)
from sqlalchemy import (
    Column,
    Connection,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
)

from unified_search import auth
from unified_search.auth import Secret
from unified_search.config.search import SearchConfig
from unified_search.contract.response import SearchResponse
from unified_search.errors import ErrorInfo
from unified_search.types import (
    JSON,
    Entity,
    GraphNode,
    Reference,
    Relation,
    SearchResult,
    SearchType,
    Source,
    citation_index,
)

_In = TypeVar("_In")
_Out = TypeVar("_Out")
Connect = Callable[[], AbstractContextManager[Connection]]
"""Opens one transaction of the store (``SearchStore._connection``)."""


def remember_last(function: Callable[[_In], _Out]) -> Callable[[_In], _Out]:
    """Answer again without work when called with the very object of the last call.

    A service records the same configuration with every search, and configurations
    are values, never changed in place. The object is held, so its identity cannot
    pass to another.
    """
    last: list[tuple[_In, _Out]] = []

    @functools.wraps(function)
    def remembered(value: _In) -> _Out:
        if last and last[0][0] is value:
            return last[0][1]
        result = function(value)
        last[:] = [(value, result)]
        return result

    return remembered


@remember_last
def config_json(config: SearchConfig) -> JSON:
    """Serialise ``config`` for storage, with secrets as variable names and raw keys removed."""
    try:
        dumped: JSON = config.model_dump(mode="json")
    except PydanticSerializationError:
        # A Secret built from a raw token refuses to serialise; store it as absent instead.
        dumped = _plain(config)
    result: JSON = auth.redact(dumped)
    return result


def _plain(value: Any) -> Any:
    if isinstance(value, Secret):
        return value.env
    if isinstance(value, BaseModel):
        return {name: _plain(getattr(value, name)) for name in type(value).model_fields}
    if isinstance(value, Mapping):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_plain(item) for item in value]
    return to_jsonable_python(value)


@remember_last
def record_config(config: SearchConfig) -> JSON:
    """What a record keeps of the configuration: the choices that shape a search.

    The design's record holds ``uses``, the web provider and its result count, the
    collections, threshold and graph switch, the models and their row cap, and the
    rerank cut; the rest (tables, timeouts, endpoints) is the same for every search
    and is read with ``unified-search config``.

    Example:
        >>> sorted(record_config(SearchConfig()))
        ['db', 'kb', 'rerank', 'uses', 'web']
    """
    return {
        "uses": config.uses.model_dump(mode="json"),
        "web": {"providers": list(config.web.providers), "max_results": config.web.max_results},
        "kb": {
            "collections": list(config.kb.collections),
            "threshold": config.kb.threshold,
            "graph": config.kb.graph.enabled,
        },
        "db": {"models": list(config.db.models), "max_results": config.db.max_results},
        "rerank": {"top_n": config.rerank.top_n},
    }


class SearchRecord(BaseModel):
    """One stored search: a request, what it found and cited, and how long it took.

    Example:
        >>> record = SearchRecord(request_id="r1", query="vector index", type="kb")
        >>> record.references, record.deleted_at
        ([], None)
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: int | None = None
    """Assigned by the store when the record is saved."""
    request_id: str = Field(max_length=255)
    """The request context; citation indices are unique within it."""
    chat_id: str | None = Field(default=None, max_length=255)
    query: str
    type: SearchType
    source: Source = Source.USER
    config: JSON = Field(default_factory=dict)
    """The choices the search ran with (``record_config``); credentials are removed on
    validation."""
    keywords: list[str] = Field(default_factory=list)
    entities: list[Entity] = Field(default_factory=list)
    relations: list[Relation] = Field(default_factory=list)
    dsl: JSON | None = None
    references: list[Reference] = Field(default_factory=list)
    """References this search contributed, each with its global 1-based index in the request."""
    graph: list[GraphNode] = Field(default_factory=list)
    xml: str = ""
    prompt: str = ""
    duration_ms: float = Field(default=0.0, ge=0.0)
    error: ErrorInfo | None = None
    created_at: datetime = Field(default_factory=lambda: datetime.now(UTC))
    deleted_at: datetime | None = None

    @field_validator("request_id")
    @classmethod
    def _request_id_has_text(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("request_id must not be empty")
        return value

    @field_validator("config")
    @classmethod
    def _no_credentials(cls, value: JSON, info: ValidationInfo) -> JSON:
        if info.context and info.context.get("redacted"):  # built by ``records_from_response``
            return value
        redacted: JSON = auth.redact(value)
        return redacted

    @field_validator("created_at", "deleted_at")
    @classmethod
    def _in_utc(cls, value: datetime | None) -> datetime | None:
        return None if value is None else as_utc(value)

    @model_validator(mode="after")
    def _indices_match_ids(self) -> SearchRecord:
        seen: set[int] = set()
        for ref in self.references:
            if citation_index(ref.id) != ref.index:
                raise ValueError(f"references: index {ref.index} does not match id {ref.id!r}")
            if ref.index in seen:
                raise ValueError(f"references: index {ref.index} appears twice")
            seen.add(ref.index)
        return self


def as_utc(moment: datetime) -> datetime:
    """Return ``moment`` in UTC; a naive time is taken to be UTC already (as SQLite returns it)."""
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def records_from_response(response: SearchResponse, config: SearchConfig) -> list[SearchRecord]:
    """Build one record per finished request of ``response``, each with the references it found."""
    # The configuration comes from ``record_config``, which holds no credentials.
    return [
        SearchRecord.model_validate(fields, context={"redacted": True})
        for fields in record_fields(response, config)
    ]


def record_fields(response: SearchResponse, config: SearchConfig) -> list[dict[str, Any]]:
    """The ``SearchRecord`` fields of each finished request of ``response``, unvalidated.

    The store writes these straight into rows (``unified_search.records.rows``):
    everything in them is already checked, and the configuration holds no credentials.
    """
    finished = [result for result in response.results if result is not None]
    owned = _references_by_result(response, finished)
    stored_config = record_config(config)
    now = datetime.now(UTC)
    return [
        {
            "request_id": response.request_id,
            "chat_id": response.chat_id,
            "query": result.query,
            "type": result.type,
            "source": result.source,
            "config": stored_config,
            "keywords": result.keywords,
            "entities": result.entities,
            "relations": result.relations,
            "dsl": result.dsl,
            "references": owned[position],
            "graph": result.graph_nodes,
            "xml": response.context.xml,
            "prompt": response.context.prompt,
            "duration_ms": result.duration_ms,
            "error": result.error,
            "created_at": now,
            "deleted_at": None,
        }
        for position, result in enumerate(finished)
    ]


def _references_by_result(
    response: SearchResponse, finished: list[SearchResult]
) -> list[list[Reference]]:
    """Give each cited reference to the first result that found its item.

    A reference whose item no result lists (possible only in a hand-built
    response) goes to the first record, so nothing cited is lost.
    """
    owner: dict[str, int] = {}
    for position, result in enumerate(finished):
        for item in result.items:
            owner.setdefault(item.key, position)
    keys = {item.citation_id: item.key for item in response.items if item.citation_id}
    owned: list[list[Reference]] = [[] for _ in finished]
    for ref in response.context.references:
        if owned:
            owned[owner.get(keys.get(ref.id, ""), 0)].append(ref)
    return owned


# -- table rows -------------------------------------------------------------------------------


def define_tables(metadata: MetaData, prefix: str) -> tuple[Table, Table]:
    """Declare the records and references tables (see ``unified_search.records.store``)."""
    records = _records_table(metadata, prefix)
    return records, _references_table(metadata, prefix, records)


def search_table(metadata: MetaData, name: str, *columns: Column[Any]) -> Table:
    """Declare a table of rows about searches: its own ``id`` key, then the ``request_id`` it is found by.

    Example:
        >>> [c.name for c in search_table(MetaData(), "notes", Column("text", Text)).c]
        ['id', 'request_id', 'text']
    """
    return Table(
        name,
        metadata,
        Column("id", Integer, primary_key=True, autoincrement=True),
        Column("request_id", String(255), nullable=False, index=True),
        *columns,
    )


def _records_table(metadata: MetaData, prefix: str) -> Table:
    return search_table(
        metadata,
        f"{prefix}search_records",
        Column("chat_id", String(255), index=True),
        Column("query", Text, nullable=False),
        Column("type", String(16), nullable=False),
        Column("source", String(16), nullable=False),
        Column("config", SQL_JSON, nullable=False),
        Column("keywords", SQL_JSON, nullable=False),
        Column("entities", SQL_JSON, nullable=False),
        Column("relations", SQL_JSON, nullable=False),
        Column("dsl", SQL_JSON(none_as_null=True)),
        Column("reference_indices", SQL_JSON, nullable=False),
        Column("graph", SQL_JSON, nullable=False),
        Column("xml", Text, nullable=False),
        Column("prompt", Text, nullable=False),
        Column("duration_ms", Float, nullable=False),
        Column("error", SQL_JSON(none_as_null=True)),
        Column("created_at", DateTime(timezone=True), nullable=False),
        Column("deleted_at", DateTime(timezone=True)),
    )


def _references_table(metadata: MetaData, prefix: str, records: Table) -> Table:
    return Table(
        f"{prefix}search_references",
        metadata,
        Column("id", Integer, primary_key=True, autoincrement=True),
        Column("record_id", Integer, ForeignKey(records.c.id), nullable=False, index=True),
        Column("request_id", String(255), nullable=False),
        Column("ref_index", Integer, nullable=False),
        Column("citation_id", String(32), nullable=False),
        Column("type", String(16), nullable=False),
        Column("title", Text, nullable=False),
        Column("url", Text),
        Column("content", Text, nullable=False),
        Column("extra", SQL_JSON, nullable=False),
        UniqueConstraint(
            "request_id", "ref_index", name=f"{prefix}search_references_request_index"
        ),
    )


def record_filters(
    records: Table,
    chat_id: str | None,
    source: Source | SearchType | str | None,
    *,
    include_deleted: bool = False,
) -> list[Any]:
    """The WHERE clauses of a records query by chat and source.

    ``source`` is who asked (``user``, ``hook``, ``auto``) or the kind of source
    searched (``web``, ``kb``, ``db``), as the design's records name it.
    """
    filters: list[Any] = [] if include_deleted else [records.c.deleted_at.is_(None)]
    if chat_id is not None:
        filters.append(records.c.chat_id == chat_id)
    if source is not None:
        value = str(source)
        if value in set(Source):
            filters.append(records.c.source == value)
        elif value in set(SearchType):
            filters.append(records.c.type == value)
        else:
            valid = ", ".join([*Source, *SearchType])
            raise ValueError(f"unknown source {value!r}; valid: {valid}")
    return filters


def record_from_row(row: Any, by_index: dict[int, Reference]) -> SearchRecord:
    """Rebuild a record from its row and the stored references of its request."""
    data = dict(row)
    indices = data.pop("reference_indices")
    data["references"] = [by_index[index] for index in indices if index in by_index]
    return SearchRecord.model_validate(data)


def reference_from_row(row: Any) -> Reference:
    """Rebuild a reference from its row."""
    return Reference(
        id=row["citation_id"],
        index=row["ref_index"],
        type=row["type"],
        title=row["title"],
        url=row["url"],
        content=row["content"],
        **row["extra"],
    )
