"""Questions answered end to end on SQLite and PostgreSQL, compared with hand-written SQL.

The rows a question returns must be the rows the SQL returns: joins,
negation, aggregates and dates are read the same way on both databases.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Callable, Iterator
from decimal import Decimal
from typing import Any

import pytest

from unified_search.db.handler import DBHandler
from unified_search.db.understanding import Understanding
from unified_search.engine.searcher import Searcher
from unified_search.errors import ErrorCode
from unified_search.types import SearchRequest, SearchResult, SearchType


@pytest.fixture(scope="module")
def handler(library_today: dt.date) -> Iterator[DBHandler]:
    handler = DBHandler(today=lambda: library_today)
    yield handler
    asyncio.run(handler.aclose())


Ask = Callable[[str], Any]


@pytest.fixture
def ask(handler: DBHandler, library_url: str, make_ctx: Any) -> Ask:
    ctx = make_ctx(library_url, db={"max_results": 100})

    async def run(question: str) -> SearchResult:
        return await handler.asearch(SearchRequest(query=question, type=SearchType.DB), ctx)

    return run


ReadSQL = Callable[[str, str], list[tuple[Any, ...]]]


def _plain(value: Any) -> Any:
    return round(float(value), 2) if isinstance(value, Decimal | float) else value


ROW_QUESTIONS = [
    ("books not by Ada Brook", "books", "SELECT id FROM books WHERE author_id <> 1"),
    ("sci-fi books", "books", "SELECT id FROM books WHERE genre = 'Science Fiction'"),
    ("non-fiction books under $15", "books", "SELECT id FROM books WHERE genre = 'Nonfiction' AND price < 15"),
    ("books released after 2020", "books", "SELECT id FROM books WHERE published >= '2021-01-01'"),
    ("books published before 2013", "books", "SELECT id FROM books WHERE published < '2013-01-01'"),
    ("cheapest book", "books", "SELECT id FROM books ORDER BY price LIMIT 1"),
    ("members who borrowed a fantasy book", "members",
     "SELECT DISTINCT l.member_id FROM loans l JOIN books b ON b.id = l.book_id WHERE b.genre = 'Fantasy'"),
    ("members who never borrowed anything", "members",
     "SELECT id FROM members WHERE id NOT IN (SELECT member_id FROM loans)"),
    ("loans of members in Porto", "loans",
     "SELECT l.id FROM loans l JOIN members m ON m.id = l.member_id WHERE m.city = 'Porto'"),
    ("loans last month", "loans",
     "SELECT id FROM loans WHERE borrowed_on BETWEEN '2024-04-01' AND '2024-04-30'"),
    ("loans not returned", "loans", "SELECT id FROM loans WHERE returned_on IS NULL"),
    ("staff managed by Iris Vale", "staff", "SELECT id FROM staff WHERE manager_id = 1"),
    ("members who joined this year", "members", "SELECT id FROM members WHERE joined >= '2024-01-01'"),
]  # fmt: skip


@pytest.mark.parametrize(("question", "model", "sql"), ROW_QUESTIONS)
async def test_rows_match_hand_written_sql(
    ask: Ask, read_sql: ReadSQL, library_url: str, question: str, model: str, sql: str
) -> None:
    result = await ask(question)
    assert result.error is None, result.error
    assert {i.model for i in result.items} <= {model}
    assert {i.record_id for i in result.items} == {str(r[0]) for r in read_sql(library_url, sql)}


FIGURE_QUESTIONS = [
    ("how many fantasy books do we have?", "SELECT COUNT(*) FROM books WHERE genre = 'Fantasy'"),
    ("average price of science fiction books", "SELECT AVG(price) FROM books WHERE genre = 'Science Fiction'"),
    ("number of loans per member",
     "SELECT m.id, m.name, COUNT(*) FROM loans l JOIN members m ON m.id = l.member_id GROUP BY m.id, m.name"),
    ("total pages per genre", "SELECT genre, SUM(pages) FROM books GROUP BY genre"),
    ("authors with more than 2 books",
     "SELECT a.id, a.name, COUNT(*) FROM books b JOIN authors a ON a.id = b.author_id"
     " GROUP BY a.id, a.name HAVING COUNT(*) > 2"),
    ("the member with the most loans",
     "SELECT m.id, m.name, COUNT(*) AS n FROM loans l JOIN members m ON m.id = l.member_id"
     " GROUP BY m.id, m.name ORDER BY n DESC, m.id LIMIT 1"),
]  # fmt: skip


@pytest.mark.parametrize(("question", "sql"), FIGURE_QUESTIONS)
async def test_figures_match_hand_written_sql(
    ask: Ask, read_sql: ReadSQL, library_url: str, question: str, sql: str
) -> None:
    """Aggregate answers are items whose data holds the figures, and no table-row id."""
    result = await ask(question)
    assert result.error is None, result.error
    got = sorted(tuple(_plain(v) for v in (i.data or {}).values()) for i in result.items)
    assert got == sorted(tuple(_plain(v) for v in r) for r in read_sql(library_url, sql))
    assert all(i.record_id is None and i.model for i in result.items)


async def test_figures_are_cited_like_any_other_item(library_url: str) -> None:
    config = {"db": {"url": library_url}}
    async with Searcher(config, handlers={"db": DBHandler()}) as searcher:
        response = await searcher.asearch({"query": "number of books per genre", "type": "db"})
    assert [r.id for r in response.references][:2] == ["ref_001", "ref_002"]
    first = response.references[0]
    assert first.record_id is None and first.data is not None and "count" in first.data
    assert "count:" in first.content and first.id in response.context.xml


@pytest.mark.parametrize(
    ("question", "words"),
    [
        ('" OR ""="', []),
        ("books about dragons", ["dragons"]),
        ("zorblax", ["zorblax"]),
        ("members who adore poetry", ["adore", "poetry"]),
    ],
)
async def test_a_question_not_understood_returns_no_rows_and_says_why(
    ask: Ask, question: str, words: list[str]
) -> None:
    result = await ask(question)
    assert result.items == [] and result.error is not None
    assert result.error.code is ErrorCode.INVALID_QUERY
    understanding = Understanding.of(result)
    assert understanding is not None and understanding.not_understood == words
    for word in words:
        assert repr(word) in result.error.message


async def test_an_answer_says_how_it_was_understood(ask: Ask) -> None:
    result = await ask("custmers who borrowed sci-fi")
    understanding = Understanding.of(result)
    assert result.error is not None  # "custmers" is a word of another schema: not corrected here
    result = await ask("membrs who borrowed sci-fi")
    understanding = Understanding.of(result)
    assert understanding is not None and result.error is None
    assert understanding.line() == (
        'understood as: members where with loans (books.genre = "Science Fiction")'
    )
    assert understanding.corrections == ["membrs → members"]
