"""SearchStore on SQLite and PostgreSQL: round trips, references, soft delete, validation."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest
from pydantic import ValidationError
from sqlalchemy import func, select

from unified_search.errors import ErrorCode, SearchError
from unified_search.records.store import SearchRecord, SearchStore
from unified_search.types import Reference

MakeRecord = Callable[..., SearchRecord]


def test_every_field_survives_a_round_trip(
    store: SearchStore, make_full_record: MakeRecord
) -> None:
    """A record read back equals the saved one, field by field, with its id."""
    original = make_full_record("req-full")
    [saved] = store.save([original])
    assert saved.id is not None
    assert saved == original.model_copy(update={"id": saved.id})
    assert store.get_searches("req-full") == [saved]


def test_searches_come_back_in_save_order(store: SearchStore, make_record: MakeRecord) -> None:
    first = store.save([make_record("r", 1), make_record("r", 2)])
    second = store.save([make_record("r", 3)])
    store.save([make_record("other", 1)])
    ids = [record.id for record in first + second]
    assert [record.id for record in store.get_searches("r")] == ids
    assert ids == sorted(ids) and len(set(ids)) == 3


def test_a_save_larger_than_one_statement_keeps_every_row(
    store: SearchStore, make_full_record: MakeRecord
) -> None:
    """Rows go in multi-row statements; more rows than one statement may bind still all land."""
    records = [
        make_full_record(f"big-{n}").model_copy(update={"query": f"query {n}"}) for n in range(120)
    ]
    saved = store.save(records)  # 120 x 19 record values, 240 x 9 reference values
    ids = [record.id for record in saved]
    assert ids == sorted(ids) and len(set(ids)) == 120
    for original, stored in zip(records, saved, strict=True):
        assert store.get_searches(original.request_id) == [stored]
        assert stored == original.model_copy(update={"id": stored.id})


def test_reference_lookup_by_global_index(
    store: SearchStore, make_record: MakeRecord, make_reference: Callable[..., Reference]
) -> None:
    store.save([make_record("r", 2, 1), make_record("r", 3)])
    assert store.get_reference("r", 3) == make_reference(3)
    assert [ref.index for ref in store.get_references("r")] == [1, 2, 3]
    assert [ref.id for ref in store.get_searches("r")[0].references] == ["ref_002", "ref_001"]


def test_missing_reference_is_none(store: SearchStore, make_record: MakeRecord) -> None:
    store.save([make_record("r", 1)])
    assert store.get_reference("r", 2) is None
    assert store.get_reference("unknown", 1) is None
    assert store.get_references("unknown") == []
    assert store.get_searches("unknown") == []


def test_a_reference_cited_again_keeps_its_first_row(
    store: SearchStore, make_record: MakeRecord, make_reference: Callable[..., Reference]
) -> None:
    """A later search citing ref_001 again neither fails nor duplicates; it still lists it."""
    store.save([make_record("r", 1)])
    changed = make_reference(1, title="retitled")
    again = make_record("r", 2).model_copy(update={"references": [changed, make_reference(2)]})
    store.save([again])
    with store.engine.connect() as conn:
        count = conn.scalar(select(func.count()).select_from(store.references))
    assert count == 2
    assert store.get_reference("r", 1) == make_reference(1)
    later = store.get_searches("r")[1]
    assert [ref.title for ref in later.references] == ["title 1", "title 2"]


def test_the_same_index_twice_within_one_save(store: SearchStore, make_record: MakeRecord) -> None:
    saved = store.save([make_record("r", 1), make_record("r", 1)])
    assert [len(record.references) for record in store.get_searches("r")] == [1, 1]
    assert len(saved) == 2 and len(store.get_references("r")) == 1


def test_soft_delete_hides_a_chat(store: SearchStore, make_record: MakeRecord) -> None:
    store.save([make_record("r1", 1, chat_id="c1"), make_record("r1", 2, chat_id="c1")])
    store.save([make_record("r2", 1, chat_id="c2")])
    assert store.delete_chat("c1") == 2
    assert store.get_searches("r1") == []
    assert store.get_reference("r1", 1) is None
    assert store.get_references("r1") == []
    kept = store.get_searches("r1", include_deleted=True)
    assert len(kept) == 2 and all(record.deleted_at is not None for record in kept)
    assert store.get_reference("r2", 1) is not None
    assert store.delete_chat("c1") == 0
    assert store.delete_chat("no-such-chat") == 0


def test_a_reference_stays_visible_while_a_live_record_lists_it(
    store: SearchStore, make_record: MakeRecord
) -> None:
    store.save([make_record("r", 1, chat_id="c1")])
    store.save([make_record("r", 1, 2, chat_id="c2")])
    store.delete_chat("c1")
    assert [ref.index for ref in store.get_references("r")] == [1, 2]
    [live] = store.get_searches("r")
    assert [ref.index for ref in live.references] == [1, 2]


def test_nul_characters_are_stored_as_replacement(
    store: SearchStore, make_record: MakeRecord, make_reference: Callable[..., Reference]
) -> None:
    """PostgreSQL text cannot hold NUL; both backends store U+FFFD instead."""
    record = make_record("r").model_copy(
        update={"query": "a\x00b", "references": [make_reference(1, content="x\x00y")]}
    )
    store.save([record])
    [stored] = store.get_searches("r")
    assert stored.query == "a\ufffdb"
    assert stored.references[0].content == "x\ufffdy"


def test_saving_nothing_is_a_no_op(store: SearchStore) -> None:
    assert store.save([]) == []


async def test_async_twins(store: SearchStore, make_record: MakeRecord) -> None:
    [saved] = await store.asave([make_record("r", 1, chat_id="c")])
    assert await store.aget_searches("r") == [saved]
    assert await store.aget_reference("r", 1) == saved.references[0]
    assert await store.aget_references("r") == saved.references
    assert await store.adelete_chat("c") == 1
    assert await store.aget_searches("r", include_deleted=True) != []
    assert await store.aget_searches("r") == []


# -- validation ------------------------------------------------------------------------------


@pytest.mark.parametrize("request_id", ["", "   "])
def test_getters_refuse_an_empty_request_id(store: SearchStore, request_id: str) -> None:
    for call in (store.get_searches, store.get_references):
        with pytest.raises(ValueError, match="request_id"):
            call(request_id)
    with pytest.raises(ValueError, match="request_id"):
        store.get_reference(request_id, 1)


@pytest.mark.parametrize("index", [0, -1])
def test_get_reference_refuses_an_index_below_one(store: SearchStore, index: int) -> None:
    with pytest.raises(ValueError, match="index"):
        store.get_reference("r", index)


def test_delete_chat_refuses_an_empty_chat_id(store: SearchStore) -> None:
    with pytest.raises(ValueError, match="chat_id"):
        store.delete_chat("")


def test_save_refuses_something_else_than_records(store: SearchStore) -> None:
    with pytest.raises(TypeError, match="SearchRecord"):
        store.save([{"request_id": "r"}])  # type: ignore[list-item]


def test_record_validation_names_the_field(make_reference: Callable[..., Reference]) -> None:
    with pytest.raises(ValidationError, match="request_id"):
        SearchRecord(request_id=" ", query="q", type="web")
    with pytest.raises(ValidationError, match="request_id"):
        SearchRecord(request_id="r" * 256, query="q", type="web")
    wrong = make_reference(2).model_copy(update={"id": "ref_003"})
    with pytest.raises(ValidationError, match="references"):
        SearchRecord(request_id="r", query="q", type="web", references=[wrong])
    twice = [make_reference(1), make_reference(1)]
    with pytest.raises(ValidationError, match="appears twice"):
        SearchRecord(request_id="r", query="q", type="web", references=twice)


def test_naive_timestamps_are_taken_as_utc() -> None:
    record = SearchRecord(request_id="r", query="q", type="web", created_at=datetime(2026, 1, 1))
    assert record.created_at == datetime(2026, 1, 1, tzinfo=UTC)


@pytest.mark.parametrize("prefix", ["1abc", "a-b", "x; DROP TABLE y", "a" * 40])
def test_table_prefix_must_be_an_identifier(tmp_path: Path, prefix: str) -> None:
    with pytest.raises(ValueError, match="table_prefix"):
        SearchStore(f"sqlite:///{tmp_path / 's.sqlite3'}", table_prefix=prefix)


# -- URLs and connection errors ---------------------------------------------------------------


def test_unreachable_database_is_a_network_error() -> None:
    url = "postgresql+psycopg://postgres:hunter2@127.0.0.1:1/test?connect_timeout=2"
    with pytest.raises(SearchError) as caught:
        SearchStore(url)
    assert caught.value.code is ErrorCode.NETWORK_ERROR
    assert caught.value.retryable
    assert "127.0.0.1:1" in str(caught.value) and "hunter2" not in str(caught.value)


def test_unopenable_sqlite_file_is_a_network_error(tmp_path: Path) -> None:
    with pytest.raises(SearchError) as caught:
        SearchStore(f"sqlite:///{tmp_path / 'missing-dir' / 's.sqlite3'}")
    assert caught.value.code is ErrorCode.NETWORK_ERROR


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("mysql://u@127.0.0.1/db", "sqlite and postgresql"),
        ("postgresql+nosuchdriver://u@127.0.0.1/db", "nosuchdriver"),
        ("not a url", "Could not parse"),
    ],
)
def test_unusable_url_is_unsupported(url: str, says: str) -> None:
    with pytest.raises(SearchError, match=says) as caught:
        SearchStore(url)
    assert caught.value.code is ErrorCode.UNSUPPORTED


def test_default_url_is_a_file_in_the_data_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, make_record: MakeRecord
) -> None:
    home = tmp_path / "nested" / "home"
    monkeypatch.setenv("UNIFIED_SEARCH_HOME", str(home))
    with SearchStore() as store:
        store.save([make_record("r", 1)])
    assert (home / "search.sqlite3").is_file()
    with SearchStore() as reopened:
        assert len(reopened.get_searches("r")) == 1


def test_default_data_home_is_under_the_user_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("UNIFIED_SEARCH_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    with SearchStore() as store:
        assert store.url.endswith("/.local/share/unified-search/search.sqlite3")
    assert (tmp_path / ".local" / "share" / "unified-search" / "search.sqlite3").is_file()


def test_repr_names_the_database(tmp_path: Path) -> None:
    with SearchStore(f"sqlite:///{tmp_path / 'named.sqlite3'}") as store:
        assert repr(store) == f"SearchStore('sqlite:///{tmp_path / 'named.sqlite3'}')"
