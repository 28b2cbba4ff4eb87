"""Bad input: any text, any length, any language, SQL fragments and unknown names.

Whatever the question, the database only ever runs the compiled read-only ``select`` (every
statement sent to it is recorded and checked), nothing changes, and a question not read whole
is refused with INVALID_QUERY saying what was not understood.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError
from sqlalchemy import event

from unified_search.db.handler import DBHandler
from unified_search.db.nl.generate import MAX_QUESTION
from unified_search.errors import ErrorCode, SearchError
from unified_search.types import SearchRequest, SearchType

FRAGMENTS = [
    "SELECT * FROM singer",
    "; DROP TABLE singer; --",
    "' OR '1'='1",
    "UNION SELECT Name, Age FROM singer",
    "older than (SELECT max(Age) FROM singer)",
    "ORDER BY 1; DELETE FROM stadium",
    "above the average age); UPDATE singer SET Age = 0 --",
    "having 'x' OR 1=1 in its name",
    "sorted by Name; ATTACH DATABASE 'x' AS y",
    "PRAGMA writable_schema = 1",
    "/* */ INSERT INTO concert VALUES (9, 'x', 'y', 1, '2020')",
]
WORDS = [
    "singers", "stadium", "names", "oldest", "average", "age", "capacity", "without", "concerts",
    "per", "country", "most", "above", "2014", "distinct", "and", "or", "not", "'Hey'", "每个",
    "平均", "年龄", "Sänger", "älter", "als", "durchschnitt", "âge", "moyen", "по", "возраст",
]  # fmt: skip
_TEXT = st.one_of(
    st.sampled_from(FRAGMENTS),
    st.sampled_from(WORDS),
    st.text(max_size=12),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=30),
)


@pytest.fixture(scope="module")
def music_file(everyday_files: dict[str, Path]) -> Path:
    return everyday_files["music"]


@pytest.fixture
def statements() -> Iterator[list[str]]:
    """Every statement any engine sends to a database while the test runs."""
    sent: list[str] = []

    def record(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        sent.append(statement)

    event.listen(sa.engine.Engine, "before_cursor_execute", record)
    yield sent
    event.remove(sa.engine.Engine, "before_cursor_execute", record)


def _read_only(statement: str) -> bool:
    """A select, or the guards the executor sets before one (read-only, deadlines)."""
    first = statement.lstrip().split(None, 1)[0].upper() if statement.strip() else ""
    return first in ("SELECT", "PRAGMA", "SET", "WITH") and not any(
        word in statement.upper() for word in ("INSERT ", "UPDATE ", "DELETE ", "DROP ", "ATTACH ")
    )


def _digest(path: Path) -> bytes:
    return path.read_bytes()


def _ask(handler: DBHandler, make_ctx: Any, url: str, question: str) -> Any:
    """Ask one question; a request with no text at all is rejected naming the field."""
    ctx = make_ctx(url)
    try:
        request = SearchRequest(query=question, type=SearchType.DB)
    except ValidationError as exc:
        assert exc.errors()[0]["loc"] == ("query",)
        raise SearchError(ErrorCode.INVALID_QUERY, str(exc)) from exc
    return asyncio.run(handler.asearch(request, ctx))


@pytest.fixture(scope="module")
def handler() -> Iterator[DBHandler]:
    handler = DBHandler(today=lambda: dt.date(2025, 6, 15))
    yield handler
    asyncio.run(handler.aclose())


@settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(parts=st.lists(_TEXT, min_size=1, max_size=10))
def test_any_text_runs_only_the_compiled_select_or_is_refused_with_a_reason(
    handler: DBHandler,
    make_ctx: Any,
    music_file: Path,
    statements: list[str],
    parts: list[str],
) -> None:
    before = _digest(music_file)
    statements.clear()
    question = " ".join(parts)
    try:
        result = _ask(handler, make_ctx, f"sqlite:///{music_file}", question)
    except SearchError as exc:  # empty once control characters are gone, or too long
        assert exc.code is ErrorCode.INVALID_QUERY and exc.message
    else:
        if result.error is not None:
            assert result.error.code is ErrorCode.INVALID_QUERY
            assert result.error.message and result.items == []
    assert all(_read_only(s) for s in statements), statements
    assert _digest(music_file) == before


@pytest.mark.parametrize(
    "question",
    [
        "x" * (MAX_QUESTION + 1),
        "names of singers " * 400,
        "\u202eDROP TABLE singer\u202c",
        "",
        "\x00\x01\x02",
    ],
    ids=["too-long", "long-repetition", "direction-marks", "empty", "control"],
)
def test_extreme_lengths_and_characters_are_refused(
    handler: DBHandler, make_ctx: Any, music_file: Path, question: str
) -> None:
    with pytest.raises(SearchError) as caught:
        result = _ask(handler, make_ctx, f"sqlite:///{music_file}", question)
        assert result.error is not None  # not raised: refused as a result instead
        raise SearchError(result.error.code, result.error.message)
    assert caught.value.code is ErrorCode.INVALID_QUERY


@pytest.mark.parametrize(
    ("question", "word"),
    [
        ("show the colour of the singers", "colour"),
        ("singers sorted by shoe size", "shoe"),
        ("the average salary of singers", "average"),
        ("stadiums with the most fans", "fans"),
        ("singers whose nickname is Joe", "nickname"),
        ("singers without any awards", "awards"),
        ("SELECT Name FROM singer", "select"),
        ("Sänger älter als 30", "sänger"),
        ("年龄最大的歌手", "歌手"),
    ],
)
def test_unknown_names_are_refused_naming_them(
    handler: DBHandler,
    make_ctx: Any,
    music_file: Path,
    statements: list[str],
    question: str,
    word: str,
) -> None:
    statements.clear()
    result = _ask(handler, make_ctx, f"sqlite:///{music_file}", question)
    assert result.items == []
    assert result.error is not None and result.error.code is ErrorCode.INVALID_QUERY
    assert word in result.error.message.lower()
    assert "nothing was queried" in result.error.message
    assert all(_read_only(s) for s in statements), statements


@pytest.mark.parametrize("fragment", FRAGMENTS)
def test_sql_fragments_in_everyday_questions_stay_data(
    handler: DBHandler,
    make_ctx: Any,
    music_file: Path,
    fingerprint: Callable[[str], str],
    fragment: str,
) -> None:
    url = f"sqlite:///{music_file}"
    before = fingerprint(url)
    for question in (f"names of singers {fragment}", f"{fragment} oldest singer"):
        try:
            result = _ask(handler, make_ctx, url, question)
        except SearchError as exc:
            assert exc.code is ErrorCode.INVALID_QUERY
            continue
        assert result.error is not None, f"{question!r} was answered"
        assert result.error.code is ErrorCode.INVALID_QUERY
    assert fingerprint(url) == before


def test_the_record_of_statements_sees_what_runs(
    handler: DBHandler, make_ctx: Any, music_file: Path, statements: list[str]
) -> None:
    """The check above is real: an answered question's select is recorded."""
    statements.clear()
    result = _ask(handler, make_ctx, f"sqlite:///{music_file}", "the oldest singer")
    assert result.error is None and result.items
    assert any(s.lstrip().upper().startswith("SELECT") and "LIMIT" in s.upper() for s in statements)
    assert not _read_only("DELETE FROM singer") and not _read_only("SELECT 1; DROP TABLE singer")
