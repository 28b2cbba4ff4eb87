"""Stored searches by chat and by source (the design's SearchFilter), on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from unified_search.records.store import SearchRecord, SearchStore
from unified_search.types import Reference, SearchType, Source


def record(
    make_reference: Callable[..., Reference],
    request_id: str,
    chat_id: str | None,
    kind: str,
    source: str,
    *indices: int,
) -> SearchRecord:
    refs = [make_reference(i, type=kind, source=source) for i in indices]
    return SearchRecord(
        request_id=request_id,
        chat_id=chat_id,
        query=f"q {request_id}",
        type=kind,
        source=source,
        references=refs,
    )


@pytest.fixture
def filled(store: SearchStore, make_reference: Callable[..., Reference]) -> SearchStore:
    store.save(
        [
            record(make_reference, "r1", "c1", "web", "auto", 1, 2),
            record(make_reference, "r1", "c1", "kb", "auto", 3),
            record(make_reference, "r2", "c1", "db", "user", 1),
            record(make_reference, "r3", "c2", "kb", "hook", 1),
            record(make_reference, "r4", None, "web", "user"),
        ]
    )
    return store


@pytest.mark.parametrize(
    ("chat_id", "source", "expected"),
    [
        ("c1", None, [("r1", "web"), ("r1", "kb"), ("r2", "db")]),
        ("c1", "kb", [("r1", "kb")]),
        ("c1", SearchType.WEB, [("r1", "web")]),
        ("c1", "auto", [("r1", "web"), ("r1", "kb")]),
        ("c1", Source.USER, [("r2", "db")]),
        (None, "kb", [("r1", "kb"), ("r3", "kb")]),
        (None, "user", [("r2", "db"), ("r4", "web")]),
        ("c2", "db", []),
        ("nobody", None, []),
    ],
)
def test_filter_by_chat_and_source(
    filled: SearchStore, chat_id: str | None, source: str | None, expected: list[tuple[str, str]]
) -> None:
    found = filled.find_searches(chat_id=chat_id, source=source)
    assert [(r.request_id, r.type.value) for r in found] == expected


def test_records_come_back_with_their_references(filled: SearchStore) -> None:
    web, kb, db = filled.find_searches(chat_id="c1")
    assert [ref.id for ref in web.references] == ["ref_001", "ref_002"]
    assert [ref.id for ref in kb.references] == ["ref_003"]
    assert [ref.id for ref in db.references] == ["ref_001"] and db.request_id == "r2"


def test_limit_keeps_the_latest_oldest_first(filled: SearchStore) -> None:
    assert [r.request_id for r in filled.find_searches(chat_id="c1", limit=2)] == ["r1", "r2"]
    assert [r.type.value for r in filled.find_searches(chat_id="c1", limit=2)] == ["kb", "db"]
    with pytest.raises(ValueError, match="limit"):
        filled.find_searches(chat_id="c1", limit=0)


def test_deleted_chats_are_hidden_unless_asked(filled: SearchStore) -> None:
    filled.delete_chat("c1")
    assert filled.find_searches(chat_id="c1") == []
    assert len(filled.find_searches(chat_id="c1", include_deleted=True)) == 3


def test_unknown_source_names_the_valid_ones(filled: SearchStore) -> None:
    with pytest.raises(ValueError, match="valid: user, hook, auto, web, kb, db"):
        filled.find_searches(source="files")


async def test_async_twin(filled: SearchStore) -> None:
    found = await filled.afind_searches(chat_id="c2", source="hook")
    assert [r.request_id for r in found] == ["r3"]
