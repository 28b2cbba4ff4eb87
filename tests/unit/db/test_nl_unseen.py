"""Readings that schemas nobody wrote rules for get wrong unless each class is read whole or refused.

Stored values that hold cue words, flags kept as 1 or 0, verbs that stored values name, negations
the plan cannot place, grouping cues that group nothing, a column asked for twice and columns of
the row a subject row links to: each class over two schemas (one snake_case, one CamelCase).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

SCHEMAS = {
    "festival": """
CREATE TABLE maker (maker_id INTEGER PRIMARY KEY, name TEXT, country TEXT);
CREATE TABLE movie (movie_id INTEGER PRIMARY KEY, title TEXT, maker_id INTEGER REFERENCES maker,
  is_silent INTEGER, year INTEGER);
CREATE TABLE prize (prize_id INTEGER PRIMARY KEY, movie_id INTEGER REFERENCES movie,
  category TEXT, outcome TEXT, edition INTEGER);
INSERT INTO maker VALUES (1, 'Ana Ruiz', 'Spain'), (2, 'Bo Lind', 'Sweden');
INSERT INTO movie VALUES (1, 'Dawn', 1, 0, 2001), (2, 'Dusk', 2, 1, 2003), (3, 'Noon', NULL, 0, 2005);
INSERT INTO prize VALUES (1, 1, 'Best Picture', 'Winner', 2020), (2, 2, 'Most Daring', 'Nominee', 2020),
  (3, 2, 'Best Picture', 'Nominee', 2021), (4, 1, 'Top Score', 'Winner', 2021);
""",
    "league": """
CREATE TABLE City (CityID INTEGER PRIMARY KEY, CityName TEXT, Region TEXT);
CREATE TABLE Player (PlayerID INTEGER PRIMARY KEY, PlayerName TEXT, Position TEXT,
  HasAgent INTEGER, HomeCityID INTEGER REFERENCES City(CityID), Plan TEXT);
CREATE TABLE Match (MatchID INTEGER PRIMARY KEY, PlayerID INTEGER REFERENCES Player,
  Opponent TEXT, Result TEXT, Goals INTEGER);
INSERT INTO City VALUES (1, 'Leeds', 'North'), (2, 'Bath', 'South');
INSERT INTO Player VALUES (1, 'Kim Ode', 'Forward', 1, 1, 'Free'), (2, 'Lu Pax', 'Keeper', 0, 2, 'Paid'),
  (3, 'Mo Rye', 'Forward', 0, NULL, 'Paid');
INSERT INTO Match VALUES (1, 1, 'Reds', 'Won', 2), (2, 1, 'Blues', 'Lost', 0), (3, 2, 'Reds', 'Won', 1);
""",
}


@pytest.fixture(scope="module")
def readings(script_files: Callable[..., dict[str, Path]], readings_of: Callable[..., Any]) -> Any:
    return readings_of(script_files(SCHEMAS))


def conditions(found: dict[str, Any]) -> list[tuple[str, str, Any]]:
    return [(w["field"], w["op"], w.get("value")) for w in found.get("wheres", [])]


#: Stored values that hold cue words ("Best", "Most", "Top", "free") are values.
CUE_VALUES = [
    ("festival", "movies that got Best Picture", "prize.category", "Best Picture"),
    ("festival", "which movies got Most Daring?", "prize.category", "Most Daring"),
    ("festival", "how many prizes in the Top Score category", "category", "Top Score"),
    ("league", "players on the Free plan", "Plan", "Free"),
    ("league", "how many players are on a free plan?", "Plan", "Free"),
]


#: Flags held as 1 or 0 (``is_silent``, ``HasAgent``), named as a quality or as something had.
FLAGS = [
    ("festival", "silent movies", "is_silent", 1),
    ("festival", "how many movies are silent?", "is_silent", 1),
    ("festival", "movies that are not silent", "is_silent", 0),
    ("festival", "the average year of the silent movies", "is_silent", 1),
    ("league", "players who have an agent", "HasAgent", 1),
    ("league", "how many players have an agent?", "HasAgent", 1),
    ("league", "players without an agent", "HasAgent", 0),
]


#: Verbs that stored values name ("won" → "Winner" or "Won", "nominated" → "Nominee").
VERBS = [
    ("festival", "movies that won a prize", "prize.outcome", "Winner"),
    ("festival", "how many prizes were won in each edition?", "outcome", "Winner"),
    ("festival", "makers whose movies won a prize", "prize.outcome", "Winner"),
    ("festival", "movies nominated for a prize", "prize.outcome", "Nominee"),
    ("league", "players who won a match", "Match.Result", "Won"),
    ("league", "how many matches were lost?", "Result", "Lost"),
]


@pytest.mark.parametrize(("schema", "question", "field", "value"), CUE_VALUES + FLAGS + VERBS)
def test_words_read_as_tests(
    readings: Any, schema: str, question: str, field: str, value: object
) -> None:
    found = readings.dsl(schema, question)
    assert (field, "=", value) in conditions(found)
    assert "orders" not in found and "limit" not in found


@pytest.mark.parametrize(
    ("schema", "question"),
    [
        ("festival", "movies that never won a prize"),
        # a negation along a link that may be empty, or after a value of the related rows
        ("festival", "movies not made by any maker"),
        ("league", "players that do not live in any city"),
        # a grouping cue that groups nothing
        ("festival", "how many movies are there of each kind?"),
        ("league", "count the players per sort"),
        # a column asked for twice: the second belongs to something else
        ("league", "the names of the players and the names of their rivals"),
    ],
)
def test_partial_readings_are_refused(readings: Any, schema: str, question: str) -> None:
    readings.refused(schema, question)


@pytest.mark.parametrize(
    ("schema", "question", "shown"),
    [
        ("league", "the names of the players and the names of their home cities", "City.CityName"),
        ("league", "the names of players and the regions of their home cities", "City.Region"),
        ("festival", "the titles of movies and the names of their makers", "maker.name"),
        ("festival", "the title of each movie and the country of its maker", "maker.country"),
    ],
)
def test_columns_of_the_linked_row_are_shown(
    readings: Any, schema: str, question: str, shown: str
) -> None:
    assert shown in readings.dsl(schema, question)["select"]


@pytest.mark.parametrize(
    ("schema", "question", "kinds"),
    [
        ("league", "players who never won a match", ["not exists"]),
        (
            "festival",
            "movies with a Best Picture prize but never a Winner prize",
            ["exists", "not exists"],
        ),
        (
            "league",
            "players who played the Reds but never played the Blues",
            ["exists", "not exists"],
        ),
    ],
)
def test_negations_of_related_rows_stay_with_their_test(
    readings: Any, schema: str, question: str, kinds: list[str]
) -> None:
    assert [j["type"] for j in readings.dsl(schema, question)["joins"]] == kinds
