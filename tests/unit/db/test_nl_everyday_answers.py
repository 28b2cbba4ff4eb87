"""Everyday questions answered end to end on SQLite and PostgreSQL, checked against SQL.

Each question goes through the handler (every table a model, none named); the rows it returns
must hold the rows of a hand-written query, in its order when it orders them.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import re
from collections.abc import Iterator
from typing import Any

import pytest

from unified_search.db.handler import DBHandler
from unified_search.errors import ErrorCode
from unified_search.types import SearchRequest, SearchType

CASES = [
    ("music", "What is the average, minimum, and maximum age of all singers from France?",
     "SELECT avg(Age), min(Age), max(Age) FROM singer WHERE Country = 'France'", False),
    ("music", "List all song names by singers above the average age.",
     "SELECT DISTINCT Song_Name FROM singer WHERE Age > (SELECT avg(Age) FROM singer)", False),
    ("music", "Show the stadium names without any concert.",
     "SELECT Name FROM stadium WHERE Stadium_ID NOT IN (SELECT Stadium_ID FROM concert)", False),
    ("music", "How many concerts are there in year 2014 or 2015?",
     "SELECT count(*) FROM concert WHERE Year = '2014' OR Year = '2015'", False),
    ("music", "Show the stadium name and the number of concerts in each stadium.",
     "SELECT s.Name, count(*) FROM concert c JOIN stadium s ON c.Stadium_ID = s.Stadium_ID GROUP BY s.Stadium_ID, s.Name", False),
    ("music", "Show name, country, age for all singers ordered by age from the oldest to the youngest.",
     "SELECT Name, Country, Age FROM singer ORDER BY Age DESC", True),
    ("music", "What are the names of the singers who performed in a concert in 2014?",
     "SELECT DISTINCT s.Name FROM singer s JOIN singer_in_concert i ON i.Singer_ID = s.Singer_ID "
     "JOIN concert c ON c.concert_ID = i.concert_ID WHERE c.Year = '2014'", False),
    ("music", "What is the name of the stadium with the most concerts?",
     "SELECT s.Name FROM concert c JOIN stadium s ON c.Stadium_ID = s.Stadium_ID GROUP BY s.Stadium_ID, s.Name ORDER BY count(*) DESC LIMIT 1", False),
    ("school", "Find the maximum weight for each type of pet.",
     "SELECT max(weight), PetType FROM Pets GROUP BY PetType", False),
    ("school", "How many different types of pet are there?",
     "SELECT count(DISTINCT PetType) FROM Pets", False),
    ("school", "Find the first name of students who have more than one pet.",
     "SELECT s.Fname FROM Student s JOIN Has_Pet h ON h.StuID = s.StuID GROUP BY s.StuID, s.Fname HAVING count(*) > 1", False),
    ("school", "What is the average age for all students who do not own any pets?",
     "SELECT avg(Age) FROM Student WHERE StuID NOT IN (SELECT StuID FROM Has_Pet)", False),
    ("school", "Find the id and weight of all pets whose age is older than 1.",
     "SELECT PetID, weight FROM Pets WHERE pet_age > 1", False),
    ("school", "What is the first name of every student who has a dog but does not have a cat?",
     "SELECT s.Fname FROM Student s WHERE EXISTS (SELECT 1 FROM Has_Pet h JOIN Pets p ON p.PetID = h.PetID "
     "WHERE h.StuID = s.StuID AND p.PetType = 'dog') AND NOT EXISTS (SELECT 1 FROM Has_Pet h JOIN Pets p "
     "ON p.PetID = h.PetID WHERE h.StuID = s.StuID AND p.PetType = 'cat')", False),
    ("flights", "How many flights go to LAX?", "SELECT count(*) FROM flights WHERE DestAirport = 'LAX'", False),
    ("flights", "What is the cheapest flight from JFK?",
     "SELECT FlightNo FROM flights WHERE SourceAirport = 'JFK' ORDER BY Price LIMIT 1", False),
]  # fmt: skip


@pytest.fixture(scope="module")
def handler() -> Iterator[DBHandler]:
    handler = DBHandler(today=lambda: dt.date(2025, 6, 15))
    yield handler
    asyncio.run(handler.aclose())


def _normal(value: Any) -> Any:
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int | float) or type(value).__name__ == "Decimal":
        return round(float(value), 2)
    return str(value).strip().lower()


def _quoted(sql: str) -> str:
    """Quote mixed-case names ("Age", "PetType"), which PostgreSQL keeps as they were created."""
    parts = re.split(r"('[^']*')", sql)  # string values stay as they are
    name = re.compile(r"\b(?=[A-Za-z_]*[a-z])(?=[A-Za-z_]*[A-Z])[A-Za-z_]+\b")
    return "".join(p if p.startswith("'") else name.sub(r'"\g<0>"', p) for p in parts)


def _holds(row: list[Any], gold: tuple[Any, ...]) -> bool:
    pool = list(row)
    for value in gold:
        if value not in pool:
            return False
        pool.remove(value)
    return True


@pytest.mark.parametrize(("schema", "question", "sql", "ordered"), CASES)
async def test_everyday_questions_get_the_rows_of_the_sql(
    handler: DBHandler,
    make_ctx: Any,
    read_sql: Any,
    everyday_urls: dict[str, str],
    schema: str,
    question: str,
    sql: str,
    ordered: bool,
) -> None:
    url = everyday_urls[schema]
    ctx = make_ctx(url, db={"max_results": 100})
    result = await handler.asearch(SearchRequest(query=question, type=SearchType.DB), ctx)
    assert result.error is None, result.error
    rows = [[_normal(v) for v in (item.data or {}).values()] for item in result.items]
    gold = [tuple(_normal(v) for v in row) for row in read_sql(url, _quoted(sql))]
    assert gold, "the sample data should answer every question"
    assert len(rows) == len(gold), (rows, gold)
    for answer, want in zip(rows, gold, strict=True) if ordered else ():
        assert _holds(answer, want)
    for want in gold:
        assert any(_holds(answer, want) for answer in rows), (want, rows)


@pytest.mark.parametrize(
    ("schema", "question"),
    [
        ("music", "Show countries where a singer above age 40 and a singer below 30 are from."),
        ("flights", "airports with flights"),
        ("school", "students with more pets than Linda"),
    ],
)
async def test_everyday_questions_it_cannot_read_run_nothing(
    handler: DBHandler, make_ctx: Any, everyday_urls: dict[str, str], schema: str, question: str
) -> None:
    ctx = make_ctx(everyday_urls[schema])
    result = await handler.asearch(SearchRequest(query=question, type=SearchType.DB), ctx)
    assert result.items == []
    assert result.error is not None and result.error.code is ErrorCode.INVALID_QUERY
    assert "nothing was queried" in result.error.message
