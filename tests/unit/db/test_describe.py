"""The one-line reading of a DSL ("understood as …") and the Understanding kept on results."""

from __future__ import annotations

from typing import Any

import pytest

from unified_search.db.describe import describe
from unified_search.db.dsl import QueryDSL
from unified_search.db.understanding import KEY, Understanding
from unified_search.types import SearchResult


@pytest.mark.parametrize(
    ("dsl", "line"),
    [
        ({"model": "books"}, "books"),
        (
            {"model": "books", "wheres": [{"field": "price", "op": "<", "value": 20.0}], "limit": 3},
            "books where price < 20, first 3",
        ),
        (
            {"model": "books", "wheres": [{"field": "genre", "op": "!=", "value": "Science Fiction"},
                                          {"field": "published", "op": "between",
                                           "value": ["2020-01-01", "2020-12-31"]}]},
            'books where genre ≠ "Science Fiction" and published between 2020-01-01 and 2020-12-31',
        ),
        (
            {"model": "products", "wheres": [{"or": [{"field": "name", "op": "like", "value": "%lamp%"},
                                                     {"field": "brand", "op": "in", "value": ["A", "B"]}]}],
             "orders": [{"field": "price", "sort": "desc"}, {"field": "name"}]},
            "products where (name contains lamp or brand is one of A, B), "
            "price highest first, then name lowest first",
        ),
        (
            {"model": "customers", "joins": [{"model": "orders", "type": "not exists"}]},
            "customers where without orders",
        ),
        (
            {"model": "orders", "joins": [{"model": "customers"}],
             "aggregates": [{"fn": "sum", "field": "total"}, {"fn": "count"}],
             "group_by": ["customers.id", "customers.name"],
             "having": [{"field": "count", "op": ">=", "value": 2}]},
            "sum of total of orders, number of orders per customers.name keeping count ≥ 2",
        ),
        (
            {"model": "products", "select": ["brand"], "distinct": True},
            "distinct brand of products",
        ),
        (
            {"model": "staff", "wheres": [{"field": "manager_id", "op": "is null"}]},
            "staff where manager_id is empty",
        ),
    ],
)  # fmt: skip
def test_describe_reads_the_dsl(dsl: dict[str, Any], line: str) -> None:
    assert describe(QueryDSL.model_validate(dsl)) == line


def test_understanding_round_trips_through_result_metadata() -> None:
    understanding = Understanding(
        understood="orders", not_understood=["wobbly"], generator="writer", warnings=["w"]
    )
    result = SearchResult(type="db", query="q", metadata={KEY: understanding.as_metadata()})
    assert Understanding.of(result) == understanding
    assert Understanding.of(result.model_dump(mode="json")) is None  # a plain dict has no .metadata
    assert Understanding.of(SearchResult(type="web", query="q")) is None
    assert understanding.line() == "understood as: orders; not understood: wobbly"
    assert Understanding().line() == "nothing understood"
