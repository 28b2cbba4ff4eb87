"""Constructions read only in part are refused; the plain forms beside them are still answered.

Superlatives over figures, figures compared with numbers, two superlatives in one question,
values held by different related rows, figures over rows of their own, counts of text columns,
groups of one row, rankings whose words describe rather than count, listings of several columns
and groupings by a column some rows leave empty: each class over two schemas (one snake_case,
one CamelCase), in several phrasings.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

SCHEMAS = {
    "bookshop": """
CREATE TABLE author (author_id INTEGER PRIMARY KEY, name TEXT, country TEXT, age INTEGER);
CREATE TABLE book (book_id INTEGER PRIMARY KEY, title TEXT, genre TEXT, price REAL, pages INTEGER,
  author_id INTEGER REFERENCES author);
CREATE TABLE sale (sale_id INTEGER PRIMARY KEY, book_id INTEGER REFERENCES book, quantity INTEGER,
  amount REAL, channel TEXT);
INSERT INTO author VALUES (1, 'Ida Holm', 'Norway', 40), (2, 'Raul Vega', 'Chile', 55),
  (3, 'Mei Tan', 'Norway', 31);
INSERT INTO book VALUES (1, 'Cold Harbour', 'Crime', 12.5, 300, 1),
  (2, 'Salt Roads', 'Travel', 20.0, 220, 2), (3, 'Night Ferry', 'Crime', 9.0, 180, 3),
  (4, 'High Passes', 'Travel', 25.0, 410, 2), (5, 'Loose Ends', NULL, 11.0, 150, 1);
INSERT INTO sale VALUES (1, 1, 3, 37.5, 'online'), (2, 2, 1, 20.0, 'shop'), (3, 1, 2, 25.0, 'shop'),
  (4, 4, 5, 125.0, 'online'), (5, 3, 1, 9.0, 'online');
""",
    "fleet": """
CREATE TABLE Port (PortID INTEGER PRIMARY KEY, PortName TEXT, Country TEXT);
CREATE TABLE Ship (ShipID INTEGER PRIMARY KEY, ShipName TEXT, ShipClass TEXT, Tonnage INTEGER,
  Crew INTEGER, HomePortID INTEGER REFERENCES Port(PortID));
CREATE TABLE Voyage (VoyageID INTEGER PRIMARY KEY, ShipID INTEGER REFERENCES Ship(ShipID),
  Destination TEXT, Fare REAL, DurationHours INTEGER);
INSERT INTO Port VALUES (1, 'Bergen', 'Norway'), (2, 'Hull', 'England');
INSERT INTO Ship VALUES (1, 'Aurora', 'Ferry', 9000, 40, 1), (2, 'Brisk', 'Tug', 300, 6, 2),
  (3, 'Corona', 'Ferry', 12000, 55, 1), (4, 'Drift', NULL, 500, 8, 2);
INSERT INTO Voyage VALUES (1, 1, 'Oslo', 80.0, 20), (2, 1, 'Kiel', 95.0, 30),
  (3, 3, 'Oslo', 70.0, 22), (4, 2, 'Grimsby', 15.0, 3);
""",
}


@pytest.fixture(scope="module")
def readings(script_files: Callable[..., dict[str, Path]], readings_of: Callable[..., Any]) -> Any:
    return readings_of(script_files(SCHEMAS))


REFUSED = [
    # a superlative over a figure ranked by another figure
    ("bookshop", "Which genre has the highest average book price?"),
    ("bookshop", "Which genre has the lowest average price?"),
    ("bookshop", "Which genre has the largest total sale amount?"),
    ("fleet", "Which ship class has the largest average tonnage?"),
    ("bookshop", "Which author has the highest total sales?"),
    ("fleet", "Which destination has the lowest total fare?"),
    # a count of the groups a count test keeps
    ("bookshop", "How many authors have written more than one book?"),
    ("fleet", "How many ports are home to more than one ship?"),
    ("bookshop", "Count the countries that have more than one author."),
    # a figure compared with a number: a test on each group, not on each row
    ("bookshop", "Which genres have an average price above 15?"),
    ("bookshop", "Which authors have a total sale amount of more than 50?"),
    ("fleet", "Which ship classes have an average crew above 20?"),
    ("fleet", "Which ports have ships whose average tonnage is over 5000?"),
    # two superlatives: two figures, not one ordering broken by another
    ("bookshop", "What is the highest book price and the lowest page count?"),
    ("fleet", "What is the highest fare and the longest duration of any voyage?"),
    ("fleet", "What is the highest fare of any voyage and the shortest voyage duration?"),
    # values that different related rows may hold
    (
        "bookshop",
        "Which countries have authors who wrote a Crime book and also authors who wrote a Travel book?",
    ),
    ("fleet", "Which countries have ports with a Ferry ship and also ports with a Tug ship?"),
    # a figure over rows of its own
    ("bookshop", "List the titles of books more expensive than the average price of Crime books."),
    ("bookshop", "Which books cost more than the average price of all crime books?"),
    ("bookshop", "Find authors older than the average age of authors from Norway."),
    ("bookshop", "Which books have more pages than the average of Travel books?"),
    ("fleet", "Which ships are heavier than the average tonnage of Ferry ships?"),
    # rows of a text column counted, not a number tested
    ("bookshop", "Which genres have more than one title?"),
    ("fleet", "Which destinations have more than one ship name?"),
    # groups of one row
    ("bookshop", "What is the average price per book?"),
    ("bookshop", "What is the average age per author?"),
    ("fleet", "What is the average fare per voyage?"),
    # a negated test on a column some rows leave empty: are those rows kept?
    ("bookshop", "What is the average price of books that are not Crime books?"),
    ("bookshop", "Which books are not Travel books?"),
    ("fleet", "Which ships are not ferries?"),
    ("fleet", "List the ships whose class is not Tug."),
    # words between "most" and the rows that describe rather than count
    ("bookshop", "Who is the most prolific author?"),
    ("fleet", "Who is the most seasoned ship?"),
]


@pytest.mark.parametrize(("schema", "question"), REFUSED)
def test_partial_readings_are_refused(readings: Any, schema: str, question: str) -> None:
    readings.refused(schema, question)


@pytest.mark.parametrize(
    ("schema", "question", "fn", "field"),
    [
        ("fleet", "Which port has the greatest total crew?", "sum", "Crew"),
        ("fleet", "Which port has the highest average tonnage of ships?", "avg", "Tonnage"),
        ("fleet", "Which ship has the most voyages?", "count", None),
        ("bookshop", "Which author has the most books?", "count", None),
    ],
)
def test_a_superlative_ranks_by_the_figure_it_names(
    readings: Any, schema: str, question: str, fn: str, field: str | None
) -> None:
    found = readings.dsl(schema, question)
    assert [(a["fn"], a.get("field")) for a in found["aggregates"]] == [(fn, field)]
    assert found["orders"][0]["sort"] == "desc" and found["limit"] == 1


@pytest.mark.parametrize(
    ("schema", "question", "field"),
    [
        ("bookshop", "Which books cost more than the average price of all books?", "price"),
        ("bookshop", "Which books cost more than the average price of the books?", "price"),
        ("bookshop", "Which authors are older than the average age?", "age"),
        ("fleet", "Which ships have a tonnage above the average tonnage?", "Tonnage"),
    ],
)
def test_a_figure_over_every_row_is_still_compared(
    readings: Any, schema: str, question: str, field: str
) -> None:
    wheres = readings.dsl(schema, question)["wheres"]
    assert [(w["field"], w["than"]["fn"]) for w in wheres] == [(field, "avg")]


@pytest.mark.parametrize(
    ("schema", "question", "field"),
    [
        ("bookshop", "Which sales were not made online?", "channel"),
        ("fleet", "Which voyages are not to Oslo?", "Destination"),
    ],
)
def test_a_negated_test_on_a_column_every_row_fills_is_answered(
    readings: Any, schema: str, question: str, field: str
) -> None:
    assert readings.dsl(schema, question)["wheres"][0]["field"] == field


@pytest.mark.parametrize(
    ("schema", "question", "columns"),
    [
        ("bookshop", "List the titles and genres of books priced under 15.", {"title", "genre"}),
        (
            "fleet",
            "List the ship names and ship classes of ships with a crew above 10.",
            {"ShipName", "ShipClass"},
        ),
    ],
)
def test_every_column_a_listing_names_is_shown(
    readings: Any, schema: str, question: str, columns: set[str]
) -> None:
    found = readings.dsl(schema, question)
    assert not found.get("distinct")
    assert columns <= set(found["select"])


@pytest.mark.parametrize(
    ("schema", "question", "grouped", "left_empty"),
    [
        ("bookshop", "How many books are there in each genre?", "genre", True),
        ("bookshop", "What is the average price of books in each genre?", "genre", True),
        ("bookshop", "How many sales are there for each channel?", "channel", False),
        ("fleet", "How many ships are there of each ship class?", "ShipClass", True),
        ("fleet", "What is the average fare for each destination?", "Destination", False),
    ],
)
def test_a_group_is_a_value_some_row_holds(
    readings: Any, schema: str, question: str, grouped: str, left_empty: bool
) -> None:
    found = readings.dsl(schema, question)
    assert found["group_by"] == [grouped]
    tested = {"field": grouped, "op": "is not null"} in found.get("wheres", [])
    assert tested == left_empty
