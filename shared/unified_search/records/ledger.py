"""The citation ledger: persisted, atomic citation numbering per scope, in the record store.

Two tables, next to the search records:

- ``<prefix>citation_scopes``: one counter row per scope, the last index handed out;
- ``<prefix>citation_ids``: which index each item got in a scope, unique by
  ``(scope, item)`` and by ``(scope, index)``.

``allocate`` runs in one short transaction: it reads the indices the items
already have, moves the counter up by the number of new items in a single
``INSERT … ON CONFLICT DO UPDATE … RETURNING`` (atomic in SQLite and
PostgreSQL alike, so two processes never get the same range), and inserts the
new rows. When two processes number the same new item at once, the row that
lands first wins and the other's index is simply never used: a gap, never a
duplicate. Items are keyed by a hash of ``ResultItem.key`` so that long URLs fit
an index.

Durability: a commit waiting for the disk would cost more than the whole
search (about 4 ms here), so PostgreSQL commits these transactions without
waiting for the WAL flush (``synchronous_commit = off``) and SQLite runs in WAL
mode with ``synchronous = NORMAL``. A crash of the process loses nothing; a
crash of the database server or the machine may lose the last moments of
numbering, but never numbering that a search record saved after it depends on:
a new scope's numbering is written in the same transaction as its record, and
both databases write their log in order, so a record's commit (durable in a
``sync`` store) keeps everything before it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence

from sqlalchemy import (
    Column,
    ColumnElement,
    Connection,
    Integer,
    MetaData,
    String,
    Table,
    UniqueConstraint,
    bindparam,
    func,
    select,
    tuple_,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Dialect

from unified_search.records.engine import PlainInsert

Insert = Callable[[Table], sqlite.Insert | postgresql.Insert]


def define_ledger(metadata: MetaData, prefix: str) -> tuple[Table, Table]:
    """Declare the counter and the item tables of the citation ledger."""
    scopes = Table(
        f"{prefix}citation_scopes",
        metadata,
        Column("scope", String(255), primary_key=True),
        Column("last_index", Integer, nullable=False),
    )
    ids = Table(
        f"{prefix}citation_ids",
        metadata,
        Column("scope", String(255), primary_key=True),
        Column("item", String(64), primary_key=True),
        Column("ref_index", Integer, nullable=False),
        UniqueConstraint("scope", "ref_index", name=f"{prefix}citation_ids_scope_index"),
    )
    return scopes, ids


def item_hash(key: str) -> str:
    """The fixed-size form of an item key stored in the ledger."""
    return hashlib.sha256(key.encode()).hexdigest()[:40]


class Ledger:
    """The ledger's statements over one store's tables (called inside the store's transactions).

    The statements are built once, with bound parameters, so each call only binds values.
    """

    def __init__(self, scopes: Table, ids: Table, insert: Insert, dialect: Dialect) -> None:
        self.scopes = scopes
        self.ids = ids
        self._postgres = dialect.name == "postgresql"
        greatest = func.greatest if self._postgres else func.max
        current: ColumnElement[int] = greatest(scopes.c.last_index, bindparam("floor"))
        # Whole primary keys, so the lookup stays an index probe however large the scope grows.
        self._select = select(ids.c.item, ids.c.ref_index).where(
            tuple_(ids.c.scope, ids.c.item).in_(bindparam("keys", expanding=True))
        )
        raise_counter = (
            insert(scopes)
            .values(scope=bindparam("scope"), last_index=bindparam("first"))
            .on_conflict_do_update(
                index_elements=["scope"], set_={"last_index": current + bindparam("count")}
            )
        )
        self._raise = raise_counter.returning(scopes.c.last_index)
        self._add = insert(ids).on_conflict_do_nothing().returning(ids.c.item)
        # For writing many scopes at once, where nothing is read back: each counter goes
        # up to the scope's highest index at least.
        highest = "greatest" if self._postgres else "max"
        counter = dialect.identifier_preparer.format_table(scopes)
        self._raise_many = PlainInsert(
            scopes,
            dialect,
            ["scope", "last_index"],
            on_conflict=f"ON CONFLICT (scope) DO UPDATE SET "
            f"last_index = {highest}({counter}.last_index, excluded.last_index)",
        )
        self._add_many = PlainInsert(
            ids, dialect, ["scope", "item", "ref_index"], on_conflict="ON CONFLICT DO NOTHING"
        )

    def allocate(
        self, conn: Connection, scope: str, keys: Sequence[str], floor: int = 0
    ) -> dict[str, int]:
        """Return the index of every key in ``scope``, numbering new keys after ``floor`` at least."""
        self.without_waiting_for_disk(conn)
        hashes = {key: item_hash(key) for key in keys}
        found = self._indices(conn, scope, list(hashes.values()))
        new = [h for h in dict.fromkeys(hashes.values()) if h not in found]
        if new:
            top = self._raise_counter(conn, scope, floor, len(new))
            wanted = dict(zip(new, range(top - len(new) + 1, top + 1), strict=True))
            inserted = self._insert_ids(conn, scope, wanted)
            found |= {h: wanted[h] for h in inserted}
            lost = [h for h in new if h not in inserted]
            found |= self._indices(conn, scope, lost) if lost else {}
        return {key: found[digest] for key, digest in hashes.items()}

    def remember(self, conn: Connection, scope: str, indices: Mapping[str, int]) -> None:
        """Record indices handed out in memory (a scope nobody else knew yet)."""
        self.without_waiting_for_disk(conn)
        self.remember_many(conn, [(scope, indices)])

    def remember_many(
        self, conn: Connection, scopes: Sequence[tuple[str, Mapping[str, int]]]
    ) -> None:
        """Record the in-memory numbering of several fresh scopes, two statements in all."""
        entries = [(scope, indices) for scope, indices in scopes if indices]
        if not entries:
            return
        tops: dict[str, int] = {}  # one row per scope: an upsert may not touch a row twice
        for scope, indices in entries:
            tops[scope] = max(tops.get(scope, 0), *indices.values())
        self._raise_many(conn, list(tops.items()))
        rows = [
            (scope, item_hash(key), index)
            for scope, indices in entries
            for key, index in indices.items()
        ]
        self._add_many(conn, rows)

    def without_waiting_for_disk(self, conn: Connection) -> None:
        """Let this transaction commit without waiting for PostgreSQL's WAL flush (see above)."""
        if self._postgres:
            conn.exec_driver_sql("SET LOCAL synchronous_commit = off")

    def _indices(self, conn: Connection, scope: str, hashes: list[str]) -> dict[str, int]:
        if not hashes:
            return {}
        rows = conn.execute(self._select, {"keys": [(scope, h) for h in hashes]})
        return {row.item: row.ref_index for row in rows}

    def _raise_counter(self, conn: Connection, scope: str, floor: int, count: int) -> int:
        """Move the counter to ``max(counter, floor) + count`` atomically; return the new value."""
        values = {"scope": scope, "first": floor + count, "floor": floor, "count": count}
        return int(conn.execute(self._raise, values).scalar_one())

    def _insert_ids(self, conn: Connection, scope: str, wanted: Mapping[str, int]) -> set[str]:
        """Insert the rows that are not there yet; return the hashes actually inserted."""
        rows = [{"scope": scope, "item": h, "ref_index": i} for h, i in wanted.items()]
        return {row.item for row in conn.execute(self._add, rows)}
