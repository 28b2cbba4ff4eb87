"""The everyday words of questions about tables, read over schemas nobody wrote rules for.

Each rule is checked on the class of questions it claims: several phrasings, and where the
words allow, several schemas (a music schema with years as text and a link table, a school
schema with abbreviated column names, flights with two keys to airports, the shop, the
library). What a reading asks is checked on the DSL; ``test_nl_everyday_answers.py`` checks rows.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest


@pytest.fixture(scope="module")
def readings(
    everyday_files: dict[str, Path],
    shop_file: Path,
    library_file: Path,
    readings_of: Callable[..., Any],
) -> Any:
    """The everyday schemas, the shop and the library, without the view that repeats open loans."""
    files = {**everyday_files, "shop": shop_file, "library": library_file}
    return readings_of(files, hidden={"open_loans"})


def where(field: str, op: str, value: Any = None) -> dict[str, Any]:
    return {"field": field, "op": op} | ({} if value is None else {"value": value})


# -- superlatives and their opposites on any numeric or date column ---------------------------

SUPERLATIVES = [
    ("music", "Show the name of the youngest singer.", "singer", "Age", "asc"),
    ("music", "who is the oldest singer?", "singer", "Age", "desc"),
    ("music", "the singer with the highest age", "singer", "Age", "desc"),
    ("music", "the stadium with the largest capacity", "stadium", "Capacity", "desc"),
    ("music", "which stadium has the smallest capacity?", "stadium", "Capacity", "asc"),
    ("music", "the stadium with the lowest average", "stadium", "Average", "asc"),
    ("school", "Find the weight of the youngest dog.", "Pets", "pet_age", "asc"),
    ("school", "the oldest pet", "Pets", "pet_age", "desc"),
    ("school", "the heaviest pet", "Pets", "weight", "desc"),
    ("school", "which pet is the lightest?", "Pets", "weight", "asc"),
    ("school", "the student with the greatest age", "Student", "Age", "desc"),
    ("flights", "the cheapest flight", "flights", "Price", "asc"),
    ("flights", "the most expensive flight", "flights", "Price", "desc"),
    ("library", "the newest book", "books", "published", "desc"),
    ("library", "the oldest book", "books", "published", "asc"),
    ("library", "the longest book", "books", "pages", "desc"),
    ("shop", "the highest rated product", "products", "rating", "desc"),
]


@pytest.mark.parametrize(("schema", "question", "model", "field", "sort"), SUPERLATIVES)
def test_a_superlative_orders_by_its_column_and_keeps_one_row(
    readings: Any, schema: str, question: str, model: str, field: str, sort: str
) -> None:
    found = readings.dsl(schema, question)
    assert found["model"] == model
    assert found["orders"][0] == {"field": field, **({"sort": "desc"} if sort == "desc" else {})}
    assert found["limit"] == 1


@pytest.mark.parametrize(
    ("question", "limit"),
    [("the 3 oldest singers", 3), ("the two youngest singers", 2), ("top 2 oldest singers", 2)],
)
def test_a_count_next_to_a_superlative_is_the_limit(
    readings: Any, question: str, limit: int
) -> None:
    assert readings.dsl("music", question)["limit"] == limit


@pytest.mark.parametrize(
    "question",
    ["the singer with the highest country", "which stadium has the largest location?"],
)
def test_a_superlative_over_words_is_refused(readings: Any, question: str) -> None:
    """ "the highest country" means nothing: no text column is ranked by a superlative."""
    readings.refused("music", question)


# -- ordering words ---------------------------------------------------------------------------

ORDERINGS = [
    ("music", "Show name, country, age for all singers ordered by age from the oldest to the youngest.", "Age", "desc"),
    ("music", "singers sorted by age", "Age", "asc"),
    ("music", "names of singers in descending order of age", "Age", "desc"),
    ("music", "list the stadiums ordered by capacity in descending order", "Capacity", "desc"),
    ("music", "stadiums sorted by capacity from highest to lowest", "Capacity", "desc"),
    ("music", "List the names of singers in alphabetical order", "Name", "asc"),
    ("music", "singers ordered by name", "Name", "asc"),
    ("school", "students ordered by age from the youngest to the oldest", "Age", "asc"),
    ("school", "pets in ascending order of weight", "weight", "asc"),
    ("flights", "flights sorted by price in descending order", "Price", "desc"),
    ("library", "books ordered by pages", "pages", "asc"),
]  # fmt: skip


@pytest.mark.parametrize(("schema", "question", "field", "sort"), ORDERINGS)
def test_ordering_words_sort_every_row(
    readings: Any, schema: str, question: str, field: str, sort: str
) -> None:
    found = readings.dsl(schema, question)
    assert found["orders"] == [{"field": field, **({"sort": "desc"} if sort == "desc" else {})}]
    assert "limit" not in found


# -- the asked-for columns come first -------------------------------------------------------

SHOWN = [
    ("music", "What are the names and ages of the singers?", "singer", ["Name", "Age"]),
    ("music", "Show name, country, age for all singers", "singer", ["Name", "Country", "Age"]),
    ("music", "the location and name of every stadium", "stadium", ["Location", "Name"]),
    ("school", "Find the first name and age of the students", "Student", ["Fname", "Age"]),
    ("school", "Find the id and weight of all pets", "Pets", ["PetID", "weight"]),
    ("school", "list the ids of the students", "Student", ["StuID"]),
    ("flights", "the flight numbers and prices of flights", "flights", ["FlightNo", "Price"]),
    ("library", "the title of each book and the name of its author", "books", ["title", "authors.name"]),
    ("shop", "What is the name and price of each product?", "products", ["name", "price"]),
]  # fmt: skip


@pytest.mark.parametrize(("schema", "question", "model", "first"), SHOWN)
def test_the_asked_for_columns_lead_each_row(
    readings: Any, schema: str, question: str, model: str, first: list[str]
) -> None:
    found = readings.dsl(schema, question)
    assert found["model"] == model
    assert found["select"][: len(first)] == first
    own = set(readings.domains[schema].models[model].columns)
    assert own <= set(found["select"]), "the rest of the row follows"


@pytest.mark.parametrize(
    ("schema", "question", "field"),
    [
        ("music", "What are all distinct countries of the singers?", "Country"),
        ("music", "What are the different countries of singers?", "Country"),
        ("school", "Show the distinct pet types of pets.", "PetType"),
        ("school", "What are the last names of students?", "LName"),
        ("shop", "which brands do we sell?", "brand"),
    ],
)
def test_distinct_values_of_one_column(
    readings: Any, schema: str, question: str, field: str
) -> None:
    found = readings.dsl(schema, question)
    assert found["select"] == [field]
    assert found["distinct"] is True


# -- comparisons with a figure and with an aggregate -----------------------------------------

COMPARISONS = [
    ("music", "singers older than 30", where("Age", ">", 30)),
    ("music", "singers younger than 30", where("Age", "<", 30)),
    ("music", "singers above age 30", where("Age", ">", 30)),
    ("music", "singers with an age greater than 30", where("Age", ">", 30)),
    ("music", "stadiums with a capacity between 5000 and 12000", where("Capacity", "between", [5000, 12000])),
    ("music", "stadiums with capacity of at least 10000", where("Capacity", ">=", 10000)),
    ("school", "pets heavier than 10", where("weight", ">", 10.0)),
    ("school", "pets whose weight is heavier than 10", where("weight", ">", 10.0)),
    ("school", "pets with a greater weight than 10", where("weight", ">", 10.0)),
    ("school", "pets lighter than 10", where("weight", "<", 10.0)),
    ("school", "pets older than 2", where("pet_age", ">", 2)),
    ("school", "the id and weight of every pet who is older than 1", where("pet_age", ">", 1)),
    ("school", "students who are 18 years old", where("Age", "=", 18)),
    ("school", "students aged 19", where("Age", "=", 19)),
    ("school", "female students", where("Sex", "=", "F")),
    ("school", "the male students", where("Sex", "=", "M")),
    ("flights", "flights cheaper than 300", where("Price", "<", 300.0)),
]  # fmt: skip


@pytest.mark.parametrize(("schema", "question", "expected"), COMPARISONS)
def test_comparisons_with_a_figure(
    readings: Any, schema: str, question: str, expected: dict[str, Any]
) -> None:
    assert readings.dsl(schema, question)["wheres"] == [expected]


OVERALLS = [
    ("music", "List all song names by singers above the average age.", "Age", ">", "avg"),
    ("music", "singers who are older than average", "Age", ">", "avg"),
    ("music", "singers younger than the average age", "Age", "<", "avg"),
    ("music", "stadiums with a capacity larger than the average", "Capacity", ">", "avg"),
    ("music", "stadiums whose capacity is below the average capacity", "Capacity", "<", "avg"),
    ("school", "pets whose weight is below the average weight", "weight", "<", "avg"),
    ("school", "pets heavier than the average", "weight", ">", "avg"),
    ("school", "students older than the minimum age", "Age", ">", "min"),
    ("flights", "flights with a price above the average price", "Price", ">", "avg"),
    ("library", "books with more pages than the average", "pages", ">", "avg"),
]  # fmt: skip


@pytest.mark.parametrize(("schema", "question", "field", "op", "fn"), OVERALLS)
def test_comparisons_with_a_figure_over_all_rows(
    readings: Any, schema: str, question: str, field: str, op: str, fn: str
) -> None:
    [found] = readings.dsl(schema, question)["wheres"]
    assert found == {"field": field, "op": op, "than": {"fn": fn, "field": field}}


# -- figures: several at once, per group, distinct ------------------------------------------

FIGURES = [
    ("music", "What is the average, minimum, and maximum age of all singers from France?", [("avg", "Age"), ("min", "Age"), ("max", "Age")]),
    ("music", "the maximum and minimum capacity of stadiums", [("max", "Capacity"), ("min", "Capacity")]),
    ("music", "What is the average and maximum capacities for all stadiums?", [("avg", "Capacity"), ("max", "Capacity")]),
    ("school", "the average age and the maximum age of students", [("avg", "Age"), ("max", "Age")]),
    ("school", "the minimum weight and the average pet age of pets", [("min", "weight"), ("avg", "pet_age")]),
    ("flights", "the highest and lowest price of flights", [("max", "Price"), ("min", "Price")]),
]  # fmt: skip


@pytest.mark.parametrize(("schema", "question", "figures"), FIGURES)
def test_several_figures_in_one_question(
    readings: Any, schema: str, question: str, figures: list[tuple[str, str]]
) -> None:
    found = readings.dsl(schema, question)
    assert [(a["fn"], a["field"]) for a in found["aggregates"]] == figures


GROUPS = [
    ("music", "Show all countries and the number of singers in each country.", "singer", ["Country"]),
    ("music", "How many singers are from each country?", "singer", ["Country"]),
    ("music", "number of singers per country", "singer", ["Country"]),
    ("music", "average age of singers by country", "singer", ["Country"]),
    ("school", "Find the maximum weight for each type of pet.", "Pets", ["PetType"]),
    ("school", "What is the average weight for each pet type?", "Pets", ["PetType"]),
    ("school", "the average and maximum age for each type of pet", "Pets", ["PetType"]),
    ("school", "number of students per sex", "Student", ["Sex"]),
    ("flights", "average price of flights per source airport", "flights", ["SourceAirport"]),
]  # fmt: skip


@pytest.mark.parametrize(("schema", "question", "model", "group_by"), GROUPS)
def test_for_each_per_and_by_group_the_figures(
    readings: Any, schema: str, question: str, model: str, group_by: list[str]
) -> None:
    found = readings.dsl(schema, question)
    assert (found["model"], found["group_by"]) == (model, group_by)


@pytest.mark.parametrize(
    ("schema", "question", "field"),
    [
        ("school", "How many different types of pet are there?", "PetType"),
        ("school", "Find the number of distinct type of pets.", "PetType"),
        ("music", "how many different countries do the singers come from?", "Country"),
        ("shop", "number of distinct brands of products", "brand"),
    ],
)
def test_counts_of_distinct_values(readings: Any, schema: str, question: str, field: str) -> None:
    [figure] = readings.dsl(schema, question)["aggregates"]
    assert figure == {"fn": "count", "field": field, "distinct": True, "as": "count"}


def test_a_stadium_named_with_its_count_is_grouped_by_its_rows(readings: Any) -> None:
    found = readings.dsl(
        "music", "Show the stadium name and the number of concerts in each stadium."
    )
    assert found["model"] == "concert"
    assert found["group_by"][:2] == ["stadium.Stadium_ID", "stadium.Name"]


# -- the most and the fewest, at least N, without any ----------------------------------------

RANKED = [
    ("music", "the stadium with the most concerts", "concert", "desc", 1),
    ("music", "Which stadium has the fewest concerts?", "concert", "asc", 1),
    ("music", "What is the year that had the most concerts?", "concert", "desc", 1),
    ("music", "Which country has the most singers?", "singer", "desc", 1),
    ("school", "the student with the most pets", "Has_Pet", "desc", 1),
    ("library", "the author with the most books", "books", "desc", 1),
]


@pytest.mark.parametrize(("schema", "question", "model", "sort", "limit"), RANKED)
def test_the_most_and_the_fewest_rank_counts(
    readings: Any, schema: str, question: str, model: str, sort: str, limit: int
) -> None:
    found = readings.dsl(schema, question)
    assert found["model"] == model
    assert found["aggregates"] == [{"fn": "count", "as": "count"}]
    assert found["orders"] == [{"field": "count", **({"sort": "desc"} if sort == "desc" else {})}]
    assert found["limit"] == limit


AT_LEAST = [
    ("school", "students with at least 2 pets", ">=", 2),
    ("school", "Find the first name of students who have more than one pet.", ">", 1),
    ("music", "stadiums with more than one concert", ">", 1),
    ("music", "countries with at least 2 singers", ">=", 2),
    ("library", "authors with more than 2 books", ">", 2),
]


@pytest.mark.parametrize(("schema", "question", "op", "value"), AT_LEAST)
def test_at_least_n_related_rows(
    readings: Any, schema: str, question: str, op: str, value: int
) -> None:
    found = readings.dsl(schema, question)
    assert found["having"] == [{"field": "count", "op": op, "value": value}]


WITHOUT = [
    ("music", "Show the stadium names without any concert.", "stadium", "concert"),
    ("music", "What are the names of the stadiums without any concerts?", "stadium", "concert"),
    ("music", "stadiums that have no concerts", "stadium", "concert"),
    ("music", "singers who never performed in a concert", "singer", "singer_in_concert"),
    ("school", "students who do not have a pet", "Student", "Has_Pet"),
    ("school", "What is the average age for all students who do not own any pets?", "Student", "Has_Pet"),
    ("library", "members without loans", "members", "loans"),
    ("music", "Show names for all stadiums except for stadiums having a concert in year 2014.", "stadium", "concert"),
]  # fmt: skip


@pytest.mark.parametrize(("schema", "question", "model", "related"), WITHOUT)
def test_without_any_is_an_anti_join(
    readings: Any, schema: str, question: str, model: str, related: str
) -> None:
    found = readings.dsl(schema, question)
    assert found["model"] == model
    assert {"model": related, "type": "not exists"} in found["joins"]


def test_a_test_of_the_other_sign_asks_about_another_related_row(
    readings: Any,
) -> None:
    found = readings.dsl("school", "students who have a dog but do not have a cat")
    kinds = [j["type"] for j in found["joins"] if j["model"] == "Has_Pet"]
    assert kinds == ["exists", "not exists"]


# -- years, directions and quoted text ------------------------------------------------------

YEARS = [
    ("How many concerts are there in year 2014 or 2015?", {"or": [where("Year", "=", "2014"), where("Year", "=", "2015")]}),
    ("concerts in 2014", where("Year", "=", "2014")),
    ("concerts after 2014", where("Year", ">=", "2015")),
    ("concerts before 2015", where("Year", "<=", "2014")),
]  # fmt: skip


@pytest.mark.parametrize(("question", "expected"), YEARS)
def test_years_go_to_a_year_column(readings: Any, question: str, expected: dict[str, Any]) -> None:
    assert readings.dsl("music", question)["wheres"] == [expected]


@pytest.mark.parametrize(
    ("question", "field"),
    [
        ("flights from JFK", "SourceAirport"),
        ("How many flights depart from JFK?", "SourceAirport"),
        ("flights to LAX", "DestAirport"),
        ("How many flights go to LAX?", "DestAirport"),
    ],
)
def test_the_direction_chooses_between_two_keys(readings: Any, question: str, field: str) -> None:
    assert [w["field"] for w in readings.dsl("flights", question)["wheres"]] == [field]


@pytest.mark.parametrize(
    "question", ["airports with flights", "flights at LAX", "how many flights does JFK have?"]
)
def test_no_link_is_guessed_between_two_keys(readings: Any, question: str) -> None:
    readings.refused("flights", question)


def test_quoted_text_in_a_named_column(readings: Any) -> None:
    found = readings.dsl("music", "the singer who has a song having 'Hey' in its name")
    assert found["wheres"] == [where("Song_Name", "like", "%hey%")]


@pytest.mark.parametrize("question", ["singers with 'hey' somewhere", "songs called 'the'"])
def test_quoted_words_are_never_filler(readings: Any, question: str) -> None:
    assert "hey" in readings.refused("music", question) or "the" in readings.refused(
        "music", question
    )


# -- refusals: a partial reading never answers a different question ---------------------------

REFUSALS = [
    ("music", "Show countries where a singer above age 40 and a singer below 30 are from.", "and"),
    ("music", "What are the names of the singers and number of concerts for each person?", None),
    ("shop", "books not written by Mara Quell", "written"),
    ("shop", "books not written by Maya", "written"),
    ("shop", "books written by Mara", "mara"),
    ("shop", "books written by Maya Patel", "written"),
    ("school", "students with more pets than Linda", None),
    ("library", "books about dragons", "dragons"),
]


@pytest.mark.parametrize(("schema", "question", "word"), REFUSALS)
def test_questions_not_read_whole_are_refused_naming_what_was_not_read(
    readings: Any, schema: str, question: str, word: str | None
) -> None:
    unknown = readings.refused(schema, question)
    if word is not None:
        assert word in unknown


def test_a_name_is_not_corrected_into_another_name(readings: Any) -> None:
    """ "Mara" is not the Maya of the shop's customer Maya Patel."""
    reading = readings.read("shop", "books not written by Mara Quell")
    assert reading.notes == ()
    assert {"mara", "quell", "written", "not"} <= set(reading.unknown)


@pytest.mark.parametrize(
    ("schema", "question", "expected"),
    [
        ("music", "concerts between 2014 and 2015", where("Year", "between", ["2014", "2015"])),
        ("library", "authors with a country", where("country", "is not null")),
        ("school", "students whose last name is 'Smith'", where("LName", "=", "Smith")),
        ("school", "students whose sex is not F", where("Sex", "!=", "F")),
    ],
)
def test_more_tests_of_one_column(
    readings: Any, schema: str, question: str, expected: dict[str, Any]
) -> None:
    assert readings.dsl(schema, question)["wheres"] == [expected]


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("appointments on 2008-04-26", [where("day", ">=", "2008-04-26"), where("day", "<", "2008-04-27")]),
        ("appointments in April 2008", [where("day", ">=", "2008-04-01"), where("day", "<", "2008-05-01")]),
    ],
)  # fmt: skip
def test_dates_held_as_iso_text_compare_as_dates(
    tmp_path: Path, readings_of: Callable[..., Any], question: str, expected: list[Any]
) -> None:
    import sqlite3

    path = tmp_path / "visits.db"
    with sqlite3.connect(path) as conn:
        conn.executescript(
            "CREATE TABLE appointments (id INTEGER PRIMARY KEY, day TEXT, room TEXT);"
            "INSERT INTO appointments VALUES (1, '2008-04-24', 'A'), (2, '2008-04-26', 'B');"
        )
    conn.close()
    reading = readings_of({"visits": path}).read("visits", question)
    assert reading.unknown == ()
    assert reading.plans[0].dsl.as_json()["wheres"] == expected


# -- a partial reading is refused, never answered as another question --------------------------


@pytest.mark.parametrize(
    ("schema", "question"),
    [
        ("music", "Show names of singers and the concerts they performed in."),
        ("music", "What is the name of each singer and what concert they sang in?"),
        ("music", "List the names of stadiums and the concerts they hosted."),
        ("school", "List the first names of students and the pets they own."),
        ("library", "Show the names of members and the books they borrowed."),
        # "the names of the people …" over rows that are not people's
        ("music", "What are the names of the people who sang in Auditions?"),
        ("music", "List the names of the people in concerts of 2014."),
    ],
)
def test_what_is_asked_for_is_never_dropped(readings: Any, schema: str, question: str) -> None:
    readings.refused(schema, question)


@pytest.mark.parametrize(
    ("schema", "question", "model", "field", "values"),
    [
        ("school", "students who have a cat and a dog", "Student", "PetType", ["cat", "dog"]),
        ("school", "Find the students that own cats and dogs.", "Student", "PetType", ["cat", "dog"]),
        ("music", "singers who sang in Auditions and Home Visits", "singer", "concert_Name",
         ["Auditions", "Home Visits"]),
        ("library", "members who borrowed Ion Drift and Garden Notes", "members", "title",
         ["Ion Drift", "Garden Notes"]),
    ],
)  # fmt: skip
def test_values_joined_by_and_on_related_rows_each_need_a_row(
    readings: Any,
    schema: str,
    question: str,
    model: str,
    field: str,
    values: list[str],
) -> None:
    found = readings.dsl(schema, question)
    assert found["model"] == model
    exists = [j for j in found["joins"] if j.get("type") == "exists"]
    assert len(exists) == len(values)  # one related row for each value, not either of them
    tested = [w["value"] for w in found["wheres"] if w["field"].endswith(f".{field}")]
    assert sorted(tested) == sorted(values)


@pytest.mark.parametrize(
    ("schema", "question", "field", "values"),
    [
        ("music", "singers from France and Netherlands", "Country", ["France", "Netherlands"]),
        ("school", "students from BAL and HKG", "city_code", ["BAL", "HKG"]),
        ("library", "books in Fantasy and Nonfiction", "genre", ["Fantasy", "Nonfiction"]),
    ],
)
def test_values_joined_by_and_on_the_rows_own_column_are_either(
    readings: Any, schema: str, question: str, field: str, values: list[str]
) -> None:
    assert readings.dsl(schema, question)["wheres"] == [where(field, "in", values)]


@pytest.mark.parametrize(
    ("schema", "question"),
    [
        ("school", "students who do not have cats and dogs"),
        ("music", "singers who did not sing in Auditions and Home Visits"),
    ],
)
def test_a_negation_over_values_joined_by_and_on_related_rows_is_refused(
    readings: Any, schema: str, question: str
) -> None:
    assert "and" in readings.refused(schema, question)


@pytest.mark.parametrize(
    ("schema", "question", "model", "related", "field"),
    [
        ("library", "members who never returned a loan", "members", "loans", "returned_on"),
        ("library", "members who have not returned any loans", "members", "loans", "returned_on"),
    ],
)
def test_no_value_on_related_rows_means_no_related_row_has_one(
    readings: Any, schema: str, question: str, model: str, related: str, field: str
) -> None:
    found = readings.dsl(schema, question)
    assert found["model"] == model
    assert [j["type"] for j in found["joins"] if j["model"] == related] == ["not exists"]
    assert found["wheres"] == [where(f"{related}.{field}", "is not null")]


@pytest.mark.parametrize(
    ("schema", "question", "field", "value"),
    [
        ("library", "books whose genre is not Fantasy", "genre", "Fantasy"),
        ("music", "singers whose country is not France", "Country", "France"),
        ("music", "concerts whose theme is not Wide Awake", "Theme", "Wide Awake"),
    ],
)
def test_a_negated_column_followed_by_its_value_tests_the_value(
    readings: Any, schema: str, question: str, field: str, value: str
) -> None:
    assert readings.dsl(schema, question)["wheres"] == [where(field, "!=", value)]


@pytest.mark.parametrize(
    ("schema", "question"),
    [
        ("music", "What are the countries that are not having singers in Auditions?"),
        ("music", "which countries' singers did not sing in Auditions?"),
        ("school", "What are the cities that do not have students with a cat?"),
        ("music", "Show the stadium names of concerts that are not in 2014."),
    ],
)
def test_a_negation_that_may_govern_other_rows_than_those_listed_is_refused(
    readings: Any, schema: str, question: str
) -> None:
    assert "not" in readings.refused(schema, question)


@pytest.mark.parametrize(
    ("schema", "question", "model"),
    [
        ("music", "What are the countries of singers who did not sing in Auditions?", "singer"),
        ("school", "the city codes of all students that do not have a cat", "Student"),
        ("music", "What are the ids of singers who are not from France?", "singer"),
    ],
)
def test_a_negation_about_the_rows_whose_values_are_listed_is_read(
    readings: Any, schema: str, question: str, model: str
) -> None:
    assert readings.dsl(schema, question)["model"] == model


@pytest.mark.parametrize(
    ("schema", "question", "field", "sort"),
    [
        ("music", "Sort all the stadiums by capacity in descending order.", "Capacity", "desc"),
        ("school", "order the students by age", "Age", "asc"),
        ("library", "sort the books by pages, return their titles", "pages", "asc"),
    ],
)
def test_sort_the_rows_by_a_column(
    readings: Any, schema: str, question: str, field: str, sort: str
) -> None:
    found = readings.dsl(schema, question)
    assert "aggregates" not in found
    assert found["orders"][0] == {"field": field} | ({"sort": "desc"} if sort == "desc" else {})


@pytest.mark.parametrize(
    ("schema", "question", "model", "value"),
    [
        ("school", "Find the number of dogs owned by female students.", "Pets", "dog"),
        ("school", "how many cats are there?", "Pets", "cat"),
        ("school", "how many dog pets do female students have?", "Pets", "dog"),
        ("library", "the number of fantasy books", "books", "Fantasy"),
    ],
)
def test_the_number_of_a_value_counts_the_rows_holding_it(
    readings: Any, schema: str, question: str, model: str, value: str
) -> None:
    found = readings.dsl(schema, question)
    assert found["model"] == model
    assert found["aggregates"][0]["fn"] == "count"
    assert value in [w.get("value") for w in found["wheres"]]


@pytest.mark.parametrize(
    ("schema", "question", "field"),
    [
        ("school", "students who own a dog and are older than 20", "Age"),
        ("school", "students that have a cat and who are younger than 20", "Age"),
        ("school", "pets owned by students younger than 20", "Student.Age"),
    ],
)
def test_and_are_speaks_of_the_subject_again(
    readings: Any, schema: str, question: str, field: str
) -> None:
    fields = [w["field"] for w in readings.dsl(schema, question)["wheres"]]
    assert field in fields or any(f.endswith(f".{field}") for f in fields if "." in field)


def test_a_models_own_name_comes_before_the_models_it_is_a_synonym_of(
    tmp_path: Path, readings_of: Callable[..., Any]
) -> None:
    import sqlite3

    path = tmp_path / "hires.db"
    with sqlite3.connect(path) as conn:
        conn.executescript(
            "CREATE TABLE employee (Employee_ID INT PRIMARY KEY, Name TEXT);"
            "CREATE TABLE hiring (Employee_ID INT PRIMARY KEY REFERENCES employee(Employee_ID),"
            " Start_from TEXT);"
            "INSERT INTO employee VALUES (1, 'Lee'); INSERT INTO hiring VALUES (1, '2009');"
        )
    conn.close()
    readings = readings_of({"hires": path})
    for question in ("all the information about hiring", "show every hiring", "list hirings"):
        assert [p.dsl.model for p in readings.read("hires", question).plans] == ["hiring"], question
