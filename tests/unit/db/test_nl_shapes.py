"""The builtin generator over a schema of yet another shape: several-word model names, yes/no
columns, accented values, units sold on line rows, staff known by their hire date, a view.

A small bakery: baked goods, staff (no email or phone), sale lines that point at both, and a
view of units sold per good. Only the generator runs here, on SQLite; answers on both
databases are checked in ``test_answers.py``.
"""

from __future__ import annotations

import datetime as dt
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from unified_search.db.nl.generate import Interpretation, interpret
from unified_search.db.nl.vocabulary import Domain

TODAY = dt.date(2025, 3, 12)
BAKERY = """
CREATE TABLE baked_goods (
    id INTEGER PRIMARY KEY, name VARCHAR(60) NOT NULL, kind VARCHAR(20) NOT NULL,
    price NUMERIC(6, 2) NOT NULL, gluten_free BOOLEAN NOT NULL, launched DATE NOT NULL
);
CREATE TABLE staff (
    id INTEGER PRIMARY KEY, name VARCHAR(60) NOT NULL, role VARCHAR(20) NOT NULL, hired DATE NOT NULL
);
CREATE TABLE sale_lines (
    id INTEGER PRIMARY KEY, baked_good_id INTEGER NOT NULL REFERENCES baked_goods(id),
    cashier_id INTEGER NOT NULL REFERENCES staff(id), sold_on DATE NOT NULL, units INTEGER NOT NULL
);
INSERT INTO baked_goods VALUES
 (1, 'Pain au chocolat', 'pastry', 2.10, 0, '2019-04-01'),
 (2, 'Éclair café', 'pastry', 3.40, 0, '2021-06-15'),
 (3, 'Almond cake', 'cake', 18.00, 1, '2022-09-01'),
 (4, 'Rye loaf', 'bread', 4.20, 0, '2019-04-01'),
 (5, 'Buckwheat loaf', 'bread', 5.10, 1, '2024-02-20'),
 (6, 'Lemon tart', 'cake', 16.50, 0, '2023-05-05');
INSERT INTO staff VALUES
 (1, 'Rosa Lind', 'baker', '2018-02-01'), (2, 'Theo Vance', 'sales assistant', '2023-10-09'),
 (3, 'Uma Reyes', 'manager', '2016-01-04');
INSERT INTO sale_lines VALUES
 (1, 1, 2, '2025-03-01', 12), (2, 2, 2, '2025-03-01', 4), (3, 1, 2, '2025-03-02', 9),
 (4, 5, 3, '2025-03-02', 2), (5, 3, 2, '2025-02-14', 1), (6, 6, 2, '2025-02-20', 3);
CREATE VIEW good_totals AS
 SELECT baked_good_id AS good_id, SUM(units) AS units_sold FROM sale_lines GROUP BY baked_good_id;
"""


@pytest.fixture(scope="module")
def bakery(
    tmp_path_factory: pytest.TempPathFactory, sampled_domain: Callable[..., Domain]
) -> Domain:
    path: Path = tmp_path_factory.mktemp("bakery") / "bakery.db"
    with sqlite3.connect(path) as conn:
        conn.executescript(BAKERY)
    conn.close()
    return sampled_domain(path)


def cond(field: str, op: str, value: Any) -> dict[str, Any]:
    return {"field": field, "op": op, "value": value}


def read(bakery: Domain, question: str) -> Interpretation:
    return interpret(question, bakery, list(bakery.models), today=TODAY)


def plan(bakery: Domain, question: str) -> dict[str, Any]:
    reading = read(bakery, question)
    assert len(reading.plans) == 1, [p.dsl.as_json() for p in reading.plans]
    assert reading.unknown == (), reading.unknown
    return reading.plans[0].dsl.as_json()


@pytest.mark.parametrize(
    ("question", "wheres"),
    [
        ("gluten free cakes", [cond("gluten_free", "=", True), cond("kind", "=", "cake")]),
        (
            "breads that aren't gluten free",
            [cond("kind", "=", "bread"), cond("gluten_free", "=", False)],
        ),
        (
            "non-gluten-free pastries",
            [cond("gluten_free", "=", False), cond("kind", "=", "pastry")],
        ),
    ],
)
def test_a_yes_no_column_named_as_a_quality_is_a_condition(
    bakery: Domain, question: str, wheres: list[dict[str, Any]]
) -> None:
    """Named, a yes/no column is true; negated, false; the negation governs nothing after it."""
    found = plan(bakery, question)
    assert found["model"] == "baked_goods"
    assert found["wheres"] == wheres


@pytest.mark.parametrize(
    ("question", "model"),
    [
        ("goods launched before 2020", "baked_goods"),
        ("baked goods under 5 dollars", "baked_goods"),
        ("sale lines from last week", "sale_lines"),
    ],
)
def test_one_word_of_a_longer_model_name_names_it(
    bakery: Domain, question: str, model: str
) -> None:
    assert plan(bakery, question)["model"] == model


def test_a_key_named_by_its_target_models_words_does_not_pick_the_subject(bakery: Domain) -> None:
    """ "goods" names baked goods, not ``sale_lines.baked_good_id``; a role word stays a key."""
    assert plan(bakery, "how many goods are pastries")["model"] == "baked_goods"
    found = plan(bakery, "sale lines of cashier Theo Vance")
    assert found["model"] == "sale_lines"
    assert found["wheres"] == [cond("cashier.name", "=", "Theo Vance")]


def test_accents_do_not_matter(bakery: Domain) -> None:
    assert plan(bakery, "eclair cafe")["wheres"] == [cond("name", "=", "Éclair café")]


def test_units_sold_of_a_thing_are_summed_on_the_lines_that_sold_it(bakery: Domain) -> None:
    found = plan(bakery, "how many pains au chocolat did we sell?")
    assert found["model"] == "sale_lines"
    assert found["aggregates"] == [{"fn": "sum", "field": "units"}]
    assert found["wheres"] == [cond("baked_goods.name", "=", "Pain au chocolat")]


def test_the_best_selling_thing_of_a_kind_ranks_units_sold(bakery: Domain) -> None:
    found = plan(bakery, "best selling pastry")
    assert found["model"] == "sale_lines"
    assert found["orders"] == [{"field": "sum_units", "sort": "desc"}]
    assert found["limit"] == 1


def test_rows_with_a_hire_date_are_people(bakery: Domain) -> None:
    assert plan(bakery, "who is the manager?")["model"] == "staff"


def test_a_line_of_model_synonyms_names_the_model_by_any_of_them(bakery: Domain) -> None:
    assert plan(bakery, "employees hired since 2020")["model"] == "staff"


def test_number_of_abbreviated(bakery: Domain) -> None:
    found = plan(bakery, "no. of cakes")
    assert found["aggregates"] == [{"fn": "count", "as": "count"}]


def test_a_views_computed_column_is_a_number(bakery: Domain) -> None:
    assert bakery.models["good_totals"].columns["units_sold"].kind == "int"
    found = plan(bakery, "good totals with more than 10 units sold")
    assert found["wheres"] == [cond("units_sold", ">", 10)]


@pytest.mark.parametrize("question", ["units of baked goods", "cashiers of baked goods"])
def test_a_related_models_bare_column_is_not_understood(bakery: Domain, question: str) -> None:
    """Nothing says what a related column should be: refused, never dropped."""
    reading = read(bakery, question)
    assert [p.dsl.model for p in reading.plans] == ["baked_goods"]
    assert reading.unknown == (question.split()[0],)
