"""What a model looks like: columns, types, keys, and the settings that guard it.

Reflection goes through SQLAlchemy, so tables and views of any supported
database look the same. Tables and views of the default schema are named
plainly (``orders``); those of the other schemas listed in ``db.schemas``
(PostgreSQL) are named ``schema.table``. Foreign keys use the same names, and
``db.settings.<model>.foreign_keys`` adds keys the database does not declare
(views have none). Reflected tables are cached per engine: a schema change
needs a new handler (or ``SchemaCatalog.clear``).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Literal

import sqlalchemy as sa

from unified_search.config.db import ModelSettings
from unified_search.db.execute import ReadOnlyExecutor
from unified_search.errors import ErrorCode, SearchError

Kind = Literal["int", "float", "str", "bool", "date", "datetime", "other"]
#: Preferred display columns, in order, when settings name none.
_TITLE_NAMES = ("title", "name", "label", "subject", "email")


@dataclass(frozen=True)
class ColumnInfo:
    """One column as the DSL sees it.

    Example:
        >>> ColumnInfo("price", "float", "NUMERIC(10, 2)", nullable=False, primary_key=False).kind
        'float'
    """

    name: str
    kind: Kind
    type: str
    nullable: bool
    primary_key: bool
    foreign_key: str | None = None
    """``model.column`` this column points to, if any (declared or configured)."""
    description: str | None = None


@dataclass(frozen=True)
class ModelSchema:
    """A reflected model with its settings applied.

    Example:
        Not run here: ``schema`` is a model reflected from a database.

        >>> schema.columns["price"].kind  # doctest: +SKIP
        'float'
    """

    name: str
    table: sa.Table = field(repr=False)
    columns: Mapping[str, ColumnInfo]
    primary_key: tuple[str, ...]
    title: str | None
    searchable: tuple[str, ...]
    settings: ModelSettings = field(default_factory=ModelSettings)

    @property
    def label(self) -> str:
        """The human name of the model."""
        return self.settings.label or self.name

    def column(self, name: str) -> ColumnInfo:
        """Return a column; unknown names fail with INVALID_QUERY listing the real ones."""
        try:
            return self.columns[name]
        except KeyError:
            known = ", ".join(self.columns)
            raise SearchError(
                ErrorCode.INVALID_QUERY,
                f"unknown field {name!r} on model {self.name!r}; fields: {known}",
            ) from None

    def text_columns(self) -> list[str]:
        """Return the names of the text columns."""
        return [c.name for c in self.columns.values() if c.kind == "str"]

    def describe(self) -> dict[str, Any]:
        """Return a JSON description for agents that write DSL."""
        return {
            "model": self.name,
            "label": self.label,
            "description": self.settings.description,
            "primary_key": list(self.primary_key),
            "title": self.title,
            "searchable": list(self.searchable),
            "columns": [_describe_column(c) for c in self.columns.values()],
        }


def _describe_column(column: ColumnInfo) -> dict[str, Any]:
    info: dict[str, Any] = {"name": column.name, "type": column.kind, "nullable": column.nullable}
    if column.primary_key:
        info["primary_key"] = True
    if column.foreign_key:
        info["references"] = column.foreign_key
    if column.description:
        info["description"] = column.description
    return info


def column_kind(type_: sa.types.TypeEngine[Any]) -> Kind:
    """Map a SQL type to the kind of Python value its column holds."""
    checks: Sequence[tuple[type[Any], Kind]] = (
        (sa.Boolean, "bool"),
        (sa.DateTime, "datetime"),
        (sa.Date, "date"),
        (sa.Integer, "int"),
        (sa.Numeric, "float"),
        (sa.Float, "float"),
        (sa.String, "str"),
        (sa.Enum, "str"),
    )
    for sql_type, kind in checks:
        if isinstance(type_, sql_type):
            return kind
    return "other"


def build_schema(table: sa.Table, settings: ModelSettings, name: str | None = None) -> ModelSchema:
    """Combine a reflected table with its settings; settings naming missing columns are errors."""
    name = name or table.name
    columns = {c.name: _column_info(c, settings) for c in table.columns}
    _check_settings(name, columns, settings)
    text = [n for n, c in columns.items() if c.kind == "str"]
    open_text = [n for n in text if n not in settings.permission]  # a tenant ID is no content
    searchable = tuple(settings.searchable if settings.searchable is not None else open_text)
    return ModelSchema(
        name=name,
        table=table,
        columns=columns,
        primary_key=tuple(c.name for c in table.primary_key.columns),
        title=settings.title or _default_title(text, name.rpartition(".")[2]),
        searchable=searchable,
        settings=settings,
    )


def _column_info(column: sa.Column[Any], settings: ModelSettings) -> ColumnInfo:
    # target_fullname is "table.column" in the default schema, "schema.table.column" elsewhere:
    # exactly the model naming, and readable without reflecting the target.
    fks = [fk.target_fullname for fk in column.foreign_keys]
    configured = settings.foreign_keys.get(column.name)
    return ColumnInfo(
        name=column.name,
        kind=column_kind(column.type),
        type=str(column.type),
        nullable=bool(column.nullable),
        primary_key=bool(column.primary_key),
        foreign_key=configured or (fks[0] if fks else None),
        description=settings.columns.get(column.name),
    )


def _check_settings(model: str, columns: Mapping[str, ColumnInfo], settings: ModelSettings) -> None:
    named = [
        *settings.columns,
        *(settings.searchable or []),
        *settings.permission,
        *settings.foreign_keys,
    ]
    if settings.title:
        named.append(settings.title)
    missing = sorted({n for n in named if n not in columns})
    if missing:
        raise SearchError(
            ErrorCode.INVALID_QUERY,
            f"db.settings.{model} names columns the model lacks: {', '.join(missing)}",
        )


def _default_title(text_columns: Sequence[str], table: str = "") -> str | None:
    """The column that names a row: ``title``, ``name`` … in any case, else one ending so.

    A text column named like its table names its rows too (``Airline`` of ``airlines``).
    Without a name-like column the title is "<label> <id>": a status word is no title.
    """
    lowered = {c.lower(): c for c in text_columns}
    for wanted in _TITLE_NAMES:
        if wanted in lowered:
            return lowered[wanted]
    base = table.lower()
    for candidate in (base, base[:-1] if base.endswith("s") else ""):
        if candidate in lowered:
            return lowered[candidate]
    for wanted in _TITLE_NAMES[:2]:  # "concert_Name", "CountryName", "race_title"
        for column in text_columns:
            words = re.split(r"[_\s]+", re.sub(r"([a-z])([A-Z])", r"\1 \2", column).lower())
            if len(words) > 1 and words[-1] == wanted:
                return column
    return None


class SchemaCatalog:
    """Reflected models of one engine, cached; safe to share between threads.

    Reading goes through a ``ReadOnlyExecutor`` when one is given, so a locked or hung
    database fails within its deadline instead of blocking.

    Example:
        Not run here: ``engine`` is an engine over the caller's database.

        >>> catalog = SchemaCatalog(engine)  # doctest: +SKIP
        >>> catalog.model("products", ModelSettings()).primary_key  # doctest: +SKIP
        ('id',)
    """

    def __init__(self, engine: sa.Engine) -> None:
        self.engine = engine
        self._lock = threading.Lock()
        self._tables: dict[str, sa.Table] = {}
        self._names: dict[tuple[str, ...], list[str]] = {}

    def names(
        self, schemas: Sequence[str] = (), *, executor: ReadOnlyExecutor | None = None
    ) -> list[str]:
        """Return every table and view of the default schema and of ``schemas``, sorted."""
        key = tuple(sorted(set(schemas)))
        with self._lock:
            if key not in self._names:
                self._names[key] = self._read(executor, lambda conn: _names(conn, key))
            return list(self._names[key])

    def model(
        self, name: str, settings: ModelSettings, *, executor: ReadOnlyExecutor | None = None
    ) -> ModelSchema:
        """Reflect ``name`` (``table`` or ``schema.table``, once) and apply ``settings``."""
        with self._lock:
            table = self._tables.get(name)
            if table is None:
                schema, _, table_name = name.rpartition(".")
                table = self._read(executor, lambda conn: _reflect(conn, table_name, schema))
                self._tables[name] = table
        return build_schema(table, settings, name)

    def clear(self) -> None:
        """Forget everything reflected, for example after a migration."""
        with self._lock:
            self._tables.clear()
            self._names.clear()

    def _read(self, executor: ReadOnlyExecutor | None, work: Any) -> Any:
        return (executor or ReadOnlyExecutor(self.engine, timeout=_READ_TIMEOUT)).call_sync(work)


def _reflect(conn: sa.Connection, name: str, schema: str) -> sa.Table:
    """Reflect a table or view; a column the database gives no type gets its values' type.

    SQLite declares no type for a view's computed columns (``COUNT(*) AS visits``): without
    this, "more than 5 visits" would find no number to compare.
    """
    table = sa.Table(
        name, sa.MetaData(), schema=schema or None, autoload_with=conn, resolve_fks=False
    )
    for column in table.columns:
        if isinstance(column.type, sa.types.NullType):
            query = sa.select(column).where(column.is_not(None)).limit(1)
            value = conn.execute(query).scalar()
            column.type = _TYPE_OF_VALUE.get(type(value), sa.types.NullType)()
        elif isinstance(column.type, sa.Boolean) and conn.dialect.name == "sqlite":
            # SQLite keeps whatever was written: a "bool" column of 'T'/'F' holds text.
            query = sa.select(sa.func.typeof(column)).where(column.is_not(None)).limit(1)
            if conn.execute(query).scalar() == "text":
                column.type = sa.String()
    return table


_TYPE_OF_VALUE: dict[type[Any], type[sa.types.TypeEngine[Any]]] = {
    int: sa.Integer,
    float: sa.Float,
    Decimal: sa.Numeric,
    str: sa.String,
}
#: Seconds a schema read may take when no executor (and so no configured deadline) is given.
_READ_TIMEOUT = 30.0


def _names(conn: sa.Connection, schemas: Sequence[str]) -> list[str]:
    inspector = sa.inspect(conn)
    found = set(inspector.get_table_names()) | set(inspector.get_view_names())
    default = inspector.default_schema_name
    for schema in schemas:
        if schema == default:
            continue
        if schema not in inspector.get_schema_names():
            raise SearchError(
                ErrorCode.INVALID_QUERY,
                f"db.schemas names {schema!r}, which the database does not have",
                provider="db",
            )
        listed = inspector.get_table_names(schema=schema) + inspector.get_view_names(schema=schema)
        found |= {f"{schema}.{name}" for name in listed}
    return sorted(found)


def unknown_models(wanted: Sequence[str], exposed: Sequence[str]) -> list[str]:
    """Return the models of ``wanted`` that are not exposed."""
    return [m for m in wanted if m not in exposed]


def unknown_model_error(name: str, exposed: Sequence[str], elsewhere: Sequence[str]) -> SearchError:
    """The INVALID_QUERY for a model not exposed, listing the available ones.

    ``elsewhere`` are tables of the same name in schemas not listed in ``db.schemas``; the
    message says how to reach them.
    """
    message = f"unknown model {name!r}; available models: {', '.join(exposed) or 'none'}"
    if elsewhere:
        schemas = ", ".join(repr(e.rpartition(".")[0]) for e in elsewhere)
        named = ", ".join(repr(e) for e in elsewhere)
        message += f"; {named} exists: add {schemas} to db.schemas and name it so"
    return SearchError(ErrorCode.INVALID_QUERY, message)


def elsewhere(conn: sa.Connection, name: str) -> list[str]:
    """Return ``schema.name`` for every other schema holding a table or view called ``name``."""
    inspector = sa.inspect(conn)
    table = name.rpartition(".")[2]
    found = []
    for schema in inspector.get_schema_names():
        if schema in _SYSTEM_SCHEMAS or schema == inspector.default_schema_name:
            continue
        listed = inspector.get_table_names(schema=schema) + inspector.get_view_names(schema=schema)
        if table in listed:
            found.append(f"{schema}.{table}")
    return found


_SYSTEM_SCHEMAS = frozenset({"information_schema", "pg_catalog", "pg_toast", "main", "temp"})
